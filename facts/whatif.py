"""A change not yet written: a world's facts without some statements, or with one value set (issue 28).

``provlog diff WORLD --without ID`` and ``--set ID key=value`` ask what a change
would move before anyone edits a file. The change is made here, on the
loaded facts, and checked as a load would check it: a ``--set`` value is put in
the statement's own line and that line is read again by the loader
(facts/checking.py ``check_statement``), so a value the fact language refuses is
the loader's error, at the statement's file:line:col; a statement that would
name something removed is refused with E110 where it stands.

    >>> removed, added = change(Statements(facts), without=["src-blog"], sets=[("sg1", "status=differs")],
    ...                         text=lambda f: open(f.loc.file).read())   # doctest: +SKIP

What ``--without`` takes away: a source, with every ``cite`` of it and its id
in every ``src=`` list (the document is gone, so are its citations); a signal,
with its cites; any other statement by its id (``stake@w/a.facts:12`` or a
declared id), alone.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ..grammar import Pair, parse_text
from ..grammar.parser import Arg
from .errors import Diagnostic, LoadError
from .language import LANGUAGE
from .model import Fact, FactSet

#: the words after a statement's positional fields, by name (``--set sg1 bound=3``)
TAIL = {"signal": ("kind", "bound"), "cite": ("span",)}
_TOKEN = re.compile(r'"(?:[^"\\\r\n]|\\.)*"|(?:>=|[^\s"=,#])+')


class WhatIfError(LoadError):
    """A what-if that names nothing, or that the fact language refuses (exit 1, located)."""


class Statements:
    """What a what-if reads of a world: its statements by id, and those that may name some ids. This one
    reads a list of facts; a stored world has its own (queries/diff.py reads them from the store)."""

    def __init__(self, facts: Sequence[Fact]):
        self._facts = list(facts)

    def find(self, ident: str) -> List[Fact]:
        """The statements an id names: a fact id (``kind@file:line``, ``kind:id``), else a declared id."""
        got = [f for f in self._facts if f.fid == ident]
        return got or [f for f in self._facts if f.get("id") == ident and LANGUAGE.decls[f.kind].declares]

    def naming(self, ids: Set[str]) -> List[Fact]:
        """Every statement that may name one of ``ids`` (a superset: each is checked)."""
        return [f for f in self._facts if any(x in ids for x, _ in _refs(f))]


class _View(Statements):
    """A world's statements with a what-if's changes so far: ``now`` maps a fact id to its new fact (None:
    removed)."""

    def __init__(self, world: Statements):
        self._w = world
        self.now: Dict[str, Optional[Fact]] = {}
        self.was: Dict[str, Fact] = {}

    def _seen(self, facts: List[Fact]) -> List[Fact]:
        out = [self.now.get(f.fid, f) if f.fid in self.now else f for f in facts]
        return [f for f in out if f is not None]

    def find(self, ident: str) -> List[Fact]:
        return self._seen(self._w.find(ident))

    def naming(self, ids: Set[str]) -> List[Fact]:
        return self._seen(self._w.naming(ids))

    def put(self, old: Fact, new: Optional[Fact]) -> None:
        self.was.setdefault(old.fid, old)
        self.now[old.fid] = new

    def delta(self) -> Tuple[List[Fact], List[Fact]]:
        """(removed, added): the statements the world had and the what-if lacks, and the reverse."""
        same = {fid for fid, f in self.now.items() if f is not None and f.canon() == self.was[fid].canon()}
        removed = [self.was[fid] for fid, f in self.now.items() if fid not in same and f is not self.was[fid]]
        added = [f for fid, f in self.now.items() if fid not in same and f is not None and f is not self.was[fid]]
        return removed, added


def _unknown(ident: str, what: str) -> WhatIfError:
    return WhatIfError([Diagnostic(what, 1, 1, "E110", f"{ident!r} names no statement of the world; give a "
                                                          f"declared id (a source, signal, org, ...) or a statement's "
                                                          f"id kind@file:line")])


def _refs(f: Fact) -> Iterable[Tuple[str, str]]:
    """(id, field) of every reference a loaded statement makes (declared fields and ``src=``)."""
    decl = LANGUAGE.decls.get(f.kind)
    if decl is None:
        return
    for fld in list(decl.positional) + list(decl.attrs.values()):
        if fld.ref:
            v = f.values.get(fld.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if isinstance(x, str):
                    yield x, fld.name
    for s in f.src:
        yield s, "src"


def change(world: Statements, without: Sequence[str] = (), sets: Sequence[Tuple[str, str]] = (),
           text: Optional[Callable[[Fact], str]] = None, strict: bool = False) -> Tuple[List[Fact], List[Fact]]:
    """The statements a what-if removes and adds (a statement changed is both), each ``--without`` and
    ``--set`` applied in turn; WhatIfError, located, where the fact language or a reference refuses it.
    ``text(f)``: the text of the file statement ``f`` is written in (for ``--set``)."""
    view = _View(world)
    for ident in without:
        _without(view, ident)
    for ident, assignment in sets:
        _set(view, ident, assignment, text, strict)
    return view.delta()


def _without(view: _View, ident: str) -> None:
    gone = view.find(ident)
    if not gone:
        raise _unknown(ident, "--without")
    ids: Set[str] = {f["id"] for f in gone if "id" in f.values}
    sources = {f["id"] for f in gone if f.kind == "source"}
    signals = {f["id"] for f in gone if f.kind == "signal"}
    for f in gone:
        view.put(f, None)
    errs = []
    for f in view.naming(ids):
        if f.kind == "cite" and (f["source"] in sources or f["signal"] in signals):
            view.put(f, None)  # the citation goes with its source or its signal
            continue
        if sources & set(f.src):
            f2 = Fact(f.kind, dict(f.values), f.loc, f.flags, tuple(s for s in f.src if s not in sources), f.span)
            view.put(f, f2)
            f = f2
        errs += [Diagnostic(f.loc.file, f.loc.line, f.loc.col, "E110",
                            f"{name}= names {x!r}, which --without {ident} removes; remove this statement too "
                            f"(--without {f.fid})") for x, name in _refs(f) if x in ids]
    if errs:
        raise WhatIfError(errs)


def _set(view: _View, ident: str, assignment: str, text, strict: bool) -> None:
    from .checking import check_statement
    from .collector import _Collector

    key, eq, value = assignment.partition("=")
    if not eq or not key:
        raise WhatIfError([Diagnostic("--set", 1, 1, "E104", f"--set takes ID key=value, got {assignment!r}")])
    found = view.find(ident)
    if len(found) != 1:
        raise _unknown(ident, "--set")
    f = found[0]
    errs = _Collector()
    # the statement's own lines (an indented line continues it), below as many empty lines as stand
    # above it in its file: a diagnostic's line is the file's
    lines = text(f).splitlines(keepends=True)
    end = f.loc.line
    while end < len(lines) and lines[end][:1] in (" ", "\t"):
        end += 1
    own = "".join(lines[f.loc.line - 1:end])
    stmts = errs.parse("\n" * (f.loc.line - 1) + _substitute(own, f, key, value), f.loc.file)
    st = next((s for s in stmts if s.line == f.loc.line), None)
    new = check_statement(st, errs, strict) if st is not None else None
    mine = [d for d in errs.diags if d.line >= f.loc.line]
    if new is None or mine:
        raise WhatIfError(mine or [Diagnostic(f.loc.file, f.loc.line, 1, "E100", f"{key}={value} breaks the statement")])
    _check_refs(view, f, new)
    view.put(f, new)


def _check_refs(view: _View, old: Fact, new: Fact) -> None:
    """A statement read again names only what the world declares (E110, E111), and declares no id that
    another statement declares (E112), as the loader's resolution checks a whole world."""
    errs = []
    if "id" in new.values and new.get("id") != old.get("id"):
        other = [g for g in view.find(new["id"]) if g.fid != old.fid]
        if other:
            errs.append(Diagnostic(new.loc.file, new.loc.line, new.loc.col, "E112",
                                   f"duplicate id {new['id']!r}: already declared as {other[0].kind} at {other[0].loc}"))
    for ident, allowed, line, col, what in new.refs:
        target = [g for g in view.find(ident) if LANGUAGE.decls[g.kind].declares]
        if not target:
            errs.append(Diagnostic(new.loc.file, line, col, "E110",
                                   f"{what} names {ident!r}, which is not declared anywhere in the world "
                                   f"(expected a {'/'.join(allowed)}; declare it or fix the id)"))
        elif target[0].kind not in allowed:
            errs.append(Diagnostic(new.loc.file, line, col, "E111",
                                   f"{what} names {ident!r}, a {target[0].kind} (at {target[0].loc}); "
                                   f"expected a {'/'.join(allowed)}"))
    if errs:
        raise WhatIfError(errs)
    object.__setattr__(new, "refs", ())  # resolved: a loaded world keeps none


