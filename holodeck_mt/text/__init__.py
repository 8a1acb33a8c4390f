"""Where things stand in a text, and how its characters are shown."""
