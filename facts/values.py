"""Typed values of the fact language: percentages, amounts, dates, bounds.

All numbers are exact (:class:`fractions.Fraction`), so that 50% of 40%
meets a 20% threshold.

    >>> parse_pct("20-25%").lo, parse_pct(">25%").lo_open
    (Fraction(1, 5), True)
    >>> parse_amount("12.5M")
    Fraction(12500000, 1)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Optional

IDENT = re.compile(r"[a-z0-9][a-z0-9_.-]*\Z")
RULE_ID = re.compile(r"[A-Z0-9][A-Za-z0-9.]*\Z")
DIMS = "FGPASRMX"
_NUM = r"[0-9]+(?:\.[0-9]+)?"  # ASCII digits only (`\d` would take any script's digits)
_PCT = re.compile(rf"(?P<op>>=|>|<)?(?P<neg>-)?(?P<a>{_NUM})(?:-(?P<b>{_NUM}))?%\Z")
_AMOUNT = re.compile(rf"(?P<n>{_NUM})(?P<suf>[kMB])?\Z")
_DATE = re.compile(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?\Z")
MAX_NUMBER = 30  # characters in a number; more is a typo or an attack, not a curator's figure
_SUFFIX = {None: 1, "k": 1000, "M": 10**6, "B": 10**9}
HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class BadValue(ValueError):
    """A malformed value; the message says what was expected. Never reaches a user as such:
    the loader reports it at its place (E104, or the ``code`` a parser gives it)."""


def show(text: str, limit: int = 60) -> str:
    """``repr(text)``, cut to ``limit`` characters: messages quote what was written, not a megabyte of it."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _long(text: str) -> None:
    if len(text) > MAX_NUMBER:
        raise BadValue(f"a number has at most {MAX_NUMBER} characters, got {len(text)}: {show(text, 20)}")


@dataclass(frozen=True)
class Pct:
    """A percentage as a closed/open interval of fractions of one.

    ``lo`` is what a rule may rely on (SEMANTICS: bounds use lower bounds);
    ``lo_open`` says the lower bound itself is excluded (``>25%``).
    """

    lo: Fraction
    hi: Fraction
    lo_open: bool = False
    hi_open: bool = False
    text: str = ""

    def __str__(self) -> str:
        return self.text


def _frac(s: str) -> Fraction:
    return Fraction(s)


def parse_pct(text: str) -> Pct:
    m = _PCT.match(text)
    if not m:
        raise BadValue(f"expected a percentage like 20%, 12.5%, 20-25%, >=25%, >25% or <5%, got {show(text)}")
    for n in (m["a"], m["b"] or ""):
        if len(n.split(".")[0].lstrip("0")) > 3:
            raise _Range(f"percentage outside 0-100: {show(text, 20)}")
        _long(n)
    if m["neg"]:
        raise _Range(f"percentage outside 0-100: {show(text)}")
    a = _frac(m["a"]) / 100
    op = m["op"]
    if m["b"] is not None:
        if op:
            raise BadValue(f"a range takes no comparison: {show(text)}")
        b = _frac(m["b"]) / 100
        if b > 1 or a > 1:
            raise _Range(f"percentage outside 0-100: {show(text)}")
        if b < a:
            raise _Range(f"empty range {show(text)}: the upper bound is below the lower")
        return Pct(a, b, text=text)
    if a > 1:
        raise _Range(f"percentage outside 0-100: {show(text)}")
    if op == ">=":
        return Pct(a, Fraction(1), text=text)
    if op == ">":
        if a == 1:
            raise _Range(f"empty range {show(text)}: nothing is above 100%")
        return Pct(a, Fraction(1), lo_open=True, text=text)
    if op == "<":
        if a == 0:
            raise _Range(f"empty range {show(text)}: nothing is below 0%")
        return Pct(Fraction(0), a, hi_open=True, text=text)
    return Pct(a, a, text=text)


class _Range(BadValue):
    """A well-formed percentage outside 0-100 or an empty range (E120)."""


PctRangeError = _Range


def parse_amount(text: str) -> Fraction:
    m = _AMOUNT.match(text)
    if not m:
        raise BadValue(f"expected an amount like 1200, 1.5k, 12M or 2B, got {show(text)}")
    _long(m["n"])
    return _frac(m["n"]) * _SUFFIX[m["suf"]]


def parse_number(text: str) -> Fraction:
    if not re.fullmatch(_NUM, text):
        raise BadValue(f"expected a number like 12 or 1.5, got {show(text)}")
    _long(text)
    return _frac(text)


def _whole(text: str, expected: str) -> int:
    """The one reader of a whole number in a file: ASCII digits, at most MAX_NUMBER characters
    (leading zeros count), checked before int() so that Python's 4,300-digit limit is never met."""
    if not re.fullmatch(r"[0-9]+", text):
        raise BadValue(f"expected {expected}, got {show(text)}")
    _long(text)
    return int(text)


def parse_int(text: str) -> int:
    return _whole(text, "a whole number")


def parse_date(text: str) -> str:
    m = _DATE.match(text)
    if not m:
        raise BadValue(f"expected a date like 2025, 2025-03 or 2025-03-14, got {show(text)}")
    y, mo, d = m.groups()
    if mo is not None and not 1 <= int(mo) <= 12:
        raise BadValue(f"month out of range in {show(text)}")
    if d is not None:
        try:
            date(max(int(y), 1), int(mo), int(d))
        except ValueError:
            raise BadValue(f"no such day: {show(text)}") from None
    return text


def parse_year(text: str) -> int:
    if not re.fullmatch(r"[0-9]{4}", text):
        raise BadValue(f"expected a year like 2025, got {show(text)}")
    return int(text)


def parse_bound(text: str) -> int:
    if re.fullmatch(r"[0-9]+", text) and len(text.lstrip("0")) > 1:
        raise BoundRangeError(f"a cap or floor is 0-4, got {show(text, 20)}")
    n = _whole(text, "a bound 0-4")
    if not 0 <= n <= 4:
        raise BoundRangeError(f"a cap or floor is 0-4, got {n}")
    return n


class BoundRangeError(BadValue):
    """A cap or floor outside 0-4 (E121)."""


def fmt_pct(f: Optional[Fraction]) -> str:
    """Render a fraction of one as a percentage, exactly where it is finite."""
    if f is None:
        return "-"
    p = f * 100
    if p.denominator == 1:
        return f"{p.numerator}%"
    return f"{float(p):.4g}%"
