"""Check one raw statement against its declaration (facts/schema.py, facts/language.py): a
:class:`~provlog.facts.model.Fact`, or None with each error recorded at its item.

    >>> from provlog.facts.collector import _Collector
    >>> from provlog.grammar import parse_text
    >>> errs = _Collector()
    >>> st = parse_text('lab acme "Acme AI"', "t.facts")[0][0]
    >>> check_statement(st, errs).fid, errs.diags
    ('lab:acme', [])
"""
from __future__ import annotations

import difflib
from typing import Dict, List, Optional, Set, Tuple

from ..grammar import Pair, RawStatement
from ..grammar.parser import Arg, Eq
from . import schema as S
from . import values as V
from .collector import _Collector
from .errors import STRICT_ONLY
from .model import Fact, Loc


def _err(errs: _Collector, st: RawStatement, line: int, col: int, code: str, msg: str):
    errs.add(st.file, line, col, code, msg)


def _parse_field(fld: S.Field, arg: Arg, st: RawStatement, errs: _Collector, what: str):
    try:
        return S.parse_at(arg, fld.parse, what, fld.quoted)
    except S.ItemError as e:
        _report(errs, st, e)
        return _BAD


def _report(errs: _Collector, st: RawStatement, e: S.ItemError) -> None:
    """A declaration's ItemError, at its item (or at the statement)."""
    at = e.item if e.item is not None else st
    _err(errs, st, at.line, at.col, e.code, e.message)


_BAD = object()


def _check_items(st: RawStatement, decl: S.Decl, errs: _Collector, extra_positional: int = 0):
    """Check a statement's items against its declaration.

    Returns ``(values, flags, refs, src, span, rest)`` where ``rest`` are the
    positional words beyond the declared ones (``extra_positional`` of them
    are allowed, for irregular shapes), or None if anything was wrong.
    """
    ok = True
    values: Dict[str, object] = {}
    flags: Set[str] = set()
    refs: List[Tuple[str, Tuple[str, ...], int, int, str]] = []  # (id, kinds, line, col, what)
    src: Tuple[str, ...] = ()
    span: Optional[str] = None
    positional: List[Arg] = []
    seen_attrs: Set[str] = set()
    for item in st.items:
        if isinstance(item, Eq):
            _err(errs, st, item.line, item.col, "E100", f"unexpected '=' in {st.keyword}: attributes are key=value with no spaces")
            ok = False
        elif isinstance(item, Pair):
            key = item.key
            if key in seen_attrs:
                _err(errs, st, item.line, item.col, "E105", f"attribute {key}= is given twice")
                ok = False
                continue
            seen_attrs.add(key)
            got = (_evidence if key in ("src", "span") and decl.evidence else _attribute)(st, decl, item, errs, refs)
            if got is _BAD:
                ok = False
            elif key == "src" and decl.evidence:
                src = got
            elif key == "span" and decl.evidence:
                span = got
            else:
                values[key] = got
        else:
            positional.append(item)
    words_rest = _words(st, decl, positional, errs, values, flags, refs, extra_positional)
    if words_rest is None:
        return None
    ok = ok and words_rest is not _BAD
    for name, fld in decl.attrs.items():
        if fld.required and name not in seen_attrs:
            _err(errs, st, st.line, st.col, "E106", f"{st.keyword} needs {name}=")
            ok = False
    if not ok:
        return None
    return values, flags, refs, src, span, words_rest


