"""The project every front end shares: its files, its configuration, what is written to it."""
