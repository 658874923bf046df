"""Load a world: read files, follow includes, check every statement, resolve ids.

    >>> from provlog.facts import load_world          # doctest: +SKIP
    >>> facts = load_world("facts/worlds/example")    # doctest: +SKIP

A world is loaded whole or not at all: every error of every file is collected
and raised together as one :class:`LoadError`.
"""
from __future__ import annotations

import difflib
import hashlib
import os
import re
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple, Union

from ..grammar import Pair, RawStatement, parse_text
from ..grammar.parser import Arg, Eq, paused_gc, source_lines
from . import schema as S
from .language import LANGUAGE
from . import values as V
from .errors import STRICT_ONLY, Diagnostic, LoadError
from .files import Disk, ReadFiles, TooBig, TreePath
from .model import Fact, FactSet, Loc

#: Input limits (E153): generous for real worlds, finite for hostile ones.
MAX_FILE_BYTES = 64 * 2**20
MAX_INCLUDE_DEPTH = 32
MAX_FILES = 5000
MAX_STATEMENTS = 2_000_000
#: citations of one signal (cite statements and src= entries); a real signal has a few (bench cites)
MAX_CITES_PER_SIGNAL = 250_000


class _Collector:
    """One load: the language it reads, and every diagnostic, with the lines of each file read (for the carets)."""

    def __init__(self, language: Optional[S.Language] = None):
        self.language = language or LANGUAGE
        self.diags: List[Diagnostic] = []
        self.lines: Dict[str, List[str]] = {}
        # references written in statements refused for another error: still checked (E110/E111)
        self.refused_refs: List[Tuple[str, Tuple[str, Tuple[str, ...], int, int, str]]] = []

    def add(self, file: str, line: int, col: int, code: str, message: str, source_line: str = ""):
        self.diags.append(Diagnostic(file, line, col, code, message, source_line or self.line(file, line)))

    def line(self, file: str, line: int) -> str:
        lines = self.lines.get(file, ())
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def parse(self, text: str, name: str) -> List[RawStatement]:
        """Parse one file's text, recording its lines and its syntax errors (E100)."""
        self.lines[name] = source_lines(text)
        stmts, perrs = parse_text(text, name)
        for pe in perrs:
            self.add(pe.file, pe.line, pe.col, "E100", pe.message)
        return stmts


