"""Re-read an edited world from its previous store: parse only the lines that changed (issue 27;
docs/store.md, "Edits").

A store keeps each file's text (``_texts``) and each statement's file, line and number (``_facts``).
When exactly one file of a world changed, :func:`read` finds the lines that differ (the common prefix
and suffix of the old and the new text), widens them to whole statements (one more on each side),
parses and checks only those, and checks them against the rest of the world as a cold load would:
ids unique, references resolved, one statement per key, each declaration's checks across its
statements, citations per signal, the limits. The rest of the world is the store's: the statements
after the region keep their content, their lines (and so the ids ``kind@file:line`` of those that
declare none) move by the lines added, and their numbers by the statements added.

:func:`read` returns a :class:`Delta`, or None whenever it cannot prove its world equal to a cold
load's: another file added, removed or renamed, two files changed, an include or a CR line end in
the file, a declaration removed, any error at all (the caller then loads the world whole, which
says where the error is, and keeps the old store).

The inputs name files inside the world (logic/store/key.py), the store as the command that wrote it
named them (logic/store/names.py): the changed file is found in the store by the store's name, and
read at its place in the world, wherever the world is asked from.

    >>> delta = read(old, inputs("w", False, None), strict=False, top=Path("w").resolve())   # doctest: +SKIP
    >>> delta.file, delta.start, len(delta.new)                      # doctest: +SKIP
    ('w/signals.facts', 7, 3)
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..facts.checking import check_statement
from ..facts.collector import _Collector
from ..facts.files import GitError, git
from ..facts.model import Fact
from ..facts.live_blocks import kept_ends
from ..facts.reading import MAX_FILE_BYTES, MAX_STATEMENTS
from ..facts.resolving import MAX_CITES_PER_SIGNAL, _check_once
from ..facts.schema import NODE
from . import store as S

_INCLUDE = re.compile(r"include\b")


def _includes(text: str) -> bool:
    """Whether a line of the text starts with ``include`` (after spaces): each ``include`` found, its line
    read back (a regex anchored at every line start cost an edit of a large file a twentieth of a second)."""
    for m in _INCLUDE.finditer(text):
        if not text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip():
            return True
    return False


class Delta:
    """One file's changed region: the old statements ``was`` (``_facts`` rows, numbers ``n0`` to
    ``n0 + len(was) - 1``) replaced by ``new`` (numbered from ``n0``), lines ``start`` to ``end - 1``
    of the old text; every later line of the file moves by ``lines``, every later number by
    ``shift``. ``text``: the file's new text; ``total``: the new world's statements."""

    def __init__(self, old: "S.Stored", file: str, start: int, end: int, lines: int, n0: int,
                 was: List[Tuple], new: List[Fact], text: str):
        self.old, self.file, self.start, self.end, self.lines = old, file, start, end, lines
        self.n0, self.was, self.new, self.text = n0, was, new, text
        self.shift = len(new) - len(was)
        self.total = int(old.meta["statements"]) + self.shift
        self._kinds: Dict[str, List[Tuple[int, Fact]]] = {}

    def in_region(self, n: int) -> bool:
        return self.n0 <= n < self.n0 + len(self.was)

    def number(self, n: int) -> Optional[int]:
        """An old statement's new number (None: it was in the region)."""
        return n if n < self.n0 else None if self.in_region(n) else n + self.shift

    def moved(self, row: Tuple) -> Tuple:
        """An old ``_facts`` row outside the region as the new world has it (number, line, fid)."""
        n, kind, i, fid, file, line, col, *rest = row
        if file == self.file and line >= self.end and self.lines:
            if fid == f"{kind}@{file}:{line}":
                fid = f"{kind}@{file}:{line + self.lines}"
            line += self.lines
        return (self.number(n), kind, i, fid, file, line, col, *rest)

    def stored(self, where: str, params: Sequence = ()) -> List[Tuple]:
        """The old ``_facts`` rows outside the region that ``where`` selects, moved (:meth:`moved`)."""
        rows = self.old.query(f"SELECT {S._FACT_COLS} FROM _facts WHERE {where} ORDER BY n", params)
        return [self.moved(r) for r in rows if not self.in_region(r[0])]

    def facts_of(self, kinds: Iterable[str]) -> List[Tuple[int, Fact]]:
        """Every statement of these kinds in the new world, with its number, in the world's order."""
        out: List[Tuple[int, Fact]] = []
        for kind in kinds:
            got = self._kinds.get(kind)
            if got is None:
                got = [(r[0], S.fact_from_row(r)) for r in self.stored("kind = ?", (kind,))]
                got += [(self.n0 + i, f) for i, f in enumerate(self.new) if f.kind == kind]
                got = self._kinds[kind] = sorted(got, key=lambda p: p[0])
            out += got
        return sorted(out, key=lambda p: p[0])

    def declared(self, kinds: Sequence[str], ident: str) -> Optional[Fact]:
        """The statement of one of ``kinds`` that declares ``ident`` in the new world, if any."""
        for i, f in enumerate(self.new):
            if f.kind in kinds and f.get("id") == ident:
                return f
        marks = ",".join("?" * len(kinds))
        rows = self.stored(f"fid IN ({marks})", [f"{k}:{ident}" for k in kinds])
        return S.fact_from_row(rows[0]) if rows else None