def _words(st: RawStatement, decl: S.Decl, words: List[Arg], errs: _Collector, values: Dict, flags: Set[str],
           refs: List, extra_positional: int):
    """The positional fields of ``words`` into ``values``, the bare flags beyond them into ``flags``;
    the words left over (at most ``extra_positional``), _BAD if any was wrong, None if fields are missing."""
    ok = True
    nfix = len(decl.positional)
    fixed, rest = words[:nfix], words[nfix:]
    words_rest: List[Arg] = []
    for a in rest:  # bare flags are words beyond the positional fields
        if not a.quoted and a.value in decl.flags:
            if a.value in flags:
                _err(errs, st, a.line, a.col, "E105", f"flag {a.value} is given twice")
                ok = False
            flags.add(a.value)
        else:
            words_rest.append(a)
    shape = " ".join("<" + f.name + ">" for f in decl.positional)
    if len(fixed) < nfix:
        missing = [f.name for f in decl.positional[len(fixed):]]
        col = (st.items[-1].col if st.items else st.col + len(st.keyword))
        _err(errs, st, st.line, col, "E103", f"{st.keyword} needs {shape}; missing <{'> <'.join(missing)}>")
        return None
    for fld, a in zip(decl.positional, fixed):
        v = _parse_field(fld, a, st, errs, f"<{fld.name}>")
        if v is _BAD:
            ok = False
            continue
        values[fld.name] = v
        if fld.ref:
            refs.append((a.value, fld.ref, a.line, a.col, f"<{fld.name}>"))
    if len(words_rest) > extra_positional:
        a = words_rest[extra_positional]
        flags_hint = f" (flags: {', '.join(sorted(decl.flags))})" if decl.flags else ""
        if not a.quoted and "=" not in a.value and decl.flags:
            _err(errs, st, a.line, a.col, "E102", f"unknown flag {a.value!r} for {st.keyword}{flags_hint}")
        else:
            _err(errs, st, a.line, a.col, "E103", f"unexpected extra argument {a.value!r}: {st.keyword} takes "
                                                  f"{shape or 'no positional arguments'}{flags_hint}")
        ok = False
    return words_rest if ok else _BAD


def _evidence(st: RawStatement, decl: S.Decl, item: Pair, errs: _Collector, refs: List):
    """``src=`` (source ids, each a reference) or ``span=`` (one quoted string); _BAD if malformed."""
    if item.key == "src":
        bad = [a for a in item.values if a.quoted or not V.IDENT.match(a.value)]
        for a in bad:
            _err(errs, st, a.line, a.col, "E104", f"src= lists source ids, got {a.value!r}")
        refs.extend((a.value, ("source",), a.line, a.col, "src=") for a in item.values if a not in bad)
        return _BAD if bad else tuple(a.value for a in item.values)
    a = item.values[0]
    if len(item.values) != 1 or not a.quoted:
        _err(errs, st, a.line, a.col, "E104", 'span= is one quoted string: span="the words that state it"')
        return _BAD
    return a.value


def _attribute(st: RawStatement, decl: S.Decl, item: Pair, errs: _Collector, refs: List):
    """The value of a declared ``key=value`` attribute (a tuple where it takes many); _BAD if it is
    not one ``decl`` takes (E102, E140) or a value does not parse."""
    key = item.key
    fld = decl.attrs.get(key)
    if fld is None:
        known = sorted(decl.attrs) + (["src", "span"] if decl.evidence else [])
        takes = f"{decl.keyword} takes {', '.join(k + '=' for k in known)}" if known else f"{decl.keyword} takes no attributes"
        if key in errs.language.derived:  # `result ... multiplier=2`: a conclusion, not an input
            _err(errs, st, item.line, item.col, "E140",
                 f"{key}= is derived by provlog from the facts and cannot be stated; {takes}")
        else:
            _err(errs, st, item.line, item.col, "E102", f"unknown attribute {key}= for {decl.keyword}; {takes}")
        return _BAD
    if not fld.many and len(item.values) != 1:
        _err(errs, st, item.values[1].line, item.values[1].col, "E104", f"{key}= takes one value")
        return _BAD
    parsed, ok = [], True
    for a in item.values:
        if key == "lane" and a.value == "self-attested":  # refused by name, on a source or a result
            _err(errs, st, a.line, a.col, "E130", "lane=self-attested is never accepted: self-attestation is rejected at the schema; use reported (after human approval) or rejected")
            ok = False
            continue
        v = _parse_field(fld, a, st, errs, f"{key}=")
        if v is _BAD:
            ok = False
            continue
        parsed.append(v)
        if fld.ref:
            refs.append((a.value, fld.ref, a.line, a.col, f"{key}="))
    if not ok:
        return _BAD
    return tuple(parsed) if fld.many else parsed[0]


_NO_FLAGS: frozenset = frozenset()


