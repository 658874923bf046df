"""Parse fact-language text into raw statements, reporting every syntax error.

The grammar (facts.lark) only knows the shape of a statement: a keyword and
its items. Meaning (which keyword takes which arguments) is checked later by
:mod:`provlog.facts.schema`, which needs each item's line and column, so the
parser keeps them on every item.

The tokens are the terminals of facts.lark, compiled into one scanner; the
statement shape (``statement: WORD item*``, ``pair: KEY atom ("," atom)*``)
is read by a small line-oriented state machine rather than Lark's LALR
driver. That keeps parsing linear and about ten times faster (the LALR driver
took most of a minute over a 100k-statement world), and it makes
error recovery exact: statements are line-based, so an error costs the rest
of its physical line and nothing else, and every line of a file is still
read and checked. :func:`provlog.grammar.oracle.parse_text_lark` runs the same grammar through
Lark's LALR parser; the tests use it as an oracle on well-formed input.
"""
from __future__ import annotations

import gc
import re
import sys
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Pattern, Tuple, Union

from ..errors import ProvlogError


@dataclass(frozen=True)
class Arg:
    """A bare word or a quoted string, with where it stands."""

    value: str
    quoted: bool
    line: int
    col: int


@dataclass(frozen=True)
class Pair:
    """A ``key=value[,value...]`` attribute."""

    key: str
    values: Tuple[Arg, ...]
    line: int
    col: int


@dataclass(frozen=True)
class Eq:
    """A lone ``=`` (as in ``expect org F = 3``)."""

    line: int
    col: int


Item = Union[Arg, Pair, Eq]


@dataclass
class RawStatement:
    """One statement as written: keyword plus items, before any checking."""

    keyword: str
    file: str
    line: int
    col: int
    items: List[Item] = field(default_factory=list)
    text: str = ""  # the statement's first source line, for error carets

    @property
    def args(self) -> List[Arg]:
        """The bare words and strings, in order (attributes and ``=`` left out)."""
        return [i for i in self.items if isinstance(i, Arg)]


class ParseError(ProvlogError):
    """A syntax error at ``file:line:col``. :func:`parse_text` returns them (every one of a
    file, to be reported together); raise one to stop at the first."""

    def __init__(self, file: str, line: int, col: int, message: str):
        super().__init__(f"{file}:{line}:{col}: {message}")
        self.file, self.line, self.col, self.message = file, line, col, message

    def __eq__(self, other):
        return isinstance(other, ParseError) and self.args == other.args

    def __hash__(self):
        return hash(self.args)


def _unescape(s: str) -> str:
    """The body of a quoted string, each ``\\x`` read as ``x``. In C, by str methods (a loop over
    the characters cost a list of one-character strings as long as the string): a run of
    backslashes pairs up from its left, so each ``\\\\`` is one backslash, and every backslash
    left over escapes a character that is not one, so it is simply dropped.

        >>> _unescape(r'"a\\b\\\\c\\\\\\"d"')
        'ab\\\\c\\\\"d'
    """
    body = s[1:-1]
    if "\\" not in body:
        return body
    return "\\".join(part.replace("\\", "") for part in body.split("\\\\"))


# -- the grammar ------------------------------------------------------------------------------

# Scanner order: layout first, then the terminals in Lark's own precedence
# (KEY before WORD: `type=vc` is the key `type=`, never the word `type`).
_ORDER = ("WS", "COMMENT", "STRING", "KEY", "WORD", "EQ", "COMMA")
_SCANNER: Optional[Pattern[str]] = None

# STRING and WORD are read by hand (_string_end, _word_end) from where the scanner finds their
# first character. As regexes they repeat a group once per character, and Python's re keeps
# backtracking state for every repetition of a group: about 110 bytes a character, so a 20 MB
# string cost 4 GB (issue 31, item 10). These are facts.lark's two terminals, checked below.
_HAND_READ = {"STRING": '"(?:[^"\\\\\r\n]|\\\\.)*"', "WORD": r'(?:>=|[^\s"=,#])+'}
_STARTS = {"STRING": '"', "WORD": r'[^\s"=,#]+'}
_WORD_CHARS = re.compile(r'[^\s"=,#]*')