class _Reader:
    """Reads files and their includes, parses them, and checks statements."""

    def __init__(self, files, strict: bool, errs: _Collector, top=None):
        self.files = files  # facts/files.py: Disk, or a GitTree
        self.top = top  # the world's folder: an include may not lead out of it (E154)
        self.strict = strict
        self.errs = errs
        self.loaded: Dict[object, str] = {}
        self.digests: Dict[str, str] = {}  # resolved path -> SHA-256 of the bytes read (the store's key)
        self.facts: List[Fact] = []
        self.attempted: Set[str] = set()  # ids of declarations that failed their own checks
        self.count = 0

    def read(self, path, stack: Tuple = (), at: Optional[Tuple[str, int, int, str]] = None):
        files = self.files
        try:
            path = files.resolve(path)
        except (OSError, ValueError, RuntimeError) as e:  # a NUL byte, a symlink loop
            f, line, col, text = at or (str(path), 1, 1, "")
            self.errs.add(f, line, col, "E150", f"cannot read file {files.name(path)!r}: {getattr(e, 'strerror', None) or e}", text)
            return
        if path in stack:
            f, line, col, text = at  # type: ignore[misc]
            chain = " -> ".join(files.name(p) for p in stack + (path,))
            self.errs.add(f, line, col, "E151", f"include cycle: {chain}", text)
            return
        if path in self.loaded:
            return  # a file reached twice (diamond include, or a folder) is loaded once
        if len(stack) > MAX_INCLUDE_DEPTH:
            f, line, col, text = at  # type: ignore[misc]
            self.errs.add(f, line, col, "E153", f"includes nest deeper than {MAX_INCLUDE_DEPTH} files", text)
            return
        if len(self.loaded) >= MAX_FILES:
            f, line, col, text = at or (files.name(path), 1, 1, "")
            self.errs.add(f, line, col, "E153", f"a world may have at most {MAX_FILES} files")
            return
        name = files.name(path)
        self.loaded[path] = name
        try:
            data = files.read(path, MAX_FILE_BYTES)
        except TooBig as e:
            self.errs.add(name, 1, 1, "E153", f"file is over {MAX_FILE_BYTES} bytes, the limit" if e.size is None
                          else f"file is {e.size} bytes; the limit is {MAX_FILE_BYTES}")
            return
        except OSError as e:
            if at:
                f, line, col, text = at
                self.errs.add(f, line, col, "E150", f"cannot read included file {name!r}: {e.strerror}", text)
            else:
                self.errs.add(name, 1, 1, "E150", f"cannot read file: {e.strerror}")
            return
        self.digests[str(path)] = hashlib.sha256(data).hexdigest()
        text = _decode(data, name, self.errs)
        if text is None:
            return
        stmts = self.errs.parse(text, name)
        self.count += len(stmts)
        if self.count > MAX_STATEMENTS:
            self.errs.add(name, 1, 1, "E153", f"a world may have at most {MAX_STATEMENTS} statements")
            return
        for st in stmts:
            if st.keyword == "include":
                self._include(st, path, stack + (path,))
            else:
                fact = check_statement(st, self.errs, self.strict)
                if fact is not None:
                    self.facts.append(fact)
                else:
                    _note_attempt(st, self.attempted, self.errs)

    def _include(self, st: RawStatement, path, stack: Tuple):
        decl = self.errs.language.decls["include"]
        vals = _check_items(st, decl, self.errs)
        if vals is None:
            return
        target = self.files.join(path, vals[0]["path"])
        arg = st.args[0]  # the caret of an include error stands under the path
        try:
            resolved = self.files.resolve(target)
        except (OSError, ValueError, RuntimeError):
            resolved = target  # read() reports it
        if self.top is not None and not self.files.inside(resolved, self.top):
            # a world is the files under its folder: an include that leads out could make a
            # check print lines of any readable file into a CI log
            self.errs.add(st.file, arg.line, arg.col, "E154",
                          f"include leads outside the world folder, to {self.files.name(resolved)!r}; "
                          f"copy the file into the world", "")
            return
        self.read(target, stack, at=(st.file, arg.line, arg.col, ""))


_BYTE_LINE_END = re.compile(rb"\r\n?|\n")


