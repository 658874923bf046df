"""The history of every published value: ``provlog log`` and ``provlog blame`` (issue 42; docs/history.md).

    >>> h = log("world", org="quorvell", dim="R")                 # doctest: +SKIP
    >>> [(e.commit.short, [r.label for r in e.rows]) for e in h.entries]   # doctest: +SKIP
    [('3f2a1b0c9d', ['value R standard'])]
    >>> print(blame("world", "quorvell", "R").to_text())           # doctest: +SKIP

The commits are facts/commits.py's walk (first parents, renames followed). Each commit's world is
read from git as ``provlog diff`` reads a revision (facts/files.py) and compared with the commit
before it by the diff's own machinery (queries/diff.py ``compare``): the moves, and the statements
each rests on. The walk runs oldest first so that each commit's store is written from the one
before by the edit path (logic/reread.py, logic/edit_delta.py: one changed file is the usual
commit): every commit's files are named alike (``@:path``, the commit named when printing), so the
previous store's texts meet the new ones. What each pair of commits moves is kept in
``.provlog/history.sqlite`` keyed by the two worlds' store keys (their content, the rules, provlog),
so a second ``log`` of the same question reads it and derives nothing.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ..errors import ProvlogError, UnknownName
from ..explain.diff import proof_leaves
from ..explain.proof import statement_text
from ..facts import LoadError
from ..facts.commits import NOT_LOADED, SHALLOW, Commit, HistoryError, Walk, walk
from ..facts.files import GitTree, TreePath
from ..logic import store as S
from .api import World
from .diff import Rest, Row, _md, _plain, compare, model, row_lines, row_table

#: the name every commit's files are read under (``@:world/a.facts``); printed as the commit's id
LABEL = "@"


class HistoryFailed(ProvlogError):
    """A history that cannot be walked (facts/commits.py HistoryError), as the CLI reports it."""

    exit_code = 2


@dataclass
class Entry:
    """One commit of the log: what moved (``rows``), the statements it changed, removed and added
    (``statements``), and ``error``: the world's first load error there (E187; nothing is compared).
    ``created``: the world first appears here; ``same``: its files are the parent's."""

    commit: Commit
    parent: Optional[str] = None
    rows: List[Row] = field(default_factory=list)
    statements: Tuple[int, int, int] = (0, 0, 0)
    error: Optional[str] = None
    created: bool = False
    same: bool = False
    added: List[str] = field(default_factory=list)  # digests of the statements it added (blame reads them)
    alone: bool = False  # the commit before does not load: nothing to compare with

    @property
    def moved(self) -> bool:
        return bool(self.rows)

    def head(self) -> str:
        c = self.commit
        return f"commit {c.short}  {c.date[:10]}  {c.subject}"

    def to_json(self) -> Dict[str, Any]:
        c = self.commit
        return {"commit": c.id, "parent": self.parent, "date": c.date, "author": c.author, "subject": c.subject,
                "path": c.path, "created": self.created, "alone": self.alone, "error": self.error and _at(self.error, c.short),
                "statements": dict(zip(("changed", "removed", "added"), self.statements)),
                "rows": [r.to_json() for r in self.rows]}


@dataclass
class History:
    """The log of a world: its entries newest first (those that moved something, or every one with
    ``every``), and the walk's notes (a shallow clone's end)."""

    world: str
    walk: Walk
    entries: List[Entry]
    every: bool = False
    notes: List[str] = field(default_factory=list)
    tip: Optional["_Side"] = field(default=None, repr=False)  # the newest commit's world that loads

    def listed(self) -> List[Entry]:
        return [e for e in self.entries if self.every or e.moved or e.error or e.created or e.alone]

    def to_json(self) -> Dict[str, Any]:
        return {"world": self.world, "path": self.walk.path, "notes": self.notes,
                "commits": [e.to_json() for e in self.listed()]}

    def to_text(self) -> str:
        out: List[str] = []
        for e in self.listed():
            out += ([""] if out else []) + [e.head()]
            if e.error:
                out.append(f"  the world does not load here: {_at(e.error, e.commit.short)}")
            elif e.created:
                out.append("  the world first appears here")
            elif e.alone:
                out.append("  the world loads here, and not at the commit before: nothing to compare with")
            elif not e.rows:
                out.append("  nothing moved" + (" (the world's files are the parent's)" if e.same else ""))
            if e.parent and e.parent != e.commit.parent and not e.error:
                out.append(f"  (compared with {e.parent[:10]}, the last commit before it where the world loads)")
            out += ["  " + line if line else line for line in row_lines(e.rows)]
        out += self.notes
        return "\n".join(out) if out else "nothing moved in the range"

    def to_markdown(self) -> str:
        out = [f"### provlog log: `{self.world}`", ""]
        for e in self.listed():
            c = e.commit
            out += [f"#### `{c.short}` {c.date[:10]} {_md(c.subject)}", ""]
            if e.error:
                out += [f"the world does not load here: {_md(_at(e.error, c.short))}", ""]
            elif e.created:
                out += ["the world first appears here", ""]
            elif not e.rows:
                out += ["nothing moved", ""]
            out += row_table(e.rows)
        return "\n".join(out + [_md(n) for n in self.notes])