def _scanner() -> Pattern[str]:
    global _SCANNER
    if _SCANNER is None:
        from .lark_facts import lark_parser  # Lark, only to read facts.lark's terminals (once, on the first parse)

        terms = {t.name: t.pattern.to_regexp() for t in lark_parser().terminals}
        missing = [n for n in _ORDER if n not in terms]
        if missing:  # pragma: no cover - facts.lark and this file disagree
            raise RuntimeError(f"facts.lark lacks terminals {missing}")
        changed = [n for n, rx in _HAND_READ.items() if terms[n] != rx]
        if changed:  # pragma: no cover - facts.lark changed a terminal this file reads by hand
            raise RuntimeError(f"facts.lark's {changed} differ from what grammar/parser.py reads by hand")
        terms.update(_STARTS)
        # ERR takes any other character, so that the scan never stalls: it is the place of an error.
        _SCANNER = re.compile("|".join(f"(?P<{n}>{terms[n]})" for n in _ORDER) + "|(?P<ERR>.)")
    return _SCANNER


def _string_end(line: str, pos: int) -> Optional[int]:
    """Where the string opened at ``line[pos]`` ends (after its closing quote); None if unterminated.
    STRING of facts.lark: ``"`` (any character but ``"``, ``\\`` or a line end | ``\\`` and any one) ``"``:
    the first ``"`` after an even run of backslashes closes it (a line holds no line end)."""
    j = pos
    while True:
        j = line.find('"', j + 1)
        if j < 0:
            return None
        k = j
        while line[k - 1] == "\\":  # stops at line[pos], the opening quote
            k -= 1
        if (j - k) % 2 == 0:
            return j + 1


def _word_end(line: str, end: int) -> int:
    """Where the word whose first run of word characters ends at ``end`` ends: WORD of facts.lark
    (``>=`` or any character but space, ``"``, ``=``, ``,``, ``#``) takes an ``=`` only after ``>``."""
    while end < len(line) and line[end] == "=" and line[end - 1] == ">":
        end = _WORD_CHARS.match(line, end + 1).end()  # type: ignore[union-attr]
    return end


def tokens(line: str) -> Iterator[Tuple[str, int, str]]:
    """The tokens of one physical line: (terminal name, 0-based start, text); a ``"`` that opens no
    string is ``ERR`` (its place is the error's). Memory beyond the line is constant per token."""
    match, pos = _scanner().match, 0
    while pos < len(line):
        m = match(line, pos)
        kind, end = m.lastgroup, m.end()  # type: ignore[union-attr]
        if kind == "STRING":
            closed = _string_end(line, pos)
            kind, end = ("STRING", closed) if closed is not None else ("ERR", pos + 1)
        elif kind == "WORD":
            end = _word_end(line, end)
        yield kind, pos, line[pos:end]  # type: ignore[misc]
        pos = end


# -- the parser -------------------------------------------------------------------------------

def _char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    code = f"U+{ord(ch):04X}"
    return f"{code} {name}" if name else code


def _bad_char(line: str, pos: int) -> str:
    ch = line[pos]
    if ch == '"':
        rest = line[pos + 1:]
        hint = ' (\\" inside a string does not close it)' if '\\"' in rest else ""
        return f'unterminated string: a string closes with " on the same line{hint}'
    if ch.isspace():
        return (f"unexpected {_char_name(ch)}: only spaces and tabs separate items, and a statement "
                "ends at the end of its line")
    if not ch.isprintable():
        return f"unexpected control character {_char_name(ch)}"
    return f"unexpected character {ch!r} ({_char_name(ch)})"  # pragma: no cover - WORD takes the rest


_LINE_END = re.compile(r"\r\n?|\n")


def source_lines(text: str) -> List[str]:
    """The physical lines of ``text`` as the parser numbers them: LF, CRLF and a lone CR
    (old Mac files) each end a line, so a ``#`` comment never runs past its line.

        >>> source_lines("# a\\rlab x 'X'\\r\\nlab y 'Y'\\n")
        ['# a', "lab x 'X'", "lab y 'Y'", '']
    """
    return _LINE_END.split(text) if "\r" in text else text.split("\n")


