"""Parse fact-language text into raw statements, reporting every syntax error.

The grammar (facts.lark) only knows the shape of a statement: a keyword and
its items. Meaning (which keyword takes which arguments) is checked later by
:mod:`provlog.facts.schema`, which needs each item's line and column, so the
parser keeps them on every item.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import List, Optional, Tuple, Union

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken


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


@dataclass(frozen=True)
class ParseError:
    file: str
    line: int
    col: int
    message: str


def _unescape(s: str) -> str:
    body = s[1:-1]
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(body[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class _Continuation:
    """Post-lexer: a line that starts with spaces or tabs continues the statement above."""

    always_accept = ("_NL",)

    def process(self, stream):
        pending = None
        seen_statement = False
        for tok in stream:
            if tok.type == "_NL":
                if seen_statement:
                    pending = tok
                continue
            if pending is not None and tok.column == 1:
                yield pending
            pending = None
            seen_statement = True
            yield tok


class _ToStatements(Transformer):
    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def word(self, children):
        (t,) = children
        return Arg(str(t), False, t.line, t.column)

    def string(self, children):
        (t,) = children
        return Arg(_unescape(str(t)), True, t.line, t.column)

    def pair(self, children):
        key = children[0]
        return Pair(str(key)[:-1], tuple(children[1:]), key.line, key.column)

    def statement(self, children):
        kw = children[0]
        items = []
        for c in children[1:]:
            if isinstance(c, Token) and c.type == "EQ":
                items.append(Eq(c.line, c.column))
            else:
                items.append(c)
        return RawStatement(str(kw), self.file, kw.line, kw.column, items)

    def start(self, children):
        return [c for c in children if isinstance(c, RawStatement)]


_PARSER: Optional[Lark] = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        grammar = resources.files(__package__).joinpath("facts.lark").read_text(encoding="utf-8")
        _PARSER = Lark(grammar, parser="lalr", postlex=_Continuation(), propagate_positions=False,
                       maybe_placeholders=False)
    return _PARSER


def _describe(err: UnexpectedInput) -> str:
    if isinstance(err, UnexpectedCharacters):
        ch = err.char
        if ch == '"':
            return 'unterminated string: a string closes with " on the same line'
        if ch in "=,":
            return f"unexpected {ch!r}: write key=value with no spaces, and {ch!r} only inside an attribute"
        return f"unexpected character {ch!r}"
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "EQ":
            return "unexpected '=': a lone '=' belongs in `expect <org> <dim> = <n>`"
        if tok.type == "$END":
            return "unexpected end of file"
        return f"unexpected {str(tok)!r}: expected a statement item (word, \"string\" or key=value)"
    return str(err).splitlines()[0]


def parse_text(text: str, file: str) -> Tuple[List[RawStatement], List[ParseError]]:
    """Parse ``text`` (the contents of ``file``) into raw statements.

    Returns the statements and every syntax error found; parsing resumes on
    the next line after an error, so one bad line does not hide the others.
    Statements on a line that had a syntax error are dropped (the caller
    refuses the whole world when there is any error).
    """
    errors: List[ParseError] = []
    bad_lines = set()

    def on_error(e: UnexpectedInput) -> bool:
        if e.line not in bad_lines:
            errors.append(ParseError(file, e.line, e.column, _describe(e)))
            bad_lines.add(e.line)
        if isinstance(e, UnexpectedToken):
            # Skip to the end of the statement: feed tokens until a newline.
            ip = e.interactive_parser
            if e.token.type == "$END":
                return False
            if e.token.type == "_NL":
                ip.feed_token(e.token)  # pragma: no cover - grammar accepts _NL anywhere it may stand
            return True
        return True

    try:
        tree = _parser().parse(text, on_error=on_error)
    except UnexpectedInput as e:  # unrecoverable; report it and stop this file
        if e.line not in bad_lines:
            errors.append(ParseError(file, getattr(e, "line", 1), getattr(e, "column", 1), _describe(e)))
        return [], errors
    stmts = _ToStatements(file).transform(tree)
    lines = text.splitlines()
    out = []
    for s in stmts:
        if s.line in bad_lines:
            continue
        s.text = lines[s.line - 1] if 0 < s.line <= len(lines) else ""
        out.append(s)
    return out, errors
