"""The language server (``holodeck-mt lsp``): the validator's diagnostics and fixes in editors.

It needs pygls, installed with the ``lsp`` extra (``pip install 'holodeck-mt[lsp]'``); the
validator itself does not.
"""
