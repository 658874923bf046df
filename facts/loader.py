"""Load a world: read files, follow includes, check every statement, resolve ids.

    >>> from provlog.facts import load_world          # doctest: +SKIP
    >>> facts = load_world("facts/worlds/example")    # doctest: +SKIP

A world is loaded whole or not at all: every error of every file is collected
and raised together as one :class:`LoadError`.
"""
from __future__ import annotations

import difflib
import os
import stat
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple, Union

from ..grammar import Pair, RawStatement, parse_text
from ..grammar.parser import Arg, Eq, paused_gc, source_lines
from ..grammar.query import QueryError, parse_goal, safe_order
from . import schema as S
from . import values as V
from .errors import Diagnostic, LoadError
from .model import Fact, FactSet, Loc

#: Input limits (E153): generous for real worlds, finite for hostile ones.
MAX_FILE_BYTES = 64 * 2**20
MAX_INCLUDE_DEPTH = 32
MAX_FILES = 5000
MAX_STATEMENTS = 2_000_000
#: citations of one signal (cite statements and src= entries); a real signal has a few (bench cites)
MAX_CITES_PER_SIGNAL = 250_000


class _Collector:
    """Every diagnostic of a load, with the lines of each file read (for the carets)."""

    def __init__(self):
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


def _display(path: Path, root: Path) -> str:
    try:
        return os.path.relpath(path, root)
    except ValueError:  # pragma: no cover - other drive on Windows
        return str(path)


