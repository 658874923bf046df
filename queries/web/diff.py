"""The explorer's diff pages (issue 28): what a revision or a what-if moves, each value linked to its proofs.

    GET /diff?rev=HEAD~1                          the world at HEAD~1 -> the world
    GET /diff?without=src-x                       the world -> the world without src-x (a what-if)
    GET /diff?set=src-x&to=status%3Dunaudited     the world -> the world with src-x's status set
    GET /diff/why/<org>/<dim>?policy=P&side=old&rev=HEAD~1   a value's proof on the other side

The page's report is queries/diff.py's (the CLI's); a side is loaded once per query string and kept.
Revisions are read from git by ``git rev-parse`` and ``git ls-tree`` (facts/files.py), whatever the
text asks; a what-if is made on the loaded facts, never by writing a file. Needs Flask (the web extra).
"""
from __future__ import annotations

import threading
from typing import Callable, Dict, Optional, Tuple

from flask import abort, render_template, request

from ...errors import ProvlogError
from ...facts import DIMS, LoadError
from ...facts.schema import POLICY_NAMES
from ..api import World
from ..diff import Report, compare, side, what_if


def _asked() -> Tuple[str, str, str, str]:
    a = request.args
    return (a.get("rev", "").strip(), a.get("without", "").strip(), a.get("set", "").strip(), a.get("to", "").strip())


def register(app, the_world: Callable[[], World], world_path: str, as_of: Optional[str]) -> None:
    """Add the diff routes to ``app`` (the world itself is ``the_world()``)."""
    from ...explain.proof import statement_text

    kept: Dict[Tuple, Tuple[World, World, Report]] = {}
    lock = threading.Lock()
    app.add_template_filter(statement_text, "statement")

    def sides() -> Tuple[World, World, Report, Tuple]:
        rev, without, set_id, to = asked = _asked()
        if not (rev or without or set_id):
            abort(404, "a diff needs rev= (a git revision), without= or set= and to= (a what-if)")
        with lock:
            if asked not in kept:
                w = the_world()
                try:
                    if rev:
                        old, new = World.load(side(rev, world_path), as_of=as_of), w
                    else:
                        sets = [(set_id, to)] if set_id else []
                        old, new = w, what_if(w, [without] if without else [], sets)
                except LoadError as e:
                    abort(404, "\n".join(d.render() for d in e.diagnostics[:20]))
                except ProvlogError as e:
                    abort(404, str(e))
                kept[asked] = (old, new, compare(old, new))
            old, new, report = kept[asked]
        return old, new, report, asked

    @app.get("/diff")
    def diff_report():
        if not any(_asked()):
            return render_template("diff.html", report=None, asked=_asked())
        _, _, report, asked = sides()
        return render_template("diff.html", report=report, asked=asked, by_org=report.by_org(),
                               rows=report.rows(), the_orgs=set(the_world().orgs))

    @app.get("/diff/why/<org>/<dim>")
    def diff_why(org, dim):
        from . import data

        old, new, report, asked = sides()
        w = old if request.args.get("side") == "old" else new
        policy = request.args.get("policy", "standard")
        if dim not in DIMS or policy not in POLICY_NAMES or org not in w.orgs:
            abort(404, f"no value {org} {dim} under {policy} on this side")
        label = report.old if w is old else report.new
        return render_template("diff_why.html", pf=data.proof(w, org, dim, policy), side=label,
                               name=data.name_of(w, org))