# -- each commit's world ------------------------------------------------------------------------
class _Side:
    """One commit's world: its inputs' key, and (once asked) its World, read from its store."""

    def __init__(self, walk_: Walk, commit: Commit, strict: bool, as_of: Optional[str], folder: Path, same: Dict):
        self.commit, self.strict, self.as_of, self.top = commit, strict, as_of, walk_.top
        # the key of what the world's answers depend on: its files (the object git names them by: a tree
        # holds its files' blob ids), the flags, the date, and the rest of a store's key (``same``)
        self.key = S.key_of(dict(same, object=commit.object, path=commit.path, strict=bool(strict), as_of=as_of))
        self.target = folder / f"log-{self.key[:20]}.sqlite"
        self._world: Optional[World] = None

    def world(self, before: Optional["_Side"] = None) -> World:
        """The World (LoadError if it does not load); its store written from ``before``'s by the edit
        path when it has none of its own."""
        if self._world is None:
            tree = GitTree(self.commit.id, cwd=self.top)
            tree.rev = LABEL  # every commit's files named alike: the previous store is edited into this one
            self.path = TreePath(tree, self.commit.path)
            seeded = not self.target.exists() and before is not None and before.target.exists()
            if seeded:  # the edit path reads it as the store before, and writes a new file over it (queries/loading.py)
                _link(before.target, self.target)
            try:
                w = World.load(self.path, strict=self.strict, as_of=self.as_of, store=self.target)
            except LoadError:
                if seeded:  # the commit before's store, under this commit's name: not this world's
                    self.target.unlink(missing_ok=True)
                raise
            model(w)  # derived (if it was not edited) and stored now: the next commit is edited from it
            self._world = w
        return self._world


def _link(src: Path, dst: Path) -> None:
    """``dst`` as ``src``'s bytes: a hard link where the file system has them (a store is never written
    in place: each is written beside it and renamed over it, logic/store/writing.py), else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


class _Kept:
    """What each pair of commits moved, by the pair's key, in ``.provlog/history.sqlite``; each body
    bound to its key by this user's secret (a body copied to another key, or edited, is not read)."""

    def __init__(self, folder: Path):
        self.path = folder / "history.sqlite"
        folder.mkdir(parents=True, exist_ok=True)
        self.con = sqlite3.connect(self.path)
        self.con.execute("CREATE TABLE IF NOT EXISTS pairs (key TEXT PRIMARY KEY, body TEXT, mac TEXT)")
        self.secret = S.secret()

    def _mac(self, key: str, body: str) -> str:
        return hmac.new(self.secret, (key + "\0" + body).encode(), hashlib.sha256).hexdigest()

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        got = self.con.execute("SELECT body, mac FROM pairs WHERE key = ?", (key,)).fetchone()
        if got is None or not hmac.compare_digest(got[1], self._mac(key, got[0])):
            return None
        return json.loads(got[0])

    def put(self, key: str, body: Dict[str, Any]) -> None:
        text = json.dumps(body, sort_keys=True)
        self.con.execute("INSERT OR REPLACE INTO pairs VALUES (?, ?, ?)", (key, text, self._mac(key, text)))
        self.con.commit()


