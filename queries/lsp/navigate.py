"""Ids in a live world's text: where each is declared and named (every file), the id at a place,
document and workspace symbols, and a rename as the edits that keep the world loading.

An occurrence is ``(name, line, col, ident, namespace, declares)``: the file's name, the 1-based
line and column of the id, the namespace it lives in (``node`` for labs, orgs, entities and
persons; ``source``, ``signal``, ``preset``), and whether it is the declaration.

    >>> ix = Index(snapshot)                              # doctest: +SKIP
    >>> ix.at("signals.facts", 3, 9)                      # doctest: +SKIP
    Occurrence(name='signals.facts', line=3, col=8, ident='s1', ns='signal', declares=False)
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Tuple

from ...facts import schema as S
from ...facts.language import LANGUAGE
from ...facts.live import Snapshot
from ...facts.values import IDENT

NS_OF = {d.keyword: d.namespace for d in LANGUAGE.decls.values() if d.declares}


class Occurrence(NamedTuple):
    name: str
    line: int
    col: int
    ident: str
    ns: str
    declares: bool

    @property
    def end(self) -> int:
        return self.col + len(self.ident)


def _ns(kinds: Tuple[str, ...]) -> str:
    return "node" if set(kinds) & set(S.NODE) else kinds[0]


class Index:
    """Every id of a snapshot, declared and named, by file and by (namespace, id)."""

    def __init__(self, snap: Snapshot):
        self.snap = snap
        self.by_file: Dict[str, List[Occurrence]] = {}
        self.by_id: Dict[Tuple[str, str], List[Occurrence]] = {}
        self.decl: Dict[Tuple[str, str], object] = {}  # (ns, id) -> its declaring Fact (the first)
        for name, b in snap.blocks():
            lines = snap.lines(name)
            for f in b.facts:
                ns = NS_OF.get(f.kind)
                if ns is not None:
                    line = lines[f.loc.line - 1] if f.loc.line <= len(lines) else ""
                    col = _find_word(line, f["id"], f.loc.col - 1 + len(f.kind)) + 1
                    if col > 0:
                        self._add(Occurrence(name, f.loc.line, col, f["id"], ns, True))
                    self.decl.setdefault((ns, f["id"]), f)
            for file, (ident, kinds, line, col, _) in b.refs + b.refused:
                self._add(Occurrence(name, line, col, ident, _ns(kinds), False))
        for occs in self.by_file.values():
            occs.sort(key=lambda o: (o.line, o.col))

    def _add(self, o: Occurrence) -> None:
        self.by_file.setdefault(o.name, []).append(o)
        self.by_id.setdefault((o.ns, o.ident), []).append(o)

    def at(self, name: str, line: int, col: int) -> Optional[Occurrence]:
        """The id at a 1-based line and column (the character under the cursor, or just after it)."""
        for o in self.by_file.get(name, ()):
            if o.line == line and o.col <= col <= o.end:
                return o
        return None

    def definition(self, o: Occurrence) -> Optional[Occurrence]:
        return next((x for x in self.by_id.get((o.ns, o.ident), ()) if x.declares), None)

    def references(self, o: Occurrence, declaration: bool = True) -> List[Occurrence]:
        return [x for x in self.by_id.get((o.ns, o.ident), ()) if declaration or not x.declares]

    def symbols(self, name: Optional[str] = None, query: str = "") -> List[Tuple[Occurrence, str]]:
        """The declarations (of one file, or of the world whose id holds ``query``), with their kind."""
        out = []
        for key, f in self.decl.items():
            for o in self.by_id.get(key, ()):
                if o.declares and (name is None or o.name == name) and query.lower() in o.ident.lower():
                    out.append((o, f.kind))
        return sorted(out, key=lambda p: (p[0].name, p[0].line))

    def ids(self, kinds: Tuple[str, ...]) -> List[Tuple[str, str]]:
        """``(id, kind)`` of every declaration of one of ``kinds``."""
        return sorted((ident, f.kind) for (ns, ident), f in self.decl.items() if f.kind in kinds)

    def rename(self, o: Occurrence, new: str) -> Dict[str, List[Tuple[int, int, int]]]:
        """The edits that rename ``o``'s id to ``new`` everywhere: ``{name: [(line, col, end col)]}``.
        ValueError when ``new`` is not an id, or already names something in its namespace (the world
        would no longer load)."""
        if not IDENT.fullmatch(new):
            raise ValueError(f"{new!r} is not an id (lowercase letters and digits, then also '_', '.', '-')")
        if (o.ns, new) in self.decl and new != o.ident:
            raise ValueError(f"{new!r} is already declared, at {self.decl[(o.ns, new)].loc}")
        edits: Dict[str, List[Tuple[int, int, int]]] = {}
        for x in self.references(o):
            edits.setdefault(x.name, []).append((x.line, x.col, x.end))
        return edits


def _find_word(line: str, word: str, start: int) -> int:
    """Where ``word`` stands alone in ``line`` at or after ``start`` (0-based), or -1."""
    i = line.find(word, max(start, 0))
    while i >= 0:
        before = line[i - 1] if i > 0 else " "
        after = line[i + len(word)] if i + len(word) < len(line) else " "
        if before in " \t\f" and after in " \t\f#":
            return i
        i = line.find(word, i + 1)
    return -1