@contextmanager
def paused_gc():
    """Pause the cyclic garbage collector while a world's many small objects are
    built: they hold no cycles, and collecting while they pile up cost a fifth of the load."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def parse_text(text: str, file: str, first_line: int = 1) -> Tuple[List[RawStatement], List[ParseError]]:
    """Parse ``text`` (the contents of ``file``) into raw statements.

    Returns the statements and every syntax error found (the first of each
    physical line; the rest of that line is skipped). A statement with a
    syntax error is dropped, and the caller refuses the whole world when
    there is any error, so dropping it never loses data silently.
    ``first_line``: the number of the text's first line (facts/live.py parses a file's changed
    statements alone, numbered where they stand).
    """
    with paused_gc():
        return _parse(text, file, first_line)


def _parse(text: str, file: str, first_line: int = 1) -> Tuple[List[RawStatement], List[ParseError]]:
    p = _FileParse(file)
    for lineno, line in enumerate(source_lines(text), first_line):
        first = True
        err: Optional[Tuple[int, int, str]] = None
        for kind, start, tok in tokens(line):
            if kind == "WS":
                continue
            if kind == "COMMENT":
                break
            col = start + 1
            if first:
                first = False
                if col == 1 or p.st is None:  # a new statement (an indented line continues the one above)
                    err = p.start(kind, tok, line, lineno, col)
                    if err is not None:
                        break
                    continue
            err = p.token(kind, tok, line, lineno, col)
            if err is not None:
                break
        if err is not None:  # report it, drop the statement, skip the rest of the line
            p.errors.append(ParseError(file, *err))
            p.bad, p.key, p.comma = True, None, None
    p.end_statement()
    p.errors.sort(key=lambda e: (e.line, e.col))
    return p.stmts, p.errors


class _FileParse:
    """One file's parse: the statements read and the errors found so far; the statement being read
    (``st``, across its continuation lines; ``bad`` once it had an error) and its open attribute
    (``key``: (name, line, col), ``vals``: the values read, ``comma``: a ',' (line, col) waiting
    for a value). An error is ``(line, col, message)``."""

    __slots__ = ("file", "stmts", "errors", "st", "bad", "key", "vals", "comma")

    def __init__(self, file: str):
        self.file = file
        self.stmts: List[RawStatement] = []
        self.errors: List[ParseError] = []
        self.st: Optional[RawStatement] = None
        self.bad = False
        self.key: Optional[Tuple[str, int, int]] = None
        self.vals: List[Arg] = []
        self.comma: Optional[Tuple[int, int]] = None

    def close_pair(self) -> Optional[Tuple[int, int, str]]:
        """Close the open attribute into the statement; the error if it cannot close."""
        k, self.key = self.key, None
        if k is None:
            return None
        if self.comma is not None:
            return (self.comma[0], self.comma[1], f"a ',' in {k[0]}= must be followed by another value")
        if not self.vals:
            return (k[1], k[2], f"attribute {k[0]}= has no value: write {k[0]}=<value>")
        if not self.bad:
            self.st.items.append(Pair(k[0], tuple(self.vals), k[1], k[2]))  # type: ignore[union-attr]
        return None

    def end_statement(self) -> None:
        err = self.close_pair()
        if err is not None:
            self.errors.append(ParseError(self.file, *err))
        elif self.st is not None and not self.bad:
            self.stmts.append(self.st)

    def start(self, kind: str, tok: str, line: str, lineno: int, col: int) -> Optional[Tuple[int, int, str]]:
        """A line's first token at column 1 (or with no statement open) starts a statement: its
        keyword, else the error."""
        self.end_statement()
        self.st, self.bad = RawStatement(sys.intern(tok), self.file, lineno, col, text=line), False
        if kind == "WORD":
            return None
        if kind == "ERR":
            return (lineno, col, _bad_char(line, col - 1))
        what = {"STRING": "a string", "KEY": repr(tok), "EQ": "'='", "COMMA": "','"}[kind]
        hint = "; a lone '=' belongs in `expect <org> <dim> = <n>`" if kind == "EQ" else ""
        return (lineno, col, f"a statement starts with a keyword, not {what}{hint}")

    def token(self, kind: str, tok: str, line: str, lineno: int, col: int) -> Optional[Tuple[int, int, str]]:
        """Any other token of the statement: None once it is read, else the error that ends the line."""
        if kind == "WORD" or kind == "STRING":
            if kind == "WORD":
                arg = Arg(sys.intern(tok), False, lineno, col)  # ids recur: one string each
            else:
                arg = Arg(_unescape(tok) if "\\" in tok else tok[1:-1], True, lineno, col)
            if self.key is not None and (not self.vals or self.comma is not None):
                self.vals.append(arg)
                self.comma = None
                return None
            err = self.close_pair()
            if err is None and not self.bad:
                self.st.items.append(arg)  # type: ignore[union-attr]
            return err
        if kind == "KEY":
            err = self.close_pair()
            if err is None:
                self.key, self.vals, self.comma = (tok[:-1], lineno, col), [], None
            return err
        if kind == "EQ":
            err = self.close_pair()
            if err is None and not self.bad:
                self.st.items.append(Eq(lineno, col))  # type: ignore[union-attr]
            return err
        if kind == "COMMA":
            if self.key is not None and self.vals and self.comma is None:
                self.comma = (lineno, col)
                return None
            return self.close_pair() or (  # `key=,` or `key=a,,b`; or a comma outside an attribute
                lineno, col, "unexpected ',': a comma separates the values of one attribute, as in src=a,b")
        return (lineno, col, _bad_char(line, col - 1))  # ERR
