"""``provlog lsp``: the language server for editors, over stdio (queries/lsp/, docs/editors.md)."""
from __future__ import annotations

import click

from .options import _fail


@click.command()
@click.option("--stdio", is_flag=True, help="Speak over stdin and stdout (the default, and the only way).")
def lsp(stdio: bool) -> None:
    """Run the language server: diagnostics as you type, hovers, inlay hints, navigation, completion
    and "why" code lenses for the world of the editor's workspace (docs/editors.md). Needs the lsp
    extra: pip install 'provlog[lsp]'."""
    try:
        from ..lsp.server import serve
    except ImportError as e:
        _fail(f"provlog lsp needs pygls and lsprotocol ({e}): pip install 'provlog[lsp]'", 1)
    serve()
