"""A change not yet written: the world's files as they would read with some statements taken away or
one value set (issues 28, 38).

``provlog diff WORLD --without ID`` and ``--set ID KEY=VALUE`` ask what a change
would move before anyone edits a file. A what-if *is* the edited file: as the
loader reads each file of the world, :class:`Rewrite` writes the change into
its text (a statement taken away is blanked, its lines kept, so every other
statement stays at its line; a value is written where the statement writes it,
or added at its end), and the loader reads that text as it reads any file.
So the errors and the difference are exactly those of writing the edit into
the file: a signal renamed while cites still name it is E110 at each cite, a
value the fact language refuses is the loader's error at the statement's
``file:line:col``.

    >>> edit = Rewrite(without=["src-blog"], sets=[("sg1", "status=differs")])   # doctest: +SKIP
    >>> facts = load_world("w", rewrite=edit)                                     # doctest: +SKIP
    >>> edit.check()                                                              # doctest: +SKIP

What ``--without`` takes away: a source, with every ``cite`` of it and its id
in every ``src=`` list (the document is gone, so are its citations; an emptied
``src=`` goes); a signal, with its cites; any other statement by its id
(``stake@w/a.facts:12`` or a declared id), alone. A ``--set`` value is one
attribute value (a word, a "string", or a comma list of them): anything the
fact language would not read back as exactly that (a line end, a ``#``, an
unclosed quote, a space outside quotes, a second ``=``) is refused before any
file is read, E104 at ``--set:N:COL`` (the Nth ``--set``, the column in its
KEY=VALUE).
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..grammar import Pair, parse_text
from ..grammar.parser import Arg, RawStatement, tokens
from .errors import Diagnostic, LoadError
from .language import LANGUAGE
from .model import Fact

#: the words after a statement's positional fields, by name (``--set sg1 bound=3``)
TAIL = {"signal": ("kind", "bound"), "cite": ("span",)}
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_FID = re.compile(r"(?P<kind>[A-Za-z][A-Za-z0-9-]*)@(?P<file>.+):(?P<line>[0-9]+)\Z")
_WORDS = re.compile(r'[^\s"=,#]+')
_LINE_END = re.compile(r"\r\n?|\n")


class WhatIfError(LoadError):
    """A what-if that names nothing, or that the fact language refuses (exit 1, located)."""


def _refuse(n: int, col: int, assignment: str, message: str) -> WhatIfError:
    return WhatIfError([Diagnostic("--set", n, col, "E104", message, assignment)])


def checked_set(n: int, assignment: str) -> Tuple[str, str]:
    """``(key, value)`` of the ``n``-th ``--set``'s KEY=VALUE, or WhatIfError (E104 at ``--set:n:col``)
    where the value is not one attribute value as the fact language reads it.

        >>> checked_set(1, "status=unaudited")
        ('status', 'unaudited')
        >>> checked_set(2, "status=unaudited source evil")
        Traceback (most recent call last):
        provlog.facts.whatif.WhatIfError: 1 error in world
        --set:2:17: a --set value is one value: ' ' ends it here, and the rest would be read as more of the statement; quote a text value ("...") [E104]
    """
    key, eq, value = assignment.partition("=")
    if not eq or not _KEY.match(key):
        raise _refuse(n, 1, assignment, f"--set takes ID KEY=VALUE (KEY a name such as status), got {assignment!r}")
    base = len(key) + 2  # the column of the value's first character
    for i, ch in enumerate(value):
        if ch in "\r\n":
            raise _refuse(n, base + i, assignment, "a --set value is one value on one line: a line end here would "
                                                   "start a new statement")
    if not value:
        raise _refuse(n, base, assignment, f"--set {key}= needs a value after the =")
    atom = True  # an atom is expected next (a word or a string), else a comma
    for kind, start, tok in tokens(value):
        ok = kind in ("WORD", "STRING") if atom else kind == "COMMA"
        if not ok:
            what = {"COMMENT": "'#' starts a comment: the rest would be cut off",
                    "WS": f"{tok[0]!r} ends it here, and the rest would be read as more of the statement; "
                          "quote a text value (\"...\")",
                    "KEY": f"{tok!r} would be read as another attribute",
                    "EQ": "'=' would be read as another attribute",
                    "COMMA": "a comma needs a value on each side",
                    "ERR": "this character does not read back (an unclosed quote, or a character the fact "
                           "language refuses)"}.get(kind, f"{tok!r} is not part of a value")
            raise _refuse(n, base + start, assignment, f"a --set value is one value: {what}")
        atom = not atom
    if atom:
        raise _refuse(n, base + len(value) - 1, assignment, "a --set value is one value: a comma needs a value after it")
    return key, value


class Rewrite:
    """The what-if's edit, made to each file's text as the loader reads it (``load_world(...,
    rewrite=edit)`` calls ``edit(name, text)``); :meth:`check` then says what it named that no
    statement is. ``edited``: (file, line) -> the fact id the statement there had, for each
    statement taken away or rewritten."""

    def __init__(self, without: Sequence[str] = (), sets: Sequence[Tuple[str, str]] = ()):
        self.without = list(without)
        self.sets = [(ident, *checked_set(n, a)) for n, (ident, a) in enumerate(sets, 1)]
        self._gone_ids = {i for i in self.without if not _FID.match(i)}
        self._gone_fids = {i for i in self.without if _FID.match(i)}
        self._set_at: Dict[str, List[Tuple[str, str]]] = {}
        for ident, key, value in self.sets:
            self._set_at.setdefault(ident, []).append((key, value))
        named = set(self.without) | set(self._set_at)
        self._words = {i for i in named if not _FID.match(i)}
        self._files = {_FID.match(i).group("file") for i in named if _FID.match(i)}
        self.found: Dict[Tuple[str, str], int] = {}  # (flag, id) -> statements it matched
        self.edited: Dict[Tuple[str, int], str] = {}

    # -- the edit of one file --------------------------------------------------------------------
    def __call__(self, name: str, text: str) -> str:
        if name not in self._files and self._words.isdisjoint(_WORDS.findall(text)):
            return text  # no statement here can be named (one pass over the file's words)
        stmts, _ = parse_text(text, name)
        lines = _lines(text)
        spans: Dict[Tuple[int, int], str] = {}
        for st in stmts:
            decl = LANGUAGE.decls.get(st.keyword)
            if decl is None or st.keyword == "include":
                continue
            args = st.args
            sid = args[0].value if decl.declares and args and not args[0].quoted else None
            fid = f"{st.keyword}:{sid}" if sid is not None else f"{st.keyword}@{name}:{st.line}"
            asked = [i for i in (sid, fid) if i is not None]
            target = [i for i in asked if i in self._gone_ids or i in self._gone_fids]
            cite_of = st.keyword == "cite" and any(not a.quoted and a.value in self._gone_ids for a in args[:2])
            if target or cite_of:
                for i in target:
                    self.found[("--without", i)] = self.found.get(("--without", i), 0) + 1
                self.edited[(name, st.line)] = fid
                for ln in range(st.line, _last_line(st) + 1):  # blanked, its lines kept
                    spans[lines[ln - 1]] = ""
                continue
            mine: Dict[Tuple[int, int], str] = {}
            added: Dict[str, str] = {}
            for p in (i for i in st.items if isinstance(i, Pair) and i.key == "src"):
                kept = [v for v in p.values if v.quoted or v.value not in self._gone_ids]
                if len(kept) != len(p.values):
                    mine[_span(lines, text, p)] = (f"src={','.join(_written(lines, text, v) for v in kept)}"
                                                   if kept else "")
            for i in asked:
                for key, value in self._set_at.get(i, ()):
                    self.found[("--set", i)] = self.found.get(("--set", i), 0) + 1
                    where = _place(st, decl, key)
                    if where is not None:
                        mine[_span(lines, text, where)] = value if isinstance(where, Arg) else f"{key}={value}"
                    else:
                        added[key] = f"{key}={value}"
            if added:
                last = st.items[-1] if st.items else None
                at = _span(lines, text, last)[1] if last is not None else _offset(lines, st.line, st.col) + len(st.keyword)
                mine[(at, at)] = "".join(f" {a}" for a in added.values())
            if mine:
                self.edited[(name, st.line)] = fid
                spans.update(mine)
        out = text
        for (start, end), repl in sorted(spans.items(), reverse=True):
            if repl == "" and start > 0 and out[start - 1] in " \t" and end < len(out) and out[end:end + 1] not in "\r\n":
                start -= 1  # an item taken out of a line takes the space before it
            out = out[:start] + repl + out[end:]
        return out

    def check(self) -> None:
        """WhatIfError (E110) for each ``--without`` or ``--set`` that named no statement of the world."""
        errs = []
        for what, idents in (("--without", self.without), ("--set", [i for i, _, _ in self.sets])):
            for n, ident in enumerate(idents, 1):
                if not self.found.get((what, ident)):
                    errs.append(Diagnostic(what, n, 1, "E110", f"{ident!r} names no statement of the world; give a "
                                                               f"declared id (a source, signal, org, ...) or a "
                                                               f"statement's id kind@file:line"))
        if errs:
            raise WhatIfError(errs)

    def delta(self, old_by_fid, new: Sequence[Fact]) -> Optional[Tuple[List[Fact], List[Fact]]]:
        """(removed, added): the old world's statements the edit changed or took away, and what they read
        as now; None if an old statement is not found by its id (the caller compares the worlds whole)."""
        now = {(f.loc.file, f.loc.line): f for f in new if (f.loc.file, f.loc.line) in self.edited}
        removed, added = [], []
        for at, fid in self.edited.items():
            was = old_by_fid.get(fid)
            if was is None:
                return None
            got = now.get(at)
            if got is None or got.canon() != was.canon():
                removed.append(was)
                if got is not None:
                    added.append(got)
        return removed, added


# -- where a statement's items stand in its file's text ------------------------------------------------
def _lines(text: str) -> List[Tuple[int, int]]:
    """Each line's (start, end) offsets in ``text``, its line end left out (as the parser numbers lines)."""
    out, start = [], 0
    for m in _LINE_END.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def _offset(lines, line: int, col: int) -> int:
    return lines[line - 1][0] + col - 1


