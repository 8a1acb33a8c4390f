"""How a message shows a value: one way to name it, one quoting style, did-you-mean."""
