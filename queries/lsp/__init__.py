"""The language server (`provlog lsp`): lands with issue 43."""
