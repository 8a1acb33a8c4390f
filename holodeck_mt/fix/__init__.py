"""Fixes: intents turned into text edits, and the ``fix`` command that applies them."""
