"""A change not yet written: a world's facts without some statements, or with one value set (issue 28).

``provlog diff WORLD --without ID`` and ``--set ID key=value`` ask what a change
would move before anyone edits a file. The change is made here, on the
loaded facts, and checked as a load would check it: a ``--set`` value is put in
the statement's own line and that line is read again by the loader
(facts/loader.py ``check_statement``), so a value the fact language refuses is
the loader's error, at the statement's file:line:col; a statement that would
name something removed is refused with E110 where it stands.

    >>> changed = apply(facts, without=["src-blog"], sets=[("src-x", "status=differs")], line=read_line)  # doctest: +SKIP

What ``--without`` takes away: a source, with every ``cite`` of it and its id
in every ``src=`` list (the document is gone, so are its citations); a signal,
with its cites; any other statement by its id (``stake@w/a.facts:12`` or a
declared id), alone.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, List, Optional, Sequence, Set, Tuple

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


def _find(facts: Sequence[Fact], ident: str) -> List[Fact]:
    """The statements an id names: a fact id (``kind@file:line``, ``kind:id``) or a declared id."""
    got = [f for f in facts if f.fid == ident]
    return got or [f for f in facts if f.get("id") == ident and LANGUAGE.decls[f.kind].declares]


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


def without(facts: Sequence[Fact], idents: Sequence[str]) -> List[Fact]:
    """``facts`` less what ``--without`` takes away for each id (module docstring)."""
    out = list(facts)
    for ident in idents:
        gone = _find(out, ident)
        if not gone:
            raise _unknown(ident, "--without")
        ids: Set[str] = {f["id"] for f in gone if "id" in f.values}
        drop = {id(f) for f in gone}
        sources = {f["id"] for f in gone if f.kind == "source"}
        signals = {f["id"] for f in gone if f.kind == "signal"}
        kept = []
        for f in out:
            if id(f) in drop or (f.kind == "cite" and (f["source"] in sources or f["signal"] in signals)):
                continue
            if sources & set(f.src):
                f = Fact(f.kind, dict(f.values), f.loc, f.flags, tuple(s for s in f.src if s not in sources), f.span)
            kept.append(f)
        errs = [Diagnostic(f.loc.file, f.loc.line, f.loc.col, "E110",
                           f"{name}= names {x!r}, which --without {ident} removes; remove this statement too "
                           f"(--without {f.fid})")
                for f in kept for x, name in _refs(f) if x in ids]
        if errs:
            raise WhatIfError(errs)
        out = kept
    return out


def set_value(facts: Sequence[Fact], ident: str, assignment: str, text: Callable[[Fact], str],
              strict: bool = False) -> List[Fact]:
    """``facts`` with the statement ``ident`` read again with ``key=value`` written into it (``text(f)``:
    the text of the file the statement is written in). Raises WhatIfError with the loader's diagnostics,
    at the statement's file:line:col, if the fact language refuses it."""
    from .loader import _Collector, check_statement

    key, eq, value = assignment.partition("=")
    if not eq or not key:
        raise WhatIfError([Diagnostic("--set", 1, 1, "E104", f"--set takes ID key=value, got {assignment!r}")])
    found = _find(facts, ident)
    if len(found) != 1:
        raise _unknown(ident, "--set")
    f = found[0]
    errs = _Collector()
    stmts = errs.parse(_substitute(text(f), f, key, value), f.loc.file)  # lines above it are as they were
    st = next((s for s in stmts if s.line == f.loc.line), None)
    new = check_statement(st, errs, strict) if st is not None else None
    mine = [d for d in errs.diags if d.line >= f.loc.line]
    if new is None or mine:
        raise WhatIfError(mine or [Diagnostic(f.loc.file, f.loc.line, 1, "E100", f"{key}={value} breaks the statement")])
    return [new if g is f else g for g in facts]


def _substitute(text: str, f: Fact, key: str, value: str) -> str:
    """The file's text with the statement's ``key`` replaced (an attribute, a positional field or a tail
    word such as a signal's bound) or, for an attribute it does not write, added at its end."""
    stmts = parse_text(text, f.loc.file)[0]
    st = next(s for s in stmts if s.line == f.loc.line)
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
    from .loader import _Collector, _resolve

    errs = _Collector()
    world = _resolve(list(facts), errs)
    if errs.diags:
        raise WhatIfError(errs.diags)
    world.files = list(files)
    return world
