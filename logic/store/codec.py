"""Values <-> what a store keeps: tagged JSON (exact; a tag is data, never code) and SQL column kinds.

    >>> decode(encode((Fraction(1, 3), "a", None)))
    (Fraction(1, 3), 'a', None)
"""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Iterable, List, Optional, Sequence, Tuple

from ...facts.values import Pct
from .errors import StoreError


def _enc(v: Any) -> Any:
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return {"F": [v.numerator, v.denominator]}
    if isinstance(v, tuple):
        return {"T": [_enc(x) for x in v]}
    if isinstance(v, list):
        return [_enc(x) for x in v]
    if isinstance(v, frozenset):
        return {"S": sorted((_enc(x) for x in v), key=repr)}
    if isinstance(v, Pct):
        return {"P": [_enc(v.lo), _enc(v.hi), v.lo_open, v.hi_open, v.text]}
    if isinstance(v, dict):
        return {"D": [[_enc(k), _enc(x)] for k, x in v.items()]}
    raise StoreError(f"a value of type {type(v).__name__} cannot be stored")


def _dec(x: Any) -> Any:
    if isinstance(x, list):
        return [_dec(y) for y in x]
    if not isinstance(x, dict):
        return x
    if len(x) != 1:
        raise StoreError("unknown tagged value")
    (tag, body), = x.items()
    if tag == "F":
        return Fraction(body[0], body[1])
    if tag == "T":
        return tuple(_dec(y) for y in body)
    if tag == "S":
        return frozenset(_dec(y) for y in body)
    if tag == "P":
        return Pct(_dec(body[0]), _dec(body[1]), body[2], body[3], body[4])
    if tag == "D":
        return {_dec(k): _dec(v) for k, v in body}
    raise StoreError(f"unknown tag {tag!r}")


def encode(v: Any) -> str:
    return json.dumps(_enc(v), ensure_ascii=False, separators=(",", ":"))


def decode(text: str) -> Any:
    return _dec(json.loads(text))


# -- column kinds: what SQL type a relation's argument is kept as ---------------------------------------
def _kind_of(types: Iterable[type]) -> str:
    """A column's kind from the types of its values: ``int``, ``text``, ``num`` (ints and Fractions, kept
    as text ``n`` or ``n/d``) or ``json`` (anything else, bool included)."""
    kinds = {"int" if t is int else "text" if t is str else "frac" if t is Fraction else "none" if t is type(None)
             else "json" for t in types} - {"none"}
    if kinds <= {"int"}:
        return "int"
    if kinds == {"text"}:
        return "text"
    if kinds <= {"int", "frac"}:
        return "num"
    return "json"


def _to_sql(kind: str, v: Any) -> Any:
    if v is None:
        return None
    if kind == "num":
        return f"{v.numerator}/{v.denominator}" if type(v) is Fraction else str(v)
    if kind == "json":
        return encode(v)
    return v


def _from_sql(kind: str, x: Any) -> Any:
    if x is None:
        return None
    if kind == "num":
        return _num(x)
    if kind == "json":
        return decode(x)
    return x


def _num(x: str) -> Any:
    if "/" in x:
        n, d = x.split("/")
        return Fraction(int(n), int(d))
    return int(x)


def decoded_rows(kinds: Sequence[str], rows: Iterable[Sequence[Any]]) -> List[Tuple[Any, ...]]:
    """Rows as SQLite gives them, each cut to ``len(kinds)`` columns and decoded by its column's kind
    (:func:`_from_sql`, one column at a time: an ``int`` or ``text`` column is kept as it is).

    >>> decoded_rows(["text", "num", "json"], [("a", "1/2", '{"T":["x"]}', "extra")])
    [('a', Fraction(1, 2), ('x',))]
    """
    n = len(kinds)
    work = [(i, _num if k == "num" else decode) for i, k in enumerate(kinds) if k in ("num", "json")]
    if not work:  # the rows of one query are one length: kept as SQLite gave them where that is n
        rows = list(rows)
        return rows if not rows or len(rows[0]) == n else [tuple(r[:n]) for r in rows]
    out = []
    for r in rows:
        r = list(r[:n])
        for i, f in work:
            x = r[i]
            if x is not None:
                r[i] = f(x)
        out.append(tuple(r))
    return out


def _bind(kind: str, v: Any) -> Optional[Tuple[str, List[Any]]]:
    """SQL condition and parameters for "argument == v", or None where SQL cannot decide (filter in Python)."""
    if kind == "int" and type(v) is int:
        return "= ?", [v]
    if kind == "text" and type(v) is str:
        return "= ?", [v]
    if kind == "num" and type(v) in (int, Fraction):
        f = Fraction(v)  # 3 equals Fraction(3): both spellings
        return ("IN (?, ?)", [str(f.numerator), f"{f.numerator}/1"]) if f.denominator == 1 else ("= ?", [_to_sql(kind, f)])
    return None
