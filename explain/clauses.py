"""Read a rule's text as literals the explainer can walk.

    >>> h, body = parse_rule("b1(S, V, 'cap', 1) <= b0(S, 'cap', N) & evclass(S, V, 'partial') & (N < 1)")
    >>> h.name, [type(l).__name__ for l in body]
    ('b1', ['Atom', 'Atom', 'Compare'])
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, List, Optional, Tuple, Union

_VAR = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Atom:
    name: str
    args: Tuple[str, ...]
    negated: bool = False


@dataclass(frozen=True)
class FuncEq:
    """``(f[A, B] == X)`` (a lookup) or, in a head, ``(f[A, B] == min_(...))`` (an aggregate)."""

    name: str
    args: Tuple[str, ...]
    value: str


@dataclass(frozen=True)
class Compare:
    """A comparison or a membership test, written as a Python expression over the variables."""

    expr: str
    assigns: Optional[str] = None  # `(X == expr)`: X may be unbound, then it takes the value
    rhs: Optional[str] = None


Literal = Union[Atom, FuncEq, Compare]


@lru_cache(maxsize=None)
def is_var(arg: str) -> bool:
    return bool(_VAR.match(arg))


_STRUCTURE: Dict[str, "re.Pattern[str]"] = {}


def split_top(text: str, sep: str) -> List[str]:
    """``text`` split at ``sep`` outside brackets and quotes, each piece stripped."""
    pat = _STRUCTURE.get(sep)
    if pat is None:
        pat = _STRUCTURE[sep] = re.compile(r"[()\[\]]|'[^']*'|" + re.escape(sep))
    out, depth, start = [], 0, 0
    for m in pat.finditer(text):
        t = m.group()
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            depth -= 1
        elif t == sep and depth == 0:
            out.append(text[start:m.start()].strip())
            start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


_ATOM = re.compile(r"(~?)([a-z_][a-z0-9_]*)\((.*)\)\Z")
_FUNC = re.compile(r"\(([a-z_][a-z0-9_]*)\[(.*?)\]\s*==\s*(.*)\)\Z")
_METHOD = re.compile(r"([A-Z][A-Za-z0-9_]*)\.(in_|_not_in)\((.*)\)\Z")
_ASSIGN = re.compile(r"\(([A-Z][A-Za-z0-9_]*)\s*==\s*(.*)\)\Z")


def parse_literal(text: str) -> Literal:
    text = text.strip()
    m = _FUNC.match(text)
    if m:
        return FuncEq(m.group(1), tuple(split_top(m.group(2), ",")), m.group(3).strip())
    m = _ATOM.match(text)
    if m:
        return Atom(m.group(2), tuple(split_top(m.group(3), ",")), bool(m.group(1)))
    m = _METHOD.match(text)
    if m:
        var, meth, arg = m.groups()
        expr = f"({var} in {arg})" if meth == "in_" else f"({var} not in {arg})"
        return Compare(expr)
    m = _ASSIGN.match(text)
    if m:
        return Compare(text, assigns=m.group(1), rhs=m.group(2))
    return Compare(text)


def parse_rule(text: str) -> Tuple[Literal, List[Literal]]:
    head_text, body_text = _split_rule(text)
    return parse_literal(head_text), [parse_literal(t) for t in split_top(body_text, "&")]


def _split_rule(text: str) -> Tuple[str, str]:
    """Split at the top-level ``<=`` that separates head and body."""
    depth = 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and text.startswith("<=", i):
            return text[:i].strip(), text[i + 2:].strip()
    raise ValueError(f"not a rule: {text}")
