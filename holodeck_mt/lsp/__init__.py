"""The language server (``holodeck-mt lsp``); it needs the ``lsp`` extra (pygls)."""
