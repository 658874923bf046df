"""Freshness: 50% per year, ``2^(-t / year)`` for an age of t days, in exact integers.

Put this file beside seeds/provenance-lanes.txt 03 ("Freshness: 50%/year decay
(half-life about 1 year)") and docs/lanes.md. A year is 365.25 days (the Julian
year: the mean calendar year over a four-year leap cycle), so an age of t days
is ``4t / 1461`` half-lives. Write ``4t = 1461 K + Q`` with ``0 <= Q < 1461``:

    freshness(t) = 2^-K x h(Q),   h(Q) = 2^(-Q / 1461) rounded to 9 decimals

``h(0) = 1``, so at a whole number of half-lives freshness is the exact
Fraction ``2^-K`` (in whole days: every 1461 days, four years, ``1/16``); elsewhere it is a Fraction with
denominator ``10^9 x 2^K`` within ``5 x 10^-10`` of the true value, i.e. correct
to more than six decimals at any age. ``h(Q)`` is the nearest 9-decimal number
to ``2^(-Q/1461)``, found by comparing integers exactly (``m^1461`` against a
power of 2 and of 10): a float only seeds the search, so every platform and
Python version gives the same Fraction.

    >>> freshness(0), freshness(1461), freshness(2922)
    (Fraction(1, 1), Fraction(1, 16), Fraction(1, 256))
    >>> freshness(182)
    Fraction(353972983, 500000000)
    >>> round(float(freshness(365)), 6)    # one calendar year: a little over a half
    0.500237
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

#: A year in days (Julian), as half-life; the exponent of an age of t days is t / YEAR_DAYS.
YEAR_DAYS = Fraction(1461, 4)
#: Decimals of h(Q): the rounding error is at most 5 x 10^-10, below the six decimals asked for.
DIGITS = 9

_STEPS = YEAR_DAYS.numerator  # 1461: quarter-days in a year
_SCALE = 2 * 10 ** DIGITS  # twice the fixed-point scale, so that flooring then halving rounds
_TOP = _SCALE ** _STEPS


@lru_cache(maxsize=4096)
def halving(q: int) -> Fraction:
    """``2^(-q/1461)`` rounded to the nearest 9-decimal number (0 <= q < 1461), exactly.

    ``x`` is floor(2 x 10^9 x 2^(-q/1461)), the largest integer with
    ``x^1461 <= (2 x 10^9)^1461 / 2^q``; ``(x + 1) // 2`` is then the nearest
    integer to 10^9 x 2^(-q/1461) (a tie would need a rational power of 2, and
    there is none for 0 < q < 1461).

        >>> halving(0), halving(1)
        (Fraction(1, 1), Fraction(999525679, 1000000000))
    """
    if not 0 <= q < _STEPS:
        raise ValueError(f"q is 0..{_STEPS - 1}, got {q}")
    if q == 0:
        return Fraction(1)
    bound = _TOP >> q  # floor((2 x 10^9)^1461 / 2^q): shifting floors exactly
    x = int(_SCALE * 2.0 ** (-q / _STEPS))  # a seed only: corrected below by exact comparisons
    while x ** _STEPS > bound:
        x -= 1
    while (x + 1) ** _STEPS <= bound:
        x += 1
    return Fraction((x + 1) // 2, 10 ** DIGITS)


def freshness(days: int) -> Fraction:
    """``2^(-days / 365.25)``: exact at whole half-lives, else correct to 9 decimals (see the module)."""
    if days < 0:
        raise ValueError(f"an age is 0 days or more, got {days}")
    k, q = divmod(4 * days, _STEPS)
    return halving(q) / 2 ** k
