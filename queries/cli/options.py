"""What every command of the CLI shares: the common options (``--policy``, ``--as-of``,
``--format``/``--json``, ``--goal``, ``--rulebook``), loading the command's world (with its stored
model), and printing: JSON, CSV, and a one-line failure with its exit code."""
from __future__ import annotations

import datetime
import functools
import json
import os
import sys
from typing import List, Optional

import click

from ...errors import ProvlogError
from ...facts import LoadError
from ...facts.schema import POLICY_NAMES
from ..api import DEFAULT_POLICY, World
from ..terminal import printable


POLICY = click.option("--policy", "policy", default=DEFAULT_POLICY, show_default=True, metavar="P",
                      help="Evidence policy: " + ", ".join(POLICY_NAMES))


def output(*formats: str):
    """``--format`` with the formats a command has (text first), and ``--json`` as an alias of
    ``--format json``: the one output scheme of every command (docs/json.md has the shapes)."""
    def deco(fn):
        @functools.wraps(fn)
        def run(*a, as_json: bool = False, **kw):
            if as_json:
                kw["fmt"] = "json"
            return fn(*a, **kw)

        run = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(run)
        return click.option("--format", "fmt", type=click.Choice(formats), default=formats[0], show_default=True,
                            help="Output format (JSON shapes: docs/json.md).")(run)
    return deco


def _csv(header: List[str], rows) -> None:
    import csv
    import io

    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(header)
    out.writerows(rows)
    echo(buf.getvalue(), nl=False)


def _date(ctx, param, value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"takes a date YYYY-MM-DD, got {value!r}") from None


AS_OF = click.option("--as-of", "as_of", default=None, metavar="YYYY-MM-DD", callback=_date,
                     help="Read the world at this date (result ages and freshness, ended stakes and roles); "
                          "default: the world's own as-of statement, else today.")


def _dump(obj) -> None:
    echo(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False))


def echo(text: object = "", **kw) -> None:
    """click.echo for every line the CLI prints: world text (names, file names, quoted spans) may hold
    control characters, which reach the terminal escaped, never raw (queries/terminal.py)."""
    click.echo(printable(str(text)), **kw)


def _fail(msg: str, code: int) -> None:
    echo(f"provlog: {msg}", err=True)
    sys.exit(code)


#: where the command's world is stored (the group's --store / --no-store / PROVLOG_STORE)
_STORE: dict = {"store": True}


def _load(world: str, strict: bool = False, as_of: Optional[str] = None, store=None) -> World:
    """The command's world, stored where the group's options say (``store``: a file given instead)."""
    from ..progress import stratum_progress

    try:
        w = World.load(world, strict=strict, as_of=as_of, freeze=True,  # the process ends with the command
                       store=_store_for(world) if store is None else store, progress=stratum_progress(sys.stderr))
        ctx = click.get_current_context(silent=True)
        if ctx is not None:  # a first derivation is stored once the command has printed its answer
            w.store_after_answer = True
            ctx.call_on_close(lambda: (sys.stdout.flush(), w.store_now()))
        return w
    except LoadError as e:
        echo(e.render(), err=True)
        n = len(e.diagnostics)
        _fail(f"{n} error{'s' if n != 1 else ''}; the world was not loaded", 1)
    raise AssertionError  # unreachable


def _guard(fn):
    """Turn what a user got wrong (a ProvlogError: an unknown name, a malformed goal) into one line
    and its exit code, never a traceback."""
    @functools.wraps(fn)
    def run(*a, **kw):
        try:
            return fn(*a, **kw)
        except ProvlogError as e:
            _fail(str(e), e.exit_code)

    return run


def _store_for(world: str, old: bool = False):
    """The store option for World.load: True (the default place), False, or a file. ``old``: the
    older side of a diff, which never shares the store file given: ``x.sqlite`` names the new side's,
    ``x.old.sqlite`` the old side's (docs/diff.md)."""
    store = _STORE["store"]
    if old and isinstance(store, str) and not os.path.isdir(store):
        stem = store[:-len(".sqlite")] if store.endswith(".sqlite") else store
        return stem + ".old.sqlite"
    if isinstance(store, str) and os.path.isdir(store):
        from ...logic.store import default_path

        return os.path.join(store, default_path(world).name)  # a folder of stores: one per world
    return store


GOAL = click.option("--goal", default=None, metavar="GOAL",
                    help="Explain a goal of any rulebook instead of a value, e.g. \"finding('r1', A, C, K)\".")


RULEBOOK = click.option("--rulebook", default=None, metavar="NAME",
                        help="A rulebook other than the independence RULES (e.g. advice, pilot).")


def proof_cut(fn):
    """``--depth`` and ``--from``: the part of a proof printed (``why``, ``prove``)."""
    fn = click.option("--from", "start", type=int, default=None, metavar="N",
                      help="Only the sub-proof at handle #N (every format).")(fn)
    return click.option("--depth", type=int, default=None, help="Cut the proof below this depth (every format).")(fn)


def _org_dim(org: Optional[str], dim: Optional[str], goal: Optional[str], what: str) -> None:
    if goal is None and (org is None or dim is None):
        _fail(f"{what} needs ORG DIM, or --goal GOAL", 2)
    if goal is not None and org is not None:
        _fail(f"{what} takes ORG DIM or --goal, not both", 2)