def check_statement(st: RawStatement, errs: _Collector, strict: bool = False) -> Optional[Fact]:
    """Check one raw statement against its declaration; a Fact, or None with errors recorded."""
    kw = st.keyword
    language = errs.language
    if kw in language.derived:
        _err(errs, st, st.line, st.col, "E140",
             f"{kw!r} is derived by provlog from the facts and cannot be stated as a fact; "
             "state the facts it follows from (signals, cites, stakes, money, roles)")
        return None
    decl = language.decls.get(kw)
    if decl is None:
        near = [k for k in sorted(language.decls) if len(k) >= 3 and kw.lower().startswith(k)][-1:]
        near += [k for k in difflib.get_close_matches(kw.lower(), sorted(language.decls), n=3, cutoff=0.6) if k not in near]
        hint = f"did you mean {' or '.join(near)}?" if near else "docs/language.md lists the statements"
        _err(errs, st, st.line, st.col, "E101", f"unknown keyword {V.show(kw)}; {hint}")
        return None
    loc = Loc(st.file, st.line, st.col)
    if decl.read is not None:  # a shape of its own
        try:
            values, refs = decl.read(st)
        except S.ItemError as e:
            _report(errs, st, e)
            return None
        return Fact(kw, values, loc, refs=tuple(refs))
    checked = _check_items(st, decl, errs, extra_positional=decl.tail_words)
    if checked is None:
        if decl.tail is not None:  # still report a bad tail (a signal's bound) on a statement with other errors
            words = [w for w in st.args[len(decl.positional):] if w.value not in decl.flags]
            if words:
                _read_tail(st, decl, words, errs)
        return None
    values, flags, refs, src, span, rest = checked
    if decl.tail is not None:
        more = _read_tail(st, decl, rest, errs)
        if more is None:
            return None
        values.update(more)
    if decl.check is not None and not _run_check(st, decl, values, flags, errs, strict):
        return None
    return Fact(kw, values, loc, frozenset(flags) if flags else _NO_FLAGS, src, span, tuple(refs))


def _read_tail(st: RawStatement, decl: S.Decl, words: List[Arg], errs: _Collector) -> Optional[dict]:
    try:
        return decl.tail(words)  # type: ignore[misc]
    except S.ItemError as e:
        _report(errs, st, e)
        return None


def _run_check(st: RawStatement, decl: S.Decl, values: dict, flags, errs: _Collector, strict: bool) -> bool:
    """A declaration's own checks over several fields; each problem at its field. A problem whose
    code is an error only under --strict (errors.STRICT_ONLY) counts only then."""
    problems = [p for p in decl.check(values, frozenset(flags)) if strict or p[1] not in STRICT_ONLY]
    words = [i for i in st.items if isinstance(i, Arg)]
    for key, code, msg in problems:
        at = next((i.values[0] for i in st.items if isinstance(i, Pair) and i.key == key), None)
        names = [f.name for f in decl.positional]
        if at is None and key in names and names.index(key) < len(words):
            at = words[names.index(key)]
        _err(errs, st, at.line if at else st.line, at.col if at else st.col, code, msg)
    return not problems


def _note_attempt(st: RawStatement, attempted: Set[str], errs: _Collector) -> None:
    """Remember the id a broken declaration meant to declare, so that its
    references are not reported again as undeclared (one error, not a cascade);
    and the references the broken statement makes, which must still resolve."""
    decl = errs.language.decls.get(st.keyword)
    first = next((i for i in st.items if isinstance(i, Arg)), None)
    if decl is not None and decl.declares and first is not None:
        attempted.add(first.value)
    if decl is None or decl.read is not None:
        return
    words = [i for i in st.items if isinstance(i, Arg)]
    for fld, a in zip(decl.positional, words):
        if fld.ref and not a.quoted and V.IDENT.match(a.value):
            errs.refused_refs.append((st.file, (a.value, fld.ref, a.line, a.col, f"<{fld.name}>")))
    for p in st.items:
        if not isinstance(p, Pair):
            continue
        fld = decl.attrs.get(p.key)
        kinds = fld.ref if fld is not None else (("source",) if p.key == "src" and decl.evidence else ())
        for a in p.values if kinds else ():
            if not a.quoted and V.IDENT.match(a.value):
                errs.refused_refs.append((st.file, (a.value, kinds, a.line, a.col, f"{p.key}=")))