class _Reader:
    """Reads files and their includes, parses them, and checks statements."""

    def __init__(self, root: Path, strict: bool, errs: _Collector):
        self.root = root
        self.strict = strict
        self.errs = errs
        self.loaded: Dict[Path, str] = {}
        self.facts: List[Fact] = []
        self.attempted: Set[str] = set()  # ids of declarations that failed their own checks
        self.count = 0

    def read(self, path: Path, stack: Tuple[Path, ...] = (), at: Optional[Tuple[str, int, int, str]] = None):
        try:
            path = path.resolve()
        except (OSError, ValueError, RuntimeError) as e:  # a NUL byte, a symlink loop
            f, line, col, text = at or (str(path), 1, 1, "")
            self.errs.add(f, line, col, "E150", f"cannot read file {_display(path, self.root)!r}: {getattr(e, 'strerror', None) or e}", text)
            return
        if path in stack:
            f, line, col, text = at  # type: ignore[misc]
            chain = " -> ".join(_display(p, self.root) for p in stack + (path,))
            self.errs.add(f, line, col, "E151", f"include cycle: {chain}", text)
            return
        if path in self.loaded:
            return  # a file reached twice (diamond include, or a folder) is loaded once
        if len(stack) > MAX_INCLUDE_DEPTH:
            f, line, col, text = at  # type: ignore[misc]
            self.errs.add(f, line, col, "E153", f"includes nest deeper than {MAX_INCLUDE_DEPTH} files", text)
            return
        if len(self.loaded) >= MAX_FILES:
            f, line, col, text = at or (_display(path, self.root), 1, 1, "")
            self.errs.add(f, line, col, "E153", f"a world may have at most {MAX_FILES} files")
            return
        name = _display(path, self.root)
        self.loaded[path] = name
        try:
            st = path.stat()
            if not stat.S_ISREG(st.st_mode):  # a folder, a FIFO, /dev/zero: nothing to read, or no end to it
                raise IsADirectoryError(21, "Is a directory") if stat.S_ISDIR(st.st_mode) else OSError(0, "not a regular file")
            if st.st_size > MAX_FILE_BYTES:
                self.errs.add(name, 1, 1, "E153", f"file is {st.st_size} bytes; the limit is {MAX_FILE_BYTES}")
                return
            with open(path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:  # pragma: no cover - grew while being read
                self.errs.add(name, 1, 1, "E153", f"file is over {MAX_FILE_BYTES} bytes, the limit")
                return
        except OSError as e:
            if at:
                f, line, col, text = at
                self.errs.add(f, line, col, "E150", f"cannot read included file {name!r}: {e.strerror}", text)
            else:
                self.errs.add(name, 1, 1, "E150", f"cannot read file: {e.strerror}")
            return
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

    def _include(self, st: RawStatement, path: Path, stack: Tuple[Path, ...]):
        decl = S.DECLS["include"]
        vals = _check_items(st, decl, self.errs)
        if vals is None:
            return
        target = path.parent / vals[0]["path"]
        arg = st.args[0]  # the caret of an include error stands under the path
        self.read(target, stack, at=(st.file, arg.line, arg.col, ""))


def _decode(data: bytes, name: str, errs: _Collector) -> Optional[str]:
    """UTF-8 text without a byte-order mark, or None with E152 at the first bad byte's line:col
    (a column counts characters, as everywhere else)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        bol = data.rfind(b"\n", 0, e.start) + 1
        eol = data.find(b"\n", e.start)
        line = data.count(b"\n", 0, e.start) + 1
        shown = data[bol:eol if eol >= 0 else len(data)].decode("utf-8", "replace")
        col = len(data[bol:e.start].decode("utf-8")) + 1  # what precedes the first bad byte is valid
        if line == 1 and shown.startswith("\ufeff"):
            shown, col = shown[1:], col - 1
        errs.add(name, line, col, "E152",
                 f"not UTF-8 text: byte 0x{data[e.start]:02x} is not valid UTF-8 here; save the file as UTF-8",
                 shown.rstrip("\r"))
        return None
    return text[1:] if text.startswith("\ufeff") else text


def _err(errs: _Collector, st: RawStatement, line: int, col: int, code: str, msg: str):
    errs.add(st.file, line, col, code, msg)


def _parse_field(fld: S.Field, arg: Arg, st: RawStatement, errs: _Collector, what: str):
    if fld.quoted is True and not arg.quoted:
        _err(errs, st, arg.line, arg.col, "E104", f"{what} is a quoted string, got bare word {arg.value!r}")
        return _BAD
    if fld.quoted is False and arg.quoted:
        _err(errs, st, arg.line, arg.col, "E104", f"{what} is a bare word, not a quoted string")
        return _BAD
    try:
        return fld.parse(arg.value)
    except V.PctRangeError as e:
        _err(errs, st, arg.line, arg.col, "E120", f"{what}: {e}")
    except V.BoundRangeError as e:
        _err(errs, st, arg.line, arg.col, "E121", f"{what}: {e}")
    except V.ValueError_ as e:  # a parser may name its own code (results.py: E160, E165)
        _err(errs, st, arg.line, arg.col, getattr(e, "code", "E104"), f"{what}: {e}")
    return _BAD


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
            if key in ("src", "span") and decl.evidence:
                if key == "src":
                    ids = []
                    for a in item.values:
                        if a.quoted or not V.IDENT.match(a.value):
                            _err(errs, st, a.line, a.col, "E104", f"src= lists source ids, got {a.value!r}")
                            ok = False
                        else:
                            ids.append(a.value)
                            refs.append((a.value, ("source",), a.line, a.col, "src="))
                    src = tuple(ids)
                else:
                    a = item.values[0]
                    if len(item.values) != 1 or not a.quoted:
                        _err(errs, st, a.line, a.col, "E104", 'span= is one quoted string: span="the words that state it"')
                        ok = False
                    else:
                        span = a.value
                continue
            fld = decl.attrs.get(key)
            if fld is None:
                known = sorted(decl.attrs) + (["src", "span"] if decl.evidence else [])
                hint = f"; {decl.keyword} takes {', '.join(k + '=' for k in known)}" if known else f"; {decl.keyword} takes no attributes"
                if key in S.DERIVED:  # `result ... multiplier=2`: a conclusion, not an input
                    _err(errs, st, item.line, item.col, "E140",
                         f"{key}= is derived by provlog from the facts and cannot be stated; "
                         f"{decl.keyword} takes {', '.join(k + '=' for k in known)}")
                    ok = False
                    continue
                _err(errs, st, item.line, item.col, "E102", f"unknown attribute {key}= for {decl.keyword}{hint}")
                ok = False
                continue
            if not fld.many and len(item.values) != 1:
                _err(errs, st, item.values[1].line, item.values[1].col, "E104", f"{key}= takes one value")
                ok = False
                continue
            parsed = []
            for a in item.values:
                if key == "lane" and a.value == "self-attested":
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
            values[key] = tuple(parsed) if fld.many else (parsed[0] if parsed else None)
        else:
            positional.append(item)
    # bare flags are words beyond the positional fields
    nfix = len(decl.positional)
    fixed, rest = positional[:nfix], positional[nfix:]
    words_rest: List[Arg] = []
    for a in rest:
        if not a.quoted and a.value in decl.flags:
            if a.value in flags:
                _err(errs, st, a.line, a.col, "E105", f"flag {a.value} is given twice")
                ok = False
            flags.add(a.value)
        else:
            words_rest.append(a)
    if len(fixed) < nfix:
        missing = [f.name for f in decl.positional[len(fixed):]]
        col = (st.items[-1].col if st.items else st.col + len(st.keyword))
        _err(errs, st, st.line, col, "E103",
             f"{st.keyword} needs {' '.join('<' + f.name + '>' for f in decl.positional)}; missing <{'> <'.join(missing)}>")
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
        if not a.quoted and "=" not in a.value and len(fixed) == nfix and decl.flags:
            msg = f"unknown flag {a.value!r} for {st.keyword}{flags_hint}"
            code = "E102"
        else:
            msg = f"unexpected extra argument {a.value!r}: {st.keyword} takes {' '.join('<' + f.name + '>' for f in decl.positional) or 'no positional arguments'}{flags_hint}"
            code = "E103"
        _err(errs, st, a.line, a.col, code, msg)
        ok = False
    for name, fld in decl.attrs.items():
        if fld.required and name not in seen_attrs:
            _err(errs, st, st.line, st.col, "E106", f"{st.keyword} needs {name}=")
            ok = False
    if not ok:
        return None
    return values, flags, refs, src, span, words_rest


def _read_bound(st: RawStatement, rest: List[Arg], errs: _Collector):
    """`cap <n>` / `floor <n>` / `info` of a signal."""
    if not rest:
        _err(errs, st, st.line, st.col, "E103", "signal needs a bound after the direction: cap <n>, floor <n> or info")
        return _BAD
    head = rest[0]
    if head.value == "info" and not head.quoted:
        if len(rest) > 1:
            _err(errs, st, rest[1].line, rest[1].col, "E103", f"unexpected {rest[1].value!r} after info")
            return _BAD
        return ("info", None)
    if head.value in ("cap", "floor") and not head.quoted:
        if len(rest) < 2:
            _err(errs, st, head.line, head.col, "E103", f"{head.value} needs a number 0-4")
            return _BAD
        if len(rest) > 2:
            _err(errs, st, rest[2].line, rest[2].col, "E103", f"unexpected {rest[2].value!r} after the bound")
            return _BAD
        n = _parse_field(S.Field("bound", V.parse_bound), rest[1], st, errs, head.value)
        return _BAD if n is _BAD else (head.value, n)
    _err(errs, st, head.line, head.col, "E104", f"expected cap <n>, floor <n> or info, got {head.value!r}")
    return _BAD


def _check_source(st: RawStatement, values: dict, flags, errs: _Collector, strict: bool) -> bool:
    lane = values.get("lane")
    at = next((i.values[0] for i in st.items if isinstance(i, Pair) and i.key == "lane"), None)
    line, col = (at.line, at.col) if at is not None else (st.line, st.col)
    if lane == "verified":
        missing = [k + "=" for k in ("dataset-hash", "input-hash") if values.get(k) is None]
        if missing:
            _err(errs, st, line, col, "E131",
                 f"lane=verified needs {' and '.join(missing)} as 64 lowercase hex (SHA-256); "
                 "verified rows are reproducible or not verified")
            return False
    elif lane == "reported":
        missing = [k + "=" for k in ("attestor", "approved-by") if not (values.get(k) or "").strip()]
        if missing:
            _err(errs, st, line, col, "E132",
                 f"lane=reported needs {' and '.join(missing)} (not empty): a reported claim counts only with "
                 "a public attestor and the human gate's approval")
            return False
    elif lane == "pending" and strict:
        _err(errs, st, line, col, "E133",
             "lane=pending is a legacy no-scoring alias and an error under --strict: use reported (approved) or rejected")
        return False
    return True


def _check_result(st: RawStatement, values: dict, errs: _Collector, strict: bool) -> bool:
    """A benchmark result or catalog source (facts/results.py; seeds/provenance-lanes.txt 01-03, docs/lanes.md)."""
    from .results import UNITS, is_hex64

    at = {i.key: i.values[0] for i in st.items if isinstance(i, Pair)}

    def fail(key: Optional[str], code: str, msg: str) -> None:
        a = at.get(key) if key else None
        _err(errs, st, a.line if a else st.line, a.col if a else st.col, code, msg)

    ok = True
    lane = values.get("lane")
    if lane == "pending" and strict:
        fail("lane", "E164", "lane=pending is a legacy no-scoring alias and an error under --strict: "
                             "use reported (approved) or rejected")
        ok = False
    if st.keyword != "result":
        return ok
    score, unit, pct = values.get("score"), values.get("unit"), values.get("percentile")
    if score is None and pct is None:
        fail(None, "E106", "result needs a score: score=<n> unit=pct|fraction, or percentile=<n>")
        ok = False
    elif score is not None and unit is None:
        fail("score", "E106", "score= needs unit=pct (0-100) or unit=fraction (0-1) to be normalized")
        ok = False
    elif unit is not None and score is None:
        fail("unit", "E106", "unit= names the unit of score=, which is missing")
        ok = False
    elif score is not None:
        lo, hi = UNITS[unit]
        if not lo <= score <= hi:
            fail("score", "E165", f"score={at['score'].value} is outside unit={unit}'s range {lo}-{hi}")
            ok = False
    for key in ("dataset-hash", "input-hash"):
        h = values.get(key)
        if h is not None and not is_hex64(h):
            why = (f"{len(h)} characters" if len(h) != 64 else
                   "uppercase" if is_hex64(h.lower()) else "non-hex characters")
            fail(key, "E161", f"{key}= is a SHA-256 as 64 lowercase hex characters; got {why}: "
                              "uppercase, short or non-hex hashes are rejected")
            ok = False
    if lane == "verified":
        for key in ("dataset-hash", "input-hash"):
            if values.get(key) is None:
                fail(None, "E161", f"lane=verified needs {key}= as 64 lowercase hex (SHA-256): "
                                   "verified rows carry their reproducibility fingerprint")
                ok = False
        if values.get("run-at") is None:
            fail(None, "E162", "lane=verified needs run-at=<date>: the harness emits when it ran")
            ok = False
    elif lane == "reported":
        for key in ("attestor", "approved-by"):
            if values.get(key) is None:
                fail(None, "E163", f"lane=reported needs {key}=: a reported claim counts only with a public "
                                   "attestor and the human gate's approval")
                ok = False
    return ok


def _check_expect(st: RawStatement, errs: _Collector):
    """expect <org> <dim> = <n|-> | <org> band=<b> | <org> role=<r> | hop <payer> = <n|none>."""
    items = st.items
    words = [i for i in items if isinstance(i, Arg)]
    pairs = {i.key: i for i in items if isinstance(i, Pair)}
    eqs = [i for i in items if isinstance(i, Eq)]
    where = (st.line, st.col)

    def fail(item, msg, code="E104"):
        line, col = (item.line, item.col) if item is not None else where
        _err(errs, st, line, col, code, msg)
        return None

    usage = ("expect takes: <org> <dim> = <n|-> [policy=] [rule=] | <org> band=<b> [policy=] | "
             "<org> role=<r> | hop <payer> = <n|none>")
    for k, p in pairs.items():
        if k not in ("policy", "rule", "band", "role", "rulebook"):
            return fail(p, f"unknown attribute {k}= for expect; {usage}", "E102")
        if len(p.values) != 1:
            return fail(p, f"{k}= takes one value")
    refs = []
    out: Dict[str, object] = {}
    if words and words[0].value in ("holds", "fails") and not words[0].quoted:
        # expect holds|fails "<goal>" [rulebook=<name>]: any goal of any rulebook
        if len(words) != 2 or not words[1].quoted or eqs or set(pairs) - {"rulebook"}:
            return fail(words[0], 'expect holds "<goal>" [rulebook=<name>] | expect fails "<goal>" [rulebook=<name>]', "E103")
        try:
            safe_order(parse_goal(words[1].value))
        except QueryError as e:  # the caret under the goal's first wrong character
            g = words[1]
            col = g.col + min(max(e.column, 1), len(g.value) + 1)
            _err(errs, st, g.line, col, "E104", f"goal {g.value!r} is not a Datalog goal: {e.reason}")
            return None
        out.update(what=words[0].value, goal=words[1].value,
                   rulebook=pairs["rulebook"].values[0].value if "rulebook" in pairs else None)
        return out, refs
    if words and words[0].value == "hop" and not words[0].quoted:
        if len(words) != 3 or len(eqs) != 1 or pairs:
            return fail(words[0], usage, "E103")
        payer, val = words[1], words[2]
        out.update(what="hop", node=payer.value)
        refs.append((payer.value, S.NODE, payer.line, payer.col, "hop <payer>"))
        if val.value == "none":
            out["expected"] = None
        else:
            try:
                out["expected"] = V.parse_int(val.value)
            except V.ValueError_:
                return fail(val, f"a hop is a whole number or none, got {val.value!r}")
        return out, refs
    if not words:
        return fail(None, usage, "E103")
    org = words[0]
    refs.append((org.value, ("org",), org.line, org.col, "<org>"))
    out["org"] = org.value
    pol = pairs.get("policy")
    if pol is not None:
        p = pol.values[0].value
        if p not in S.POLICY_NAMES:
            return fail(pol.values[0], f"unknown policy {p!r}; one of {', '.join(S.POLICY_NAMES)}")
        out["policy"] = p
    if "band" in pairs or "role" in pairs:
        if len(words) != 1 or eqs or "rule" in pairs or ("band" in pairs and "role" in pairs):
            return fail(words[1] if len(words) > 1 else st, usage, "E103")
        if "band" in pairs:
            b = pairs["band"].values[0]
            if b.value not in S.BANDS:
                return fail(b, f"a band is one of {', '.join(S.BANDS)}, got {b.value!r}")
            out.update(what="band", expected=b.value)
        else:
            r = pairs["role"].values[0]
            if r.value not in S.ROLE_NAMES:
                return fail(r, f"a role is one of {', '.join(S.ROLE_NAMES)}, got {r.value!r}")
            if pol is not None:
                return fail(pol, "roles derive under leads-included; expect role takes no policy=", "E102")
            out.update(what="role", expected=r.value)
        return out, refs
    if len(words) != 3 or len(eqs) != 1:
        return fail(words[-1], usage, "E103")
    try:
        out["dim"] = S._dim(words[1].value)
    except V.ValueError_ as e:
        return fail(words[1], str(e))
    v = words[2]
    if v.value == "-":
        out["expected"] = None
    else:
        try:
            out["expected"] = V.parse_bound(v.value)
        except V.ValueError_ as e:
            return fail(v, f"expected value: {e}", "E121" if isinstance(e, V.BoundRangeError) else "E104")
    if "rule" in pairs:
        r = pairs["rule"].values[0]
        if not V.RULE_ID.match(r.value):
            return fail(r, f"expected a rule id like F.4b, C15 or 9, got {r.value!r}")
        out["rule"] = r.value
    out["what"] = "value"
    return out, refs


_NO_FLAGS: frozenset = frozenset()


def check_statement(st: RawStatement, errs: _Collector, strict: bool = False) -> Optional[Fact]:
    """Check one raw statement against its declaration; a Fact, or None with errors recorded."""
    kw = st.keyword
    loc = Loc(st.file, st.line, st.col)
    if kw in S.DERIVED:
        _err(errs, st, st.line, st.col, "E140",
             f"{kw!r} is derived by provlog from the facts and cannot be stated as a fact; "
             "state the facts it follows from (signals, cites, stakes, money, roles)")
        return None
    decl = S.DECLS.get(kw)
    if decl is None:
        near = [k for k in sorted(S.DECLS) if len(k) >= 3 and kw.lower().startswith(k)][-1:]
        near += [k for k in difflib.get_close_matches(kw.lower(), sorted(S.DECLS), n=3, cutoff=0.6) if k not in near]
        hint = f"did you mean {' or '.join(near)}?" if near else "docs/language.md lists the statements"
        _err(errs, st, st.line, st.col, "E101", f"unknown keyword {V.show(kw)}; {hint}")
        return None
    if kw == "expect":
        r = _check_expect(st, errs)
        if r is None:
            return None
        vals, refs = r
        return Fact("expect", vals, loc, refs=tuple(refs))
    if kw in ("signal", "cite"):
        first = next((i for i in st.items if isinstance(i, Arg)), None)
        if first is not None and "/" in first.value:
            _err(errs, st, first.line, first.col, "E140",
                 f"{first.value!r} is a derived signal id (<rule>/<org>/<n>); derived signals are provlog's, "
                 "state the facts they follow from")
            return None
    extra = {"signal": 3, "cite": 1, "assessment": 1}.get(kw, 0)
    checked = _check_items(st, decl, errs, extra_positional=extra)
    if checked is None:
        if kw == "signal":  # still report a bad bound on a statement with other errors
            words = [i for i in st.items if isinstance(i, Arg)][len(decl.positional):]
            words = [w for w in words if w.value not in decl.flags]
            if words:
                _read_bound(st, words, errs)
        return None
    values, flags, refs, src, span, rest = checked
    if kw == "signal":
        b = _read_bound(st, rest, errs)
        if b is _BAD:
            return None
        values["kind"], values["bound"] = b
    elif kw == "cite":
        if rest:
            if not rest[0].quoted:
                _err(errs, st, rest[0].line, rest[0].col, "E104", 'a cited span is a quoted string: cite <signal> <source> "<span>"')
                return None
            values["span"] = rest[0].value
    elif kw == "assessment":
        has_value, has_role = "value" in values, "role" in values
        if rest:
            try:
                values["dim"] = S._dim(rest[0].value)
            except V.ValueError_ as e:
                _err(errs, st, rest[0].line, rest[0].col, "E104", str(e))
                return None
        if has_role == has_value or (has_value and not rest) or (has_role and rest):
            _err(errs, st, st.line, st.col, "E103", "assessment takes <org> <dim> value=<n|-> or <org> role=<role>")
            return None
    elif kw == "source":
        if not _check_source(st, values, flags, errs, strict):
            return None
    elif kw in ("result", "benchmark-source"):
        if not _check_result(st, values, errs, strict):
            return None
    elif kw == "preset":
        if all(values[d] == 0 for d in V.DIMS):
            _err(errs, st, st.line, st.col, "E104", "a preset needs at least one weight above 0")
            return None
    if decl.check is not None and not _run_check(st, decl, values, flags, errs):
        return None
    return Fact(kw, values, loc, frozenset(flags) if flags else _NO_FLAGS, src, span, tuple(refs))


def _run_check(st: RawStatement, decl: S.Decl, values: dict, flags, errs: _Collector) -> bool:
    """A declaration's own checks over several fields (rulebooks, issue 8); each problem at its field."""
    problems = decl.check(values, frozenset(flags))
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
    decl = S.DECLS.get(st.keyword)
    first = next((i for i in st.items if isinstance(i, Arg)), None)
    if decl is not None and decl.declares and first is not None:
        attempted.add(first.value)
    if decl is None or st.keyword == "expect":
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
    kinds: Dict[str, Dict[str, Fact]] = {"node": {}, "source": {}, "signal": {}, "preset": {}, "result": {}}
    ns_of = {"lab": "node", "org": "node", "entity": "node", "person": "node",
             "source": "source", "signal": "signal", "preset": "preset", "result": "result"}
    for d in S.DECLS.values():  # a rulebook's declared kinds (issue 8), each its own namespace
        if d.declares and d.keyword not in ns_of:
            ns_of[d.keyword] = d.declares
            kinds.setdefault(d.declares, {})
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
        key = None
        if f.kind == "stake":
            key = ("stake", f["holder"], f["subject"])
        elif f.kind == "resolution":
            key = ("resolution", f["org"], f["dim"])
        elif f.kind == "assessment":
            key = ("assessment", f["org"], f.get("dim") or "role")
        elif getattr(S.DECLS.get(f.kind), "unique", None) is not None:  # a rulebook's one-per-key statements
            key = (f.kind,) + tuple(str(f[k]) for k in S.DECLS[f.kind].unique)
        if key is not None:
            prev = once.get(key)
            if prev is not None:
                later = max(prev, f, key=lambda x: (x.loc.file, x.loc.line))
                first = prev if later is f else f
                per = f"for {' '.join(key[1:])}" if key[1:] else "in the world"
                errs.add(later.loc.file, later.loc.line, later.loc.col, "E112",
                         f"a second {key[0]} {per}: the first is at {first.loc}; there may be one")
                ok = False
                once[key] = first
            else:
                once[key] = f
    if ok:  # checks across statements (a rulebook's, issue 8) need every reference resolved
        for decl in S.DECLS.values():
            if decl.across is not None:
                mine = [f for f in facts if f.kind == decl.keyword]
                for f, code, msg in decl.across(mine, lambda kind, ident: kinds.get(kind, {}).get(ident)):
                    errs.add(f.loc.file, f.loc.line, f.loc.col, code, msg)
                    ok = False
    if ok:
        for f in facts:
            world.add(f)
    return world


def load_world(path: Union[str, os.PathLike], strict: bool = False, root: Optional[Union[str, os.PathLike]] = None) -> FactSet:
    """Load a world from a ``.facts`` file or a folder of them (recursively).

    Raises :class:`LoadError` with every error found; returns a complete
    :class:`FactSet` otherwise. File names in errors are relative to ``root``
    (default: the current directory).
    """
    p = Path(path)
    base = Path(root) if root is not None else Path.cwd()
    errs = _Collector()
    reader = _Reader(base.resolve(), strict, errs)
    with paused_gc():
        if p.is_dir():
            files = sorted(q for q in p.rglob("*.facts") if q.is_file())
            if not files:
                raise LoadError([Diagnostic(str(path), 1, 1, "E150", "folder holds no .facts files")])
            for q in files:
                reader.read(q)
        elif p.exists():
            reader.read(p)
        else:
            raise LoadError([Diagnostic(str(path), 1, 1, "E150", "no such file or folder")])
        world = _resolve(reader.facts, errs, reader.attempted)
    if errs.diags:
        raise LoadError(errs.diags)
    world.files = sorted(reader.loaded.values())
    return world


def load_text(text: str, name: str = "<text>", strict: bool = False) -> FactSet:
    """Load a world from a string (no includes relative to a folder beyond the cwd)."""
    errs = _Collector()
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
    if errs.diags:
        raise LoadError(errs.diags)
    world.files = [name]
    return world
