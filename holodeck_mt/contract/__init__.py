"""The contract: the schema registry, its keywords, engines and messages, and the
platform's lax reading of the values it converts."""
