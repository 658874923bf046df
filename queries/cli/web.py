"""The web commands (the web extra, Flask): ``site`` writes the static public site, ``serve`` runs
the local read-only explorer (queries/web/)."""
from __future__ import annotations

import os
from typing import Optional

import click

from ...errors import ProvlogError
from .options import echo, AS_OF, POLICY, _fail, _guard, _load


@click.command()
@click.argument("world")
@click.argument("out", type=click.Path())
@click.option("--force", is_flag=True, help="Move an OUT provlog did not write aside (named in the report); nothing is deleted.")
@click.option("--preview", is_flag=True, help="Write every subject, even those in their reply window; every page says preview.")
@click.option("--history", "history", default=None, metavar="REV-RANGE",
              help="Show each org's history in this range of the world's git history (HEAD: all of it), and "
                   "write feed.xml, an Atom feed of the moves (docs/history.md).")
@AS_OF
@_guard
def site(world: str, out: str, force: bool, preview: bool, history: Optional[str], as_of: Optional[str]) -> None:
    """The whole public site of WORLD as static files in OUT: open OUT/index.html, or put it on any host (docs/site.md).

    Needs the web extra: pip install 'provlog[web]'.
    """
    try:
        from ..web.export import export
    except ImportError:
        _fail("provlog site needs Flask: pip install 'provlog[web]'", 2)
    from ...importers import ImportFailure

    try:
        n, moved = export(world, out, force=force, as_of=as_of, loaded=_load(world, as_of=as_of), preview=preview,
                          history=history)
    except ImportFailure as e:  # OUT is not provlog's to take: said, nothing written
        _fail(e.render(), 1)
    echo(f"provlog: wrote {n} files to {out}; open {os.path.join(out, 'index.html')}"
               + (f" (the folder that was there is now {moved})" if moved else ""), err=True)


#: the commits of history an org page shows by default: enough to see what moved lately, and the
#: first page asked derives at most this many commits (one edit each, usually)
HISTORY_LAST = 20


def _history(world: str, given: Optional[str], last: int) -> Optional[str]:
    """The range the org pages show (None: no history). A range asked for that git cannot walk is
    refused (exit 2); the default one, where the world is not in git, is said and left out."""
    if last == 0:
        return None
    from ...facts.commits import HistoryError, walk

    try:
        walk(world, given or "HEAD", 1)
    except HistoryError as e:
        if given is not None:
            _fail(str(e), e.exit_code)
        echo(f"provlog: no history on the org pages: {e}", err=True)
        return None
    return given or "HEAD"


@click.command()
@click.argument("world")
@click.option("--port", default=8470, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default serves this machine only (say 0.0.0.0 to serve others).")
@click.option("--history", "history", default=None, metavar="REV-RANGE",
              help="Show each org's history in this range of the world's git history [default: HEAD] "
                   "(docs/history.md).")
@click.option("--history-last", default=HISTORY_LAST, show_default=True, type=click.IntRange(0), metavar="N",
              help="Only the newest N commits of the range (0: show no history).")
@POLICY
@AS_OF
def serve(world: str, port: int, host: str, history: Optional[str], history_last: int, policy: str,
          as_of: Optional[str]) -> None:
    """A local, read-only web explorer of WORLD: cards, proofs, tie graphs, each org's history (docs/web.md).

    Needs the web extra: pip install 'provlog[web]'.
    """
    try:
        from ..web import create_app
    except ImportError:
        _fail("provlog serve needs Flask: pip install 'provlog[web]'", 2)
    rng = _history(world, history, history_last)
    try:
        app = create_app(world, policy, as_of=as_of, host=host, history=rng, history_last=history_last or None)
    except ProvlogError as e:  # an unknown policy (UnknownName was not imported here)
        _fail(str(e), e.exit_code)
    echo(f"provlog: serving {world} on http://{host}:{port}/ (read-only; Ctrl-C stops)", err=True)
    app.run(host=host, port=port, debug=False, use_reloader=False)
