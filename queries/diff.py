"""``provlog diff``: what a change moves between two versions of a world, and why (docs/diff.md).

    >>> old, new = World.load(side("HEAD~1", "w"), store=True), World.load("w", store=True)   # doctest: +SKIP
    >>> print(compare(old, new).to_text())                                                  # doctest: +SKIP

A side is a world path, or a git revision of one, read from git's object store
(facts/files.py): ``REV:path`` (the path from the repository's top, as ``git
show`` reads it; ``REV:./path`` from the working directory), or a bare ``REV``
beside the other side's path. :func:`what_if` makes the new side from the old
one's facts instead (``--without``, ``--set``; facts/whatif.py).

The difference is read from the two stored models (logic/diff.py), row by row
of the relations reported; the reasons are proved only for what moved
(explain/diff.py).
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import re
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ..errors import ProvlogError
from ..explain.diff import ITEMS, RELATIONS, Move, moves
from ..explain.proof import statement_text
from ..facts.files import GitError, GitTree, TreePath, commit_of
from ..facts import LoadError
from ..facts.schema import POLICY_NAMES
from ..facts.model import Fact
from ..logic import store as S
from ..logic.diff import changes, pair, statements
from .api import World


class DiffError(ProvlogError):
    """A side that is neither a world nor a revision, or a diff asked wrongly (exit 2)."""

    exit_code = 2


# -- sides ----------------------------------------------------------------------------------------
def side(spec: str, other: Optional[str] = None, kind: Optional[str] = None) -> Union[str, TreePath]:
    """A world path, or a revision's world: ``REV:path``, or ``REV`` at ``other``'s path.

    ``kind`` is what the command line said the argument is (``rev`` before ``--``, ``path`` after it);
    without it, an argument that is both a path on disk and a revision is refused as ambiguous, as git
    refuses it."""
    rev, colon, path = spec.partition(":")
    if kind == "path":
        if not os.path.exists(spec):
            raise DiffError(f"{spec!r} (after --) is not a world: no such file or folder")
        return spec
    if kind is None and os.path.exists(spec):
        if _revision(spec) or (colon and rev and _revision(rev)):
            raise DiffError(f"{spec!r} is both a world path and a git revision: say which, as git asks, with "
                            f"`provlog diff {spec} -- PATH` (revisions before --) or `provlog diff -- {spec} PATH` "
                            f"(paths after --)")
        return spec
    try:
        if colon and rev:
            tree = GitTree(rev)
            return TreePath(tree, tree.from_cwd(path) if path.startswith(("./", "../")) or path == "." else path)
        if other is not None and not colon:
            tree = GitTree(spec)
            return TreePath(tree, tree.from_cwd(other))
    except GitError as e:
        what = "not a revision" if kind == "rev" else "neither a world nor a revision"
        raise DiffError(f"{spec!r} is {what}: {e}") from None
    if kind == "rev":
        raise DiffError(f"{spec!r} (before --) is a revision: give REV:path, or a path after -- beside it")
    raise DiffError(f"{spec!r} is neither a world (no such file or folder) nor REV:path")


def _revision(spec: str) -> bool:
    """Whether ``spec`` names a commit of the repository holding the working directory."""
    try:
        commit_of(spec, os.getcwd())
    except GitError:
        return False
    return True


def model(world: World) -> S.Stored:
    """The stored model a world answers from; one written to a temporary file if it has none."""
    world.derivation  # derive (and store) if it has not
    world.store_now()  # the CLI stores after its answer: this answer needs the store now
    st = world._store
    if isinstance(st, S.Stored):
        return st
    if isinstance(st, tuple):  # derived here and stored: the store made from exactly its inputs
        target, (path, strict, _) = st
        opened = S.open_store(target, lambda files: S.inputs(path, strict, world.as_of_given, files), quiet=True)
        if opened is not None:
            return opened
    target = _scratch() / "side.sqlite"
    S.write(target, world.derivation, {}, world.fingerprint())
    opened = S.open_store(target, None, quiet=True)
    if opened is None:  # pragma: no cover - just written
        raise DiffError(f"the model of {world.name} could not be stored")
    return opened


def _scratch() -> Path:
    """A temporary folder, removed when the process ends."""
    d = tempfile.mkdtemp(prefix="provlog-diff-")
    atexit.register(shutil.rmtree, d, True)
    return Path(d)


# -- what-if --------------------------------------------------------------------------------------
def what_if(world: World, without: Sequence[str] = (), sets: Sequence[Tuple[str, str]] = (),
            fast: bool = True) -> World:
    """The world with the statements ``without`` names taken away and each ``(id, key=value)`` of ``sets``
    set: its files read again with the edit written into them (facts/whatif.py), so a refusal is the
    loader's LoadError, located, as the edited file's would be.

    From a stored world (and ``fast``), a change of signals, cites and sources is derived for the orgs
    it reaches alone (logic/whatif.py), and the what-if remembers its delta: :func:`compare` against
    ``world`` reads it instead of comparing stores. Otherwise its model is written from the world's
    store by the edit path where that applies (logic/edit.py), or derived whole."""
    from ..facts import load_world
    from ..facts import whatif as W

    edit = W.Rewrite(without, sets)  # a --set value that is not one value: refused before any file is read
    origin = getattr(world, "origin", None)
    if origin is None:
        raise DiffError(f"a what-if reads the files of its world again, and {world.name} was not loaded from files")
    try:
        fs = load_world(origin, rewrite=edit)
    except W.WhatIfError:
        raise
    except LoadError as e:
        edit.check()  # what names nothing is said first: the load's errors follow from it
        raise W.WhatIfError(e.diagnostics) from None
    edit.check()
    stored = world._store if isinstance(world._store, S.Stored) else None
    got = None
    delta = edit.delta(world.facts.by_fid, fs.facts)
    if delta is not None and stored is not None and fast:
        got = _overlaid(world, stored, *delta)
    if got is None and stored is not None:
        got = _edited(world, stored, fs, *(delta or statements_of(world.facts, fs)))
    got = got or World(fs, as_of=world.as_of_given, name=world.name, lazy=True, rulebooks=world.rulebooks)
    # its files are the world's: it keeps its name, and the report says what was asked
    got.what_if = " ".join([f"--without {i}" for i in without] + [f"--set {i} {a}" for i, a in sets])
    return got


def statements_of(old, new) -> Tuple[List[Fact], List[Fact]]:
    """(removed, added) between two lists of statements, by content (as many times as each is written)."""
    from collections import Counter

    old, new = list(old), list(new)
    a, b = Counter(f.canon() for f in old), Counter(f.canon() for f in new)

    def pick(facts: List[Fact], want: Counter) -> List[Fact]:
        out = []
        for f in facts:
            if want[f.canon()] > 0:
                want[f.canon()] -= 1
                out.append(f)
        return out

    return pick(old, a - b), pick(new, b - a)


def _overlaid(world: World, stored: S.Stored, removed, added) -> Optional[World]:
    """The what-if as the world's stored model with its delta laid over it (logic/whatif.py), or None
    where that is refused."""
    import sqlite3

    from ..logic import Derivation
    from ..logic import whatif as L
    from ..logic.program import DerivedSignal

    as_of = world.as_of_given
    try:
        delta = L.rederive(stored, removed, added, as_of)
    except (L.Refused, S.StoreError, sqlite3.Error) as e:
        S.warn(f"what-if derived whole ({e})") if os.environ.get("PROVLOG_DEBUG") else None
        return None
    facts = L.OverlayFacts(world.facts, removed, added)
    w = World(facts, as_of=as_of, name=world.name, lazy=True, rulebooks=world.rulebooks)

    def live() -> Derivation:  # a pyDatalog goal over the what-if: derived whole, once
        if not hasattr(w, "_live"):
            w._live = Derivation.run(facts.to_factset(), as_of)
        return w._live

    model = L.Overlay(S.StoredModel(stored, lambda: live()), delta.changes)
    origins = L.OverlayOrigins(S.StoredOrigins(stored, world.facts), removed, added, as_of)
    w._derivation = Derivation.stored(facts, model, S.derived_signals(stored, DerivedSignal), origins, live)
    w.edited = delta.orgs
    w.delta = (world, delta.changes, list(removed), list(added))
    return w


def _edited(world: World, old: S.Stored, fs, removed, added) -> Optional[World]:
    """The what-if's model written from the world's store by the edit path, or None where it is refused."""
    import sqlite3

    from ..logic import edit

    made = json.loads(old.meta["inputs"])
    asked = "".join(sorted(f.canon() for f in list(removed) + list(added)))
    inp = dict(made, files=dict(made.get("files", {}), **{"(what-if)": hashlib.sha256(asked.encode()).hexdigest()}))
    probe = World(fs, as_of=world.as_of_given, name=world.name, lazy=True, rulebooks=world.rulebooks)
    target = _scratch() / "what-if.sqlite"
    try:
        edit.update(target, old, fs, inp, probe.fingerprint(), world.as_of_given)
    except (edit.Refused, OSError, S.StoreError, sqlite3.Error, KeyError, ValueError, TypeError):
        return None
    opened = S.open_store(target, None, quiet=True)
    if opened is None:  # pragma: no cover - just written
        return None
    return World._from_store(opened, world.as_of_given, world.name, world.rulebooks)


# -- the report -----------------------------------------------------------------------------------
def _within(world: str, file: str) -> str:
    """A file's name inside its world (``a.facts``), so that both sides' names compare."""
    if file.startswith(world.rstrip("/") + "/"):
        return file[len(world.rstrip("/")) + 1:]
    return os.path.basename(file) if file == world else file


def _place(world: str):
    """Where a statement of ``world`` stands, as both sides can compare it: (file inside the world, line)."""
    return lambda f: (_within(world, f.loc.file), f.loc.line)


@dataclass(frozen=True)
class Rest:
    """One statement a row rests on, as shown: ``~`` changed (``was``: what it said before, in few words;
    ``old_text``/``old_loc``: the old statement), ``-`` only the old side has it, ``+`` only the new."""

    sign: str
    text: str
    loc: str
    was: str = ""
    old_text: str = ""
    old_loc: str = ""

    def line(self) -> str:
        return f"{self.sign} {self.text}  ({self.loc}; was {self.was})" if self.sign == "~" else \
            f"{self.sign} {self.text}  ({self.loc})"

    def to_json(self) -> Dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if v or k in ("sign", "text", "loc")}


@dataclass
class Row:
    """What the report prints for a move, or for several: the same move (old and new value, rules, the
    statements it rests on) under several policies is one row naming them (``policies``; empty for a
    row that names no policy). ``key``: the move's key without its policy. Read back from JSON
    (:meth:`from_json`, the history's cache) it has no ``moves``."""

    org: str
    what: str
    key: Dict[str, Any]
    policies: List[str]
    old: Any
    new: Any
    old_shown: str
    new_shown: str
    old_rule: Optional[str]
    new_rule: Optional[str]
    rests: List[Rest]
    moves: List[Move] = field(default_factory=list, compare=False, repr=False)

    @property
    def label(self) -> str:
        return " ".join([self.what] + [str(v) for v in self.key.values()] + ([", ".join(self.policies)]
                                                                             if self.policies else []))

    def to_json(self) -> Dict[str, Any]:
        return {"org": self.org, "what": self.what, "key": self.key, "policies": self.policies, "old": self.old,
                "new": self.new, "old_shown": self.old_shown, "new_shown": self.new_shown,
                "old_rule": self.old_rule, "new_rule": self.new_rule, "rests_on": [r.to_json() for r in self.rests]}

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Row":
        return cls(d["org"], d["what"], d["key"], d["policies"], d["old"], d["new"], d["old_shown"], d["new_shown"],
                   d["old_rule"], d["new_rule"], [Rest(**r) for r in d["rests_on"]])


def row_lines(rows: Sequence[Row]) -> List[str]:
    """The text of ``rows``, grouped by org (in their order): a blank line and the org, then each row
    and what it rests on."""
    lines: List[str] = []
    org = None
    for r in rows:
        if r.org != org or not lines:
            org = r.org
            lines += ["", org]
        lines.append(f"  {r.label}: {r.old_shown} -> {r.new_shown}   rule {r.old_rule or '-'} -> {r.new_rule or '-'}")
        rests = [x.line() for x in r.rests]
        lines += ["      rests on: " + rests[0]] + ["                " + x for x in rests[1:]] if rests else \
            ["      rests on no edited statement (the change reaches it through no statement of its proofs)"]
    return lines


def row_table(rows: Sequence[Row]) -> List[str]:
    """``rows`` as a markdown table (org, what, old, new, rule, rests on); nothing when there are none."""
    if not rows:
        return []
    out = ["| org | what | old | new | rule | rests on |", "|---|---|---|---|---|---|"]
    for r in rows:
        rests = "<br>".join(_md(x.line()) for x in r.rests) or "—"
        out.append(f"| {_md(r.org)} | {_md(r.label)} | {_md(r.old_shown)} | {_md(r.new_shown)} | "
                   f"{_md(r.old_rule or '-')} → {_md(r.new_rule or '-')} | {rests} |")
    return out + [""]


@dataclass
class Report:
    """What differs from ``old`` to ``new``: the statements, and every reported row that moved."""

    old: str
    new: str
    changed: List[Tuple[Fact, Fact]] = field(default_factory=list)
    removed: List[Fact] = field(default_factory=list)
    added: List[Fact] = field(default_factory=list)
    moves: List[Move] = field(default_factory=list)
    roots: Tuple[str, str] = ("", "")  # the two worlds' paths (their files are named under them)

    @property
    def moved(self) -> bool:
        return bool(self.moves)

    def by_org(self) -> Dict[str, List[Move]]:
        out: Dict[str, List[Move]] = {}
        for m in self.moves:
            out.setdefault(m.org, []).append(m)
        return out

    def rests_on(self, m: Move) -> Tuple[List[Tuple[Fact, Fact]], List[Fact], List[Fact]]:
        """The statements a move rests on as (changed, removed, added): a statement the report lists
        as changed is shown changed (its old and new text) whichever of the two proofs it is in."""
        olds = {a.canon(): (a, b) for a, b in self.changed}
        news = {b.canon(): (a, b) for a, b in self.changed}
        changed = []
        for f in m.rests_old + m.rests_new:
            got = olds.get(f.canon()) if f in m.rests_old else news.get(f.canon())
            if got is not None and got not in changed:
                changed.append(got)
        kept_old = [f for f in m.rests_old if f.canon() not in olds]
        kept_new = [f for f in m.rests_new if f.canon() not in news]
        more, gone, came = pair(kept_old, kept_new, _place(self.roots[0]), _place(self.roots[1]))
        return changed + more, gone, came

    # -- formats ---------------------------------------------------------------------------------
    def to_json(self) -> Dict[str, Any]:
        orgs = {}
        for org, ms in self.by_org().items():
            orgs[org] = [self._move_json(m) for m in ms]
        return {"old": self.old, "new": self.new, "moved": len(self.moves),
                "statements": _statements_json(self.changed, self.removed, self.added), "orgs": orgs}

    def _move_json(self, m: Move) -> Dict[str, Any]:
        out = {"what": m.what, "key": _key(m), "old": _plain(m.shown(m.old)), "new": _plain(m.shown(m.new)),
               "old_rule": m.old_rule, "new_rule": m.new_rule, "rests_on": _statements_json(*self.rests_on(m))}
        if m.what == "value":
            out["old_signal"] = (m.old[4] or None) if m.old else None
            out["new_signal"] = (m.new[4] or None) if m.new else None
        return out

    def rows(self) -> List[Row]:
        """The moves as printed: one row for the same move under several policies resting on the same
        statements (in the moves' order: by org, kind, key)."""
        out: List[Row] = []
        at: Dict[Tuple, Row] = {}
        for m in self.moves:
            key = _key(m)
            policy = key.pop("policy", None)
            changed, gone, came = self.rests_on(m)
            rests = [Rest("~", statement_text(b), str(b.loc), _was(a, b), statement_text(a), str(a.loc))
                     for a, b in changed]
            rests += [Rest("-", statement_text(f), str(f.loc)) for f in gone]
            rests += [Rest("+", statement_text(f), str(f.loc)) for f in came]
            r = Row(m.org, m.what, key, [policy] if policy else [], _plain(m.shown(m.old)), _plain(m.shown(m.new)),
                    _shown(m.shown(m.old)), _shown(m.shown(m.new)), m.old_rule, m.new_rule, rests, [m])
            same = (r.org, r.what, tuple(key.items()), r.old_shown, r.new_shown, r.old_rule, r.new_rule,
                    tuple(rests))
            if policy and same in at:
                at[same].policies.append(policy)
                at[same].moves.append(m)
            else:
                at[same] = r
                out.append(r)
        for r in out:  # in the RULES' order of the policies (section 0)
            r.policies.sort(key=lambda p: POLICY_NAMES.index(p) if p in POLICY_NAMES else len(POLICY_NAMES))
        return out

    def to_text(self) -> str:
        lines = [f"diff {self.old} -> {self.new}", _summary(self)]
        lines += ["  " + s for s in _statement_lines(self.changed, self.removed, self.added)]
        return "\n".join(lines + row_lines(self.rows()))

    def to_markdown(self) -> str:
        out = [f"### provlog diff: `{self.old}` → `{self.new}`", "", f"**{_summary(self)}**", ""]
        out += row_table(self.rows())
        stmts = _statement_lines(self.changed, self.removed, self.added)
        if stmts:
            fence = _fence(stmts)
            out += ["<details><summary>Statements</summary>", "", fence] + stmts + [fence, "", "</details>"]
        return "\n".join(out)


def _summary(r: Report) -> str:
    n = len(r.moves)
    orgs = len(r.by_org())
    stm = f"{len(r.changed)} changed, {len(r.removed)} removed, {len(r.added)} added statements"
    moved = (f"{n} {'row' if n == 1 else 'rows'} moved in {orgs} {'org' if orgs == 1 else 'orgs'}" if n
             else "nothing moved")
    return f"{stm}; {moved}"


def _key(m: Move) -> Dict[str, Any]:
    row = m.old or m.new
    return {"value": lambda: {"dim": row[1], "policy": row[2]}, "conflict": lambda: {"dim": row[1], "policy": row[2]},
            "band": lambda: {"policy": row[1]}, "role": dict, "hop": dict,
            "m3": lambda: {"result": row[0]}, "contribution": lambda: {"result": row[0]}}[m.what]()


def _plain(v):
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _shown(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, dict):
        return " ".join(f"{k} {_shown(x)}" for k, x in v.items())
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{float(v):.4g} ({v})"
    return str(v)


def _stmt_json(f: Fact) -> Dict[str, Any]:
    return {"kind": f.kind, "id": f.fid, "text": statement_text(f), "loc": str(f.loc)}


def _statements_json(changed, removed, added) -> Dict[str, Any]:
    return {"changed": [{"old": _stmt_json(a), "new": _stmt_json(b)} for a, b in changed],
            "removed": [_stmt_json(f) for f in removed], "added": [_stmt_json(f) for f in added]}


def _statement_lines(changed, removed, added) -> List[str]:
    """``~`` a statement changed (its old and new text), ``-`` removed, ``+`` added, each at its file:line
    (a row's statements are shorter: :class:`Rest`)."""
    out = []
    for a, b in changed:
        out += [f"~ {statement_text(a)}  ({a.loc})", f"  -> {statement_text(b)}  ({b.loc})"]
    out += [f"- {statement_text(f)}  ({f.loc})" for f in removed]
    out += [f"+ {statement_text(f)}  ({f.loc})" for f in added]
    return out


def _was(a: Fact, b: Fact) -> str:
    """What an edited statement said before, in few words: the values that differ."""
    diff = [f"{k}={_shown(a.values.get(k)) if a.values.get(k) is not None else '(none)'}"
            for k in sorted(set(a.values) | set(b.values))
            if not k.startswith("_") and a.values.get(k) != b.values.get(k)]
    if a.flags != b.flags:
        diff.append("flags " + (",".join(sorted(a.flags)) or "none"))
    if a.src != b.src:
        diff.append("src=" + (",".join(a.src) or "none"))
    return ", ".join(diff) or statement_text(a)


def _md(s: str) -> str:
    """Text for a markdown table cell, shown as written: no cell break, no HTML, no code span, no escape
    eaten (a span may quote ``|``, ``</details>`` or backticks)."""
    s = str(s).replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s.replace("|", "\\|").replace("`", "\\`").replace("\n", " ")


def _fence(lines: List[str]) -> str:
    """A code fence no line can close: longer than any run of backticks in ``lines`` (CommonMark)."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def compare(old: World, new: World, policy: Optional[str] = None, org: Optional[str] = None,
            dim: Optional[str] = None) -> Report:
    """The report of what moves from ``old`` to ``new`` (under ``policy`` only, if given; of ``org``
    only; of values and conflicts of ``dim`` only)."""
    if policy is not None:
        old._check(policy=policy)
    base = getattr(new, "delta", None)
    if base is not None and base[0] is old:  # a what-if of ``old``: its delta is the difference
        _, rows, removed, added = base
    else:
        a, b = model(old), model(new)
        rows = changes(a, b, RELATIONS)
        removed, added = statements(a, b)
    ms = moves(old.derivation, new.derivation, rows, removed, added, policy, org, dim)
    by_place = lambda f: (f.loc.file, f.loc.line)  # noqa: E731
    changed, gone, came = pair(sorted(removed, key=by_place), sorted(added, key=by_place),
                               _place(old.name), _place(new.name))
    return Report(_label_of(old), _label_of(new), changed, gone, came, ms, (old.name, new.name))


def _label_of(w: World) -> str:
    asked = getattr(w, "what_if", None)
    return f"{w.name} ({asked})" if asked else w.name


__all__ = ["DiffError", "ITEMS", "Report", "Rest", "Row", "compare", "model", "row_lines", "row_table", "side", "what_if"]
