"""Calendar days of the fact language's dates, which may stop at the year or the month.

A partial date means any day of its period: ``2025-03`` is some day of March 2025.
A rule that measures an age reads the end of the period that favours the reading
it must establish (docs/readings.md): a run's freshness from the first day, a rule's
age (F.8) from the last.

    >>> first_day("2025-03"), last_day("2025-03"), last_day("2024")
    (datetime.date(2025, 3, 1), datetime.date(2025, 3, 31), datetime.date(2024, 12, 31))
    >>> months_later(date(2024, 2, 29), 24), months_later(date(2024, 1, 31), 1)
    (datetime.date(2026, 3, 1), datetime.date(2024, 3, 1))
"""
from __future__ import annotations

import calendar
from datetime import date


def first_day(text: str) -> date:
    """The first day a (possibly partial) date can mean: ``2025-03`` is 2025-03-01."""
    parts = [int(p) for p in text.split("-")] + [1, 1]
    return date(parts[0], parts[1], parts[2])


def last_day(text: str) -> date:
    """The last day a (possibly partial) date can mean: ``2025-02`` is 2025-02-28."""
    parts = [int(p) for p in text.split("-")]
    year, month = parts[0], parts[1] if len(parts) > 1 else 12
    return date(year, month, parts[2] if len(parts) > 2 else calendar.monthrange(year, month)[1])


def months_later(day: date, months: int) -> date:
    """The day ``months`` calendar months after ``day``: the same day of the month, or the first
    day of the next month where that day does not exist (24 months after 2024-02-29 is 2026-03-01);
    the calendar's last day past its end."""
    y, m = divmod(day.month - 1 + months, 12)
    if day.year + y > date.max.year:
        return date.max
    try:
        return date(day.year + y, m + 1, day.day)
    except ValueError:  # the 29th to 31st of a shorter month (never in December: the year holds)
        return date(day.year + y, m + 2, 1)
