"""The project every front end shares: its files found, its configuration and settings
read, and what is written back to it."""