def _unchanging() -> Dict[str, Any]:
    """What a store's key holds beside the world's files and flags (logic/store/key.py ``inputs``):
    the layout, provlog's version and code, and today (a world without an ``as-of`` is read at it)."""
    got = S.inputs(Path(os.devnull), False, None, files=[])
    return {k: got.get(k) for k in ("schema", "version", "code", "today")}


def _pair_key(old: str, new: str, asked: Tuple) -> str:
    return hashlib.sha256(json.dumps([old, new, list(asked)]).encode()).hexdigest()


def _digest(f) -> str:
    return hashlib.sha256(f.canon().encode()).hexdigest()[:16]


def _first_error(e: LoadError) -> str:
    d = e.diagnostics[0]
    return f"{d.file}:{d.line}:{d.col}: {d.message} [{d.code}]"


def _compared(old: _Side, new: _Side, asked: Tuple) -> Dict[str, Any]:
    """What moves from ``old`` to ``new`` (``asked``: policy, org, dim), as kept: rows, counts, digests."""
    policy, org, dim = asked
    report = compare(old.world(), new.world(old), policy, org, dim)
    added = [b for _, b in report.changed] + report.added
    return {"rows": [r.to_json() for r in report.rows()],
            "statements": [len(report.changed), len(report.removed), len(report.added)],
            "added": sorted({_digest(f) for f in added})}


def _at(loc: str, short: str) -> str:
    """A place ``@:path:line`` as the commit's: ``SHORT:path:line`` (as ``git show`` names it)."""
    return short + loc[len(LABEL):] if loc.startswith(LABEL + ":") else loc


def _relabel(row: Row, old: str, new: str) -> Row:
    """``row`` with its statements' places naming the commits (the old side's ``-``, the new side's ``~``, ``+``)."""
    at = _at
    row.rests = [Rest(x.sign, x.text, at(x.loc, old if x.sign == "-" else new), x.was, x.old_text,
                      at(x.old_loc, old)) for x in row.rests]
    return row


def log(world: str, org: Optional[str] = None, dim: Optional[str] = None, policy: Optional[str] = None,
        rng: Optional[str] = None, every: bool = False, strict: bool = False, as_of: Optional[str] = None,
        last: Optional[int] = None) -> History:
    """The commits of ``rng`` (default: the whole history; ``last``: its newest ``last`` only) at which
    something of the world moved (of ``org``, of ``dim``'s values and conflicts, under ``policy`` if
    given); HistoryFailed if there is no history to walk."""
    try:
        w = walk(world, rng, last)
    except HistoryError as e:
        raise HistoryFailed(str(e)) from None
    folder = S.default_path(world).parent
    kept = _Kept(folder)
    same = _unchanging()
    asked = (policy, org, dim)
    hist = History(world, w, [], every)
    prev = _Side(w, w.base, strict, as_of, folder, same) if w.base is not None else None
    try:
        before = prev.commit.id if prev else None  # the last commit whose world loads
        for c in reversed(w.commits):  # oldest first: each store is edited from the one before
            e = Entry(c, before)
            if prev is not None and c.object == prev.commit.object:
                e.same = True  # the same files: the same world (nothing read)
                hist.entries.append(e)
                before = c.id
                continue
            cur = _Side(w, c, strict, as_of, folder, same)
            if prev is None:
                e.created = True
            else:
                _fill(e, prev, cur, kept, asked)
            hist.entries.append(e)
            if e.error is None:
                prev, before = cur, c.id
        hist.tip = prev
    finally:
        kept.con.close()
    if org is not None and hist.tip is not None and not any(e.rows for e in hist.entries):
        try:
            hist.tip.world()._check(org=org)  # an org no commit moved: one of the world's, or a typo?
        except LoadError:
            pass
    if w.shallow is not None:
        hist.notes.append(f"the history stops at {w.shallow[:10]}: this clone is shallow, the commits before it "
                          f"are not in it (git fetch --unshallow) [{SHALLOW}]")
        hist.entries[0].created = False
    hist.entries.reverse()
    return hist


