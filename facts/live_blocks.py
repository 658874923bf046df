"""One file of a live world (facts/live.py) as blocks: a block is the lines of one statement (its
first line, at column 1, and the indented lines that continue it, with the comments and blank lines
between), checked alone. When the file's text changes, only the blocks that hold changed lines
(and the block before them) are parsed and checked again; the blocks after them keep their facts,
moved by the lines added or removed.

A block parses alone as it parses in its file: the parser starts a statement at every line whose
first character is not a space, tab, form feed or ``#`` (grammar/parser.py), so nothing before a
block's first line reaches into it.

    >>> f = LiveFile("w.facts")
    >>> removed, added = f.update('lab acme "Acme AI"\\norg e "E" type=nonprofit\\n')
    >>> [b.facts[0].fid for b in f.blocks if b.facts]
    ['lab:acme', 'org:e']
    >>> removed, added = f.update('lab acme "Acme AI"\\norg e "E" type=pbc\\n')
    >>> len(removed), len(added), f.blocks[1].facts[0]["type"]
    (2, 2, 'pbc')
"""
from __future__ import annotations

import bisect
from typing import List, Optional, Set, Tuple

from ..grammar import parse_text
from ..grammar.parser import paused_gc, source_lines
from . import schema as S
from .checking import _check_items, _note_attempt, check_statement
from .collector import _Collector
from .errors import Diagnostic
from .model import Fact, Loc

#: an include a block makes: (path as written, file, line, col of the path)
Include = Tuple[str, str, int, int]


def kept_ends(old, new):
    """(p, s): how many lines ``old`` and ``new`` share at their start, and then at their end; the lines
    between are the changed run.

    >>> kept_ends(["a", "b", "c"], ["a", "x", "c"])
    (1, 1)
    """
    p, m = 0, min(len(old), len(new))
    while p < m and old[p] == new[p]:
        p += 1
    s = 0
    while s < m - p and old[-1 - s] == new[-1 - s]:
        s += 1
    return p, s


class Block:
    """Lines ``start`` to ``end - 1`` of a file: the facts they state, with the references each makes
    (kept: facts/live_index.py resolves them again after every change), the errors found in them,
    the references of statements refused (still checked), the ids broken declarations meant, and
    the includes."""

    __slots__ = ("start", "end", "facts", "refs", "diags", "refused", "attempted", "includes")

    def __init__(self, start: int, end: int):
        self.start, self.end = start, end
        self.facts: List[Fact] = []
        self.refs: List[Tuple] = []  # (file, (id, kinds, line, col, what)), as resolving.py reads them
        self.diags: List[Diagnostic] = []
        self.refused: List[Tuple] = []
        self.attempted: Set[str] = set()
        self.includes: List[Include] = []

    def moved(self, d: int) -> "Block":
        """This block ``d`` lines further down (lines were added or removed above it)."""
        b = Block(self.start + d, self.end + d)
        b.facts = [_moved_fact(f, d) for f in self.facts]
        b.refs = [(file, _moved_ref(r, d)) for file, r in self.refs]
        b.refused = [(file, _moved_ref(r, d)) for file, r in self.refused]
        b.diags = [Diagnostic(x.file, x.line + d, x.col, x.code, x.message, x.source_line) for x in self.diags]
        b.attempted = self.attempted
        b.includes = [(p, file, line + d, col) for p, file, line, col in self.includes]
        return b


def _moved_ref(r: Tuple, d: int) -> Tuple:
    ident, kinds, line, col, what = r
    return (ident, kinds, line + d, col, what)


def _moved_fact(f: Fact, d: int) -> Fact:
    return Fact(f.kind, f._values, Loc(f.loc.file, f.loc.line + d, f.loc.col), f.flags, f.src, f.span,
                tuple(_moved_ref(r, d) for r in f.refs))


def _starts(line: str) -> bool:
    """Whether a physical line starts a statement (its first character is a token's)."""
    return bool(line) and line[0] not in " \t\f#"


class LiveFile:
    """A file of a live world: its name (as diagnostics show it), its lines and its blocks."""

    def __init__(self, name: str, strict: bool = False, language: Optional[S.Language] = None,
                 lines: Optional[dict] = None):
        self.name = name
        self.strict = strict
        self.errs = _Collector(language)  # carets read the file's lines from it
        if lines is not None:
            self.errs.lines = lines  # every file's lines, shared with the world's index
        self.text: Optional[str] = None
        self.lines: List[str] = []
        self.blocks: List[Block] = []

    def update(self, text: str) -> Tuple[List[Block], List[Block]]:
        """Take the file's new text; ``(removed, added)``: the blocks gone and the blocks new (a block
        only moved counts as both)."""
        if text == self.text:
            return [], []
        new = source_lines(text)
        old, blocks = self.lines, self.blocks
        self.text, self.lines = text, new
        self.errs.lines[self.name] = new
        if not blocks:
            self.blocks = self._read(1, len(new) + 1)
            return [], list(self.blocks)
        p, s = kept_ends(old, new)
        d = len(new) - len(old)
        starts = [b.start for b in blocks]
        i = max(bisect.bisect_right(starts, max(1, p)) - 1, 0)  # the block of the last line kept above
        # the block of the last line changed (an indented line kept below it is in that block too)
        j = max(bisect.bisect_right(starts, max(1, len(old) - s)) - 1, i)
        lo, hi = blocks[i].start, blocks[j].end + d
        read = self._read(lo, hi)
        below = [b.moved(d) for b in blocks[j + 1:]] if d else blocks[j + 1:]
        self.blocks = blocks[:i] + read + below
        removed = blocks[i:j + 1] + (blocks[j + 1:] if d else [])
        return removed, read + (below if d else [])

    def clear(self) -> List[Block]:
        """Forget the text (the file cannot be read); the blocks it had."""
        gone, self.blocks, self.text, self.lines = self.blocks, [], None, []
        self.errs.lines[self.name] = []
        return gone

    def _read(self, lo: int, hi: int) -> List[Block]:
        """Parse and check lines ``lo`` to ``hi - 1`` into blocks."""
        lines = self.lines
        starts = [n for n in range(lo, hi) if _starts(lines[n - 1])]
        if not starts or starts[0] != lo:
            starts.insert(0, lo)
        out = [Block(a, b) for a, b in zip(starts, starts[1:] + [hi])]
        errs = self.errs
        with paused_gc():
            stmts, perrs = parse_text("\n".join(lines[lo - 1:hi - 1]), self.name, lo)
            for pe in perrs:
                out[bisect.bisect_right(starts, pe.line) - 1].diags.append(
                    Diagnostic(pe.file, pe.line, pe.col, "E100", pe.message, errs.line(pe.file, pe.line)))
            for st in stmts:
                b = out[bisect.bisect_right(starts, st.line) - 1]
                errs.diags, errs.refused_refs = b.diags, b.refused
                if st.keyword == "include":
                    self._include(st, b)
                    continue
                f = check_statement(st, errs, self.strict)
                if f is not None:
                    b.facts.append(f)
                    b.refs.extend((st.file, r) for r in f.refs)
                else:
                    _note_attempt(st, b.attempted, errs)
        errs.diags, errs.refused_refs = [], []
        return out

    def _include(self, st, b: Block) -> None:
        vals = _check_items(st, self.errs.language.decls["include"], self.errs)
        if vals is not None:
            arg = st.args[0]  # an include's errors stand under its path
            b.includes.append((vals[0]["path"], st.file, arg.line, arg.col))
