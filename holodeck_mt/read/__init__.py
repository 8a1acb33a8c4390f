"""Reading: a file's bytes to text to the document the platform reads."""
