"""The explorer's diff pages (issue 28): what a revision or a what-if moves, each value linked to its proofs.

    GET /diff?rev=HEAD~1                          the world at HEAD~1 -> the world
    GET /diff?without=src-x                       the world -> the world without src-x (a what-if)
    GET /diff?set=src-x&to=status%3Dunaudited     the world -> the world with src-x's status set
    GET /diff/why/<org>/<dim>?policy=P&side=old&rev=HEAD~1   a value's proof on the other side

The page's report is queries/diff.py's (the CLI's). ``rev`` is a git revision of the repository that
holds the served world, nothing else (:func:`revision`): resolved to its commit, which keys the side
kept (the last :data:`KEEP` sides asked are kept, so HEAD moved is HEAD read again, and a hundred
spellings of one commit are one side). A what-if is the CLI's (``set``/``to`` checked as ``--set``;
refused with 400 and the located message); no file is written. Needs Flask (the web extra).
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Callable, Dict, Optional, Tuple

from flask import abort, render_template, request

from ...errors import ProvlogError
from ...facts import DIMS, LoadError
from ...facts.schema import POLICY_NAMES
from ..api import World
from ...facts.files import GitError, GitTree, TreePath, commit_of
from ..diff import Report, compare, what_if


def _asked() -> Tuple[str, str, str, str]:
    a = request.args
    return (a.get("rev", "").strip(), a.get("without", "").strip(), a.get("set", "").strip(), a.get("to", "").strip())


#: the sides kept at once (each a loaded, derived world): the last few asked, by commit or what-if
KEEP = 4


def revision(rev: str, world_path: str) -> TreePath:
    """The served world at ``rev``, a git revision of the repository holding it and nothing else: no
    path (``/etc/passwd``, ``REV:path``, a folder elsewhere), no NUL or control character, no option;
    its files named by the commit id it resolves to. ProvlogError (said as a 400 or 404) otherwise;
    no message quotes a byte of a file."""
    if len(rev) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in rev) or rev.startswith(("-", "/", "~")) \
            or ":" in rev or ".." in rev or "\\" in rev:  # an option, a path, REV:path or a range: never read
        raise BadRevision(f"rev= takes a git revision (a branch, tag, commit id or HEAD~N), not {rev[:200]!r}")
    here = os.path.abspath(world_path)
    folder = here if os.path.isdir(here) else os.path.dirname(here)
    try:
        commit = commit_of(rev, folder)
        tree = GitTree(commit[:12], folder)
    except GitError as e:
        raise NoRevision(str(e)) from None
    inside = os.path.relpath(os.path.realpath(here), os.path.realpath(tree.top))
    if inside.startswith(".."):  # pragma: no cover - git found the repository above the folder
        raise NoRevision("the served world is not inside its git repository")
    return TreePath(tree, inside.replace(os.sep, "/"))


class BadRevision(ProvlogError):
    """A rev= that is not a revision's name at all (400)."""


class NoRevision(ProvlogError):
    """A rev= the repository has no commit for (404)."""


def register(app, the_world: Callable[[], World], world_path: str, as_of: Optional[str]) -> None:
    """Add the diff routes to ``app`` (the world itself is ``the_world()``)."""
    from ...explain.proof import statement_text

    kept: "OrderedDict[Tuple, Tuple[World, World, Report]]" = OrderedDict()
    lock = threading.Lock()
    app.extensions["provlog.diff.kept"] = kept
    app.add_template_filter(statement_text, "statement")

    def sides() -> Tuple[World, World, Report, Tuple]:
        rev, without, set_id, to = asked = _asked()
        if not (rev or without or set_id):
            abort(404, "a diff needs rev= (a git revision), without= or set= and to= (a what-if)")
        with lock:
            w = the_world()
            try:
                old_side = revision(rev, world_path) if rev else None
            except BadRevision as e:
                abort(400, str(e))
            except NoRevision as e:
                abort(404, str(e))
            # a revision's side is kept by the commit it names now (HEAD moves), never by its spelling
            key = (id(w), old_side.tree.commit if old_side is not None else None, without, set_id, to)
            if key not in kept:
                try:
                    if old_side is not None:
                        old, new = World.load(old_side, as_of=as_of), w
                    else:
                        sets = [(set_id, to)] if set_id else []
                        old, new = w, what_if(w, [without] if without else [], sets)
                except LoadError as e:  # a what-if refused is the request's fault; a revision's load, its side's
                    abort(404 if old_side is not None else 400, "\n".join(d.render() for d in e.diagnostics[:20]))
                except ProvlogError as e:
                    abort(404, str(e))
                kept[key] = (old, new, compare(old, new))
                while len(kept) > KEEP:
                    kept.popitem(last=False)
            kept.move_to_end(key)
            old, new, report = kept[key]
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