def read(old: "S.Stored", now: Dict[str, Any], strict: bool, top: Optional[Path]) -> Optional[Delta]:
    """The new world's one changed region, read and checked (``now``: its inputs, logic/store/key.py
    ``inputs``; ``top``: the world's folder, key.py ``top``), or None if only a whole load can say (see
    the module's docstring)."""
    was = json.loads(old.meta["inputs"])
    if now["listed"] != was.get("listed") or set(now["files"]) != set(was.get("files", {})):
        return None
    changed = [n for n, h in now["files"].items() if was["files"][n] != h]
    if len(changed) != 1 or (top is not None and old.meta.get("names") is None):
        return None
    inside = changed[0]
    name = _stored(top, old.meta.get("names"), inside)  # as the store's statements name it
    got = old.query("SELECT text FROM _texts WHERE file = ?", (name,))
    text = _text(top / inside if top is not None else Path(inside), now["files"][inside])
    if not got or text is None or _includes(got[0][0]) or _includes(text):
        return None
    delta = _region(old, name, got[0][0], text, strict)
    if delta is None or not 0 < delta.total <= MAX_STATEMENTS or not _resolves(delta) or not _checks(delta):
        return None
    return delta


def _text(path: Path, digest: str) -> Optional[str]:
    """The file's text if its bytes are still the ones hashed (``digest``), UTF-8, LF-ended, within the limit;
    a revision's file (``digest`` its blob id, ``git:OID``) read from the repository the process is in."""
    if digest.startswith("git:"):  # a blob is its id: what it holds cannot have changed
        try:
            data = git(["cat-file", "blob", digest[4:]], Path.cwd())
        except GitError:
            return None
        if len(data) > MAX_FILE_BYTES:
            return None
    else:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if len(data) > MAX_FILE_BYTES or hashlib.sha256(data).hexdigest() != digest:
            return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text[1:] if text.startswith("\ufeff") else text
    return None if "\r" in text else text


def texts(digests: Dict[str, str], top: Optional[Path]) -> Dict[str, str]:
    """Each file's text for a store written from here, by the name the loader gives it here (those still
    hashing to ``digests``: inputs' ``files``, by name inside the world ``top``; a revision's, ``top``
    None, by its ``REV:path``)."""
    out: Dict[str, str] = {}
    here = S.origin(top)
    for inside, digest in digests.items():
        got = _text(top / inside if top is not None else Path(inside), digest)
        if got is not None and not _includes(got):
            out[_stored(top, here, inside)] = got
    return out


def _stored(top: Optional[Path], origin: Optional[str], inside: str) -> str:
    """The store's name of a file (a revision's names itself: ``REV:path``, from anywhere)."""
    return inside if top is None else S.stored_name(top, origin, inside)