def _end(lines, text: str, a: Arg) -> int:
    """Where the token ``a`` ends (a word, or a string up to its closing quote)."""
    start = _offset(lines, a.line, a.col)
    _, _, tok = next(tokens(text[start:lines[a.line - 1][1]]))
    return start + len(tok)


def _span(lines, text: str, item) -> Tuple[int, int]:
    """An item's (start, end) offsets: a word or string, or a pair from its key to its last value."""
    if isinstance(item, Pair):
        return _offset(lines, item.line, item.col), _end(lines, text, item.values[-1])
    return _offset(lines, item.line, item.col), _end(lines, text, item)


def _written(lines, text: str, a: Arg) -> str:
    start, end = _span(lines, text, a)
    return text[start:end]


def _last_line(st: RawStatement) -> int:
    last = st.line
    for i in st.items:
        last = max(last, i.line, *(v.line for v in getattr(i, "values", ())))
    return last


def _place(st: RawStatement, decl, key: str):
    """The item ``key`` is written in: its pair, its positional word, or its tail word; None if the
    statement does not write it (it is then added at the end)."""
    pairs = [i for i in st.items if isinstance(i, Pair) and i.key == key]
    if pairs:
        return pairs[0]
    words = st.args
    names = [f.name for f in decl.positional]
    if key in names and names.index(key) < len(words):
        return words[names.index(key)]
    tail = [w for w in words[len(names):] if w.quoted or w.value not in decl.flags]
    if key in TAIL.get(st.keyword, ()) and TAIL[st.keyword].index(key) < len(tail):
        return tail[TAIL[st.keyword].index(key)]
    return None