def _fill(e: Entry, prev: _Side, cur: _Side, kept: _Kept, asked: Tuple) -> None:
    """The entry of ``cur`` against ``prev``: read from ``kept``, else compared (and kept)."""
    broken = kept.get(_pair_key("", cur.key, ()))
    if broken is not None:
        e.error = broken["error"]
        return
    key = _pair_key(prev.key, cur.key, asked)
    got = kept.get(key)
    if got is None:
        try:
            prev.world()
        except LoadError:  # only the walk's base can fail here (a commit that fails is never the one before)
            e.alone = True
            return
        try:
            cur.world(prev)
        except LoadError as err:
            e.error = _first_error(err)  # (named @:path: read back for any commit with these files)
            kept.put(_pair_key("", cur.key, ()), {"error": e.error})
            return
        got = _compared(prev, cur, asked)
        kept.put(key, got)
    e.rows = [_relabel(Row.from_json(r), (e.parent or prev.commit.id)[:10], cur.commit.short) for r in got["rows"]]
    e.statements = tuple(got["statements"])
    e.added = got["added"]


# -- blame --------------------------------------------------------------------------------------
@dataclass
class Blame:
    """A value at the newest commit, the entry that gave it its number (``commit``: None if the history
    walked does not reach it), and each statement of its proof with the entry that last changed it."""

    org: str
    dim: str
    policy: str
    value: Any
    rule: Optional[str]
    at: Commit
    commit: Optional[Entry]
    was: Any
    statements: List[Tuple[Any, Optional[Entry]]]
    notes: List[str]

    def _loc(self, f) -> str:
        return _at(str(f.loc), self.at.short)

    def to_text(self) -> str:
        shown = "-" if self.value is None else self.value
        out = [f"{self.org} {self.dim} {self.policy}: {shown}   rule {self.rule or '-'}   (at {self.at.short})"]
        c = self.commit
        out.append(f"  {_when(c)}  " + ("gave it its number" + ("" if c is None or c.created else f" (was {self.was})")))
        out += ["", "the statements at the leaves of its proof, each with the commit that last changed it:"]
        out += [f"  {_when(e)}  {statement_text(f)}  ({self._loc(f)})" for f, e in self.statements]
        return "\n".join(out + self.notes)

    def to_json(self) -> Dict[str, Any]:
        def commit(e: Optional[Entry]) -> Optional[Dict[str, Any]]:
            return None if e is None else {"commit": e.commit.id, "date": e.commit.date, "subject": e.commit.subject,
                                           "created": e.created}

        return {"org": self.org, "dim": self.dim, "policy": self.policy, "value": self.value, "rule": self.rule,
                "at": self.at.id, "commit": commit(self.commit), "was": self.was,
                "statements": [{"kind": f.kind, "text": statement_text(f), "loc": self._loc(f), "commit": commit(e)}
                               for f, e in self.statements], "notes": self.notes}


def _when(e: Optional[Entry]) -> str:
    if e is None:
        return "(before the history walked)".ljust(36)
    c = e.commit
    return f"{c.short}  {c.date[:10]}  {c.subject[:40]}".ljust(36) if not e.created else \
        f"{c.short}  {c.date[:10]}  (first appears) {c.subject[:24]}"


def blame(world: str, org: str, dim: str, policy: str = "standard", as_of: Optional[str] = None) -> Blame:
    """``org``'s ``dim`` under ``policy`` at the newest commit: the commit that gave it its number, and
    for each statement at a leaf of its proof the commit that last changed it (added it, or its text)."""
    h = log(world, org, dim, policy, every=True, as_of=as_of)
    if h.tip is None:
        raise HistoryFailed(f"the world does not load at any commit of its history [{NOT_LOADED}]")
    w = h.tip.world()
    w._check(org=org, dim=dim, policy=policy)
    got = w.derivation.program.match("value", 6, [(0, org), (1, dim), (2, policy)])
    if not got:
        raise UnknownName(f"{org} has no {dim} value under {policy} at {h.tip.commit.short}")
    row = tuple(got[0])
    rule, facts = proof_leaves(w.derivation, "value", row)
    newest = [e for e in h.entries if e.error is None]  # newest first
    made, was = None, None
    for e in newest:
        moved = [r for r in e.rows if r.what == "value" and r.old != r.new]
        if moved or e.created:
            made, was = e, (moved[0].old if moved else None)
            break
    when = []
    for f in facts:
        d = _digest(f)
        when.append((f, next((e for e in newest if d in e.added or e.created), None)))
    return Blame(org, dim, policy, _plain(row[3]), rule, newest[0].commit, made, "-" if was is None and made and not made.created
                 else was, when, h.notes)