def _decode(data: bytes, name: str, errs: _Collector) -> Optional[str]:
    """UTF-8 text without a byte-order mark, or None with E152 at the first bad byte's line:col
    (a column counts characters, as everywhere else)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        ends = [m.end() for m in _BYTE_LINE_END.finditer(data, 0, e.start)]  # LF, CRLF and CR end lines
        bol, line = (ends[-1] if ends else 0), len(ends) + 1
        eol = _BYTE_LINE_END.search(data, e.start)
        shown = data[bol:eol.start() if eol else len(data)].decode("utf-8", "replace")
        col = len(data[bol:e.start].decode("utf-8")) + 1  # what precedes the first bad byte is valid
        if line == 1 and shown.startswith("\ufeff"):
            shown, col = shown[1:], col - 1
        errs.add(name, line, col, "E152",
                 f"not UTF-8 text: byte 0x{data[e.start]:02x} is not valid UTF-8 here; save the file as UTF-8",
                 shown)
        return None
    return text[1:] if text.startswith("\ufeff") else text


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


def _check_cites_per_signal(facts: List[Fact], errs: _Collector) -> bool:
    """E153 at the citation that takes a signal past :data:`MAX_CITES_PER_SIGNAL` (once per signal)."""
    count: Dict[str, int] = {}
    ok = True
    for f in facts:
        sid, n = (f["signal"], 1) if f.kind == "cite" else (f["id"], len(f.src)) if f.kind == "signal" else (None, 0)
        if n:
            count[sid] = count.get(sid, 0) + n
            if count[sid] > MAX_CITES_PER_SIGNAL and count[sid] - n <= MAX_CITES_PER_SIGNAL:
                errs.add(f.loc.file, f.loc.line, f.loc.col, "E153",
                         f"signal {sid!r} has more than {MAX_CITES_PER_SIGNAL} citations, the limit per signal")
                ok = False
    return ok


def _resolve(facts: List[Fact], errs: _Collector, attempted: Set[str] = frozenset()) -> FactSet:
    """Duplicate ids, references, and one-per-key statements, over the whole world."""
    world = FactSet()
    ns_of = {d.keyword: d.namespace for d in errs.language.decls.values() if d.declares}
    kinds: Dict[str, Dict[str, Fact]] = {ns: {} for ns in ns_of.values()}
    dup = False
    for f in facts:
        ns = ns_of.get(f.kind)
        if ns:
            prev = kinds[ns].get(f["id"])
            if prev is not None:
                later = max(prev, f, key=lambda x: (x.loc.file, x.loc.line))
                first = prev if later is f else f
                errs.add(later.loc.file, later.loc.line, later.loc.col, "E112",
                         f"duplicate id {f['id']!r}: already declared as {first.kind} at {first.loc}")
                dup = True
                kinds[ns][f["id"]] = first
                continue
            kinds[ns][f["id"]] = f
    ok = _check_cites_per_signal(facts, errs) and not dup
    once: Dict[Tuple, Fact] = {}
    refs = [(f.loc.file, r) for f in facts for r in f.refs] + errs.refused_refs
    for f in facts:  # resolved below; a loaded world does not keep them
        object.__setattr__(f, "refs", ())
    for file, (ident, allowed, line, col, what) in refs:
        ns = "node" if set(allowed) & set(S.NODE) else allowed[0]
        target = kinds.get(ns, {}).get(ident)
        if target is None and ident in attempted:
            continue
        elsewhere = target is None  # declared as something else?
        if elsewhere:
            target = next((k[ident] for k in kinds.values() if ident in k), None)
        if target is None:
            kind_words = "/".join(allowed)
            errs.add(file, line, col, "E110",
                     f"{what} names {ident!r}, which is not declared anywhere in the world (expected a {kind_words}; declare it or fix the id)")
            ok = False
        elif elsewhere or (ns == "node" and target.kind not in allowed):
            errs.add(file, line, col, "E111",
                     f"{what} names {ident!r}, a {target.kind} (at {target.loc}); expected a {'/'.join(allowed)}")
            ok = False
    for f in facts:
        unique = errs.language.decls[f.kind].unique
        if unique is not None:  # one statement per world for each value of these fields
            key = (f.kind,) + tuple(str(f[k]) for k in unique)
            prev = once.get(key)
            if prev is not None:
                later = max(prev, f, key=lambda x: (x.loc.file, x.loc.line))
                first = prev if later is f else f
                shown = [str(f[k]) for k in unique if f[k] is not None]  # a stored role has no dim
                per = f"for {' '.join(shown)}" if unique else "in the world"
                errs.add(later.loc.file, later.loc.line, later.loc.col, "E112",
                         f"a second {f.kind} {per}: the first is at {first.loc}; there may be one")
                ok = False
                once[key] = first
            else:
                once[key] = f
    if ok:  # checks across statements (a rulebook's, issue 8) need every reference resolved
        for decl in errs.language.decls.values():
            if decl.across is not None:
                mine = [f for f in facts if f.kind == decl.keyword]
                for f, code, msg in decl.across(mine, lambda kind, ident: kinds.get(kind, {}).get(ident)):
                    errs.add(f.loc.file, f.loc.line, f.loc.col, code, msg)
                    ok = False
    if ok:
        for f in facts:
            world.add(f)
    return world


def load_world(path: Union[str, os.PathLike], strict: bool = False, root: Optional[Union[str, os.PathLike]] = None,
               language: Optional[S.Language] = None, files=None) -> FactSet:
    """Load a world from a ``.facts`` file or a folder of them (recursively).

    Raises :class:`LoadError` with every error found; returns a complete
    :class:`FactSet` otherwise. File names in errors are relative to ``root``
    (default: the current directory). ``language``: the statements it may
    write (default :data:`provlog.facts.LANGUAGE`, every rulebook's).
    ``files``: where the files are read from (facts/files.py; default the
    file system): a :class:`~provlog.facts.files.GitTree` reads a revision's,
    ``path`` then being a path in its tree, and names them ``REV:path``; a
    :class:`~provlog.facts.files.TreePath` ``path`` is both at once.
    """
    if isinstance(path, TreePath):
        files, p = path.tree, path.path
    elif files is None:
        files = Disk(Path(root if root is not None else Path.cwd()).resolve())
        p = Path(path)
    else:
        p = files.path(str(path))
    errs = _Collector(language)
    is_dir = files.is_dir(p)
    try:
        top = files.resolve(p if is_dir else p.parent)
    except (OSError, ValueError, RuntimeError):
        top = None  # read() reports it
    reader = _Reader(files, strict, errs, top=top)

    def refuse(entry, code: str, msg: str) -> None:
        errs.add(files.name(entry), 1, 1, code, msg)

    with paused_gc():
        if is_dir:
            listed = files.listing(p, refuse)
            if not listed and not errs.diags:
                raise LoadError([Diagnostic(files.name(files.resolve(p)), 1, 1, "E155",
                                            "empty world: the folder holds no .facts files")])
            for q in listed:
                reader.read(q)
        elif files.exists(p):
            reader.read(p)
        else:
            shown = str(path) if isinstance(files, Disk) else files.name(p)
            raise LoadError([Diagnostic(shown, 1, 1, "E150", "no such file or folder")])
        world = _resolve(reader.facts, errs, reader.attempted)
    if not reader.facts and not errs.diags:
        errs.add(files.name(files.resolve(p)), 1, 1, "E155",
                 "empty world: its files hold no statements (only comments and blank lines)")
    if errs.diags:
        raise LoadError(errs.diags)
    world.files = ReadFiles(sorted(reader.loaded.values()), reader.digests)
    return world


def load_text(text: str, name: str = "<text>", strict: bool = False, language: Optional[S.Language] = None) -> FactSet:
    """Load a world from a string (no includes relative to a folder beyond the cwd); ``language`` as
    :func:`load_world`'s.

        >>> toy = S.Language("toy")
        >>> _ = toy.declare(S.Decl("lab", (S.Field("id"), S.Field("name", S._text, quoted=True)), declares="lab"))
        >>> [f.fid for f in load_text('lab acme "Acme AI"', language=toy)]
        ['lab:acme']
        >>> load_text('org o "O" type=nonprofit', language=toy)
        Traceback (most recent call last):
        provlog.facts.errors.LoadError: 1 error in world
        <text>:1:1: unknown keyword 'org'; docs/language.md lists the statements [E101]
    """
    errs = _Collector(language)
    facts = []
    attempted: Set[str] = set()
    with paused_gc():
        for st in errs.parse(text[1:] if text.startswith("\ufeff") else text, name):
            if st.keyword == "include":
                _err(errs, st, st.line, st.col, "E150", "include needs a world loaded from a file")
                continue
            f = check_statement(st, errs, strict)
            if f is not None:
                facts.append(f)
            else:
                _note_attempt(st, attempted, errs)
        world = _resolve(facts, errs, attempted)
    if not facts and not errs.diags:
        errs.add(name, 1, 1, "E155", "empty world: the text holds no statements (only comments and blank lines)")
    if errs.diags:
        raise LoadError(errs.diags)
    world.files = [name]
    return world