def _substitute(text: str, f: Fact, key: str, value: str) -> str:
    """A statement's text (its lines) with ``key`` replaced
    (an attribute, a positional field or a tail word such as a signal's bound) or, for an attribute it
    does not write, added at its end."""
    st = parse_text(text, f.loc.file)[0][0]
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def at(item) -> int:
        return starts[item.line - 1] + item.col - 1

    decl = LANGUAGE.decls[f.kind]
    words = [i for i in st.items if isinstance(i, Arg)]
    names = [fld.name for fld in decl.positional]
    tail = [w for w in words[len(names):] if w.quoted or w.value not in decl.flags]
    pairs = [i for i in st.items if isinstance(i, Pair) and i.key == key]
    if pairs:
        start, end, value = at(pairs[0]), _end(text, at(pairs[0].values[-1])), f"{key}={value}"
    elif key in names and names.index(key) < len(words):
        w = words[names.index(key)]
        start, end = at(w), _end(text, at(w))
    elif key in TAIL.get(f.kind, ()) and TAIL[f.kind].index(key) < len(tail):
        w = tail[TAIL[f.kind].index(key)]
        start, end = at(w), _end(text, at(w))
    else:
        last = st.items[-1] if st.items else None
        start = end = _end(text, at(last.values[-1] if isinstance(last, Pair) else last)) if last is not None \
            else at(st) + len(st.keyword)
        value = f" {key}={value}"
    return text[:start] + value + text[end:]


def _end(text: str, start: int) -> int:
    m = _TOKEN.match(text, start)
    return m.end() if m else start


def resolved(facts: Sequence[Fact], files: Sequence[str]) -> FactSet:
    """A FactSet of ``facts``, checked across statements as a load checks them (duplicate ids, one
    statement per key, the references of a statement :func:`set_value` read again, a rulebook's
    own checks)."""
    from .collector import _Collector
    from .resolving import _resolve

    errs = _Collector()
    world = _resolve(list(facts), errs)
    if errs.diags:
        raise WhatIfError(errs.diags)
    world.files = list(files)
    return world