def _region(old: "S.Stored", name: str, before: str, after: str, strict: bool) -> Optional[Delta]:
    """Parse and check the lines of ``after`` that differ from ``before``, widened to whole statements."""
    a, b = before.split("\n"), after.split("\n")
    lo, hi, count = old.query("SELECT MIN(n), MAX(n), COUNT(*) FROM _facts WHERE file = ?", (name,))[0]
    if not count or hi - lo + 1 != count:
        return None  # no statement to stand on, or its statements are not one run (an include)
    p, s = kept_ends(a, b)
    # the statement holding the first changed line, and one before it; the first statement wholly after
    # the change, and one more (statements' first lines, by the index on (file, line))
    up = old.query("SELECT line FROM _facts WHERE file = ? AND line <= ? ORDER BY line DESC LIMIT 2", (name, p + 1))
    start = up[1][0] if len(up) == 2 else 1
    down = old.query("SELECT line FROM _facts WHERE file = ? AND line > ? ORDER BY line LIMIT 2", (name, len(a) - s))
    end = down[1][0] if len(down) == 2 else len(a) + 1
    lines = len(b) - len(a)
    was = old.query(f"SELECT {S._FACT_COLS} FROM _facts WHERE file = ? AND line >= ? AND line < ? ORDER BY n",
                    (name, start, end))
    if was:
        n0 = was[0][0]
    else:  # lines added between two statements: the region's statements take the next one's number
        (n0,) = old.query("SELECT MIN(n) FROM _facts WHERE file = ? AND line >= ?", (name, end))[0]
        n0 = hi + 1 if n0 is None else n0
    errs = _Collector()
    new = []
    for st in errs.parse("\n" * (start - 1) + "\n".join(b[start - 1:end - 1 + lines]), name):
        f = None if st.keyword == "include" else check_statement(st, errs, strict)
        if f is None or errs.diags:
            return None
        new.append(f)
    return None if errs.diags else Delta(old, name, start, end, lines, n0, was, new, after)


def _resolves(d: Delta) -> bool:
    """The region's ids are unique and its references resolve in the new world (facts/resolving.py's
    E110-E112, by lookups in the store); a declaration the region removes or retypes, or any error: False."""
    ns_of = {dcl.keyword: dcl.namespace for dcl in _Collector().language.decls.values() if dcl.declares}
    in_ns: Dict[str, List[str]] = {}
    for kw, ns in ns_of.items():
        in_ns.setdefault(ns, []).append(kw)
    gone = {(ns_of[f.kind], f["id"], f.kind) for f in map(S.fact_from_row, d.was) if f.kind in ns_of}
    come = [(ns_of[f.kind], f["id"], f.kind) for f in d.new if f.kind in ns_of]
    if gone - set(come) or len(set(come)) != len(come):
        return False  # an id the rest may name is gone, or one is declared twice in the region
    for ns, ident, kind in set(come) - gone:
        if d.stored(f"fid IN ({','.join('?' * len(in_ns[ns]))})", [f"{k}:{ident}" for k in in_ns[ns]]):
            return False  # declared outside the region too
    for f in d.new:
        for ident, allowed, _line, _col, _what in f.refs:
            ns = "node" if set(allowed) & set(NODE) else allowed[0]
            target = d.declared(in_ns.get(ns, [ns]), ident)
            if target is None or (ns == "node" and target.kind not in allowed):
                return False
        object.__setattr__(f, "refs", ())  # resolved (a loaded world keeps none)
    return True


def _checks(d: Delta) -> bool:
    """One statement per key for the kinds the region writes, every declaration's checks across its
    statements (over every statement of its kind: a check may look up a declaration the region
    changed), and citations per signal; any error: False."""
    errs = _Collector()
    decls = errs.language.decls
    kinds = {f.kind for f in d.new} | {r[1] for r in d.was}
    for kind in sorted(k for k in kinds if decls[k].unique is not None and k in {f.kind for f in d.new}):
        if not _check_once([f for _, f in d.facts_of([kind])], errs):
            return False
    for kind in sorted(k for k, dcl in decls.items() if dcl.across is not None):  # (they look up other kinds)
        def lookup(ns: str, ident: str) -> Optional[Fact]:
            return d.declared([k for k, dcl in decls.items() if dcl.declares and dcl.namespace == ns], ident)

        if any(True for _ in decls[kind].across([f for _, f in d.facts_of([kind])], lookup)):
            return False
    return _cites_within(d)


def _cites_within(d: Delta) -> bool:
    """No signal the region cites for goes past MAX_CITES_PER_SIGNAL (the store's ``cites`` rows hold
    each citation's statement number: one per ``cite``, one per ``src=`` entry of a signal)."""
    adds: Dict[str, int] = {}
    for f in d.new:
        sid, k = (f["signal"], 1) if f.kind == "cite" else (f["id"], len(f.src)) if f.kind == "signal" else (None, 0)
        if k:
            adds[sid] = adds.get(sid, 0) + k
    for sid, k in adds.items():
        kept = [n for (fs,) in d.old.query("SELECT _facts FROM cites WHERE signal = ?", (sid,))
                for n in S.decode(fs) if not d.in_region(n)]
        if len(kept) + k > MAX_CITES_PER_SIGNAL:
            return False
    return True


__all__ = ["Delta", "read", "texts"]
