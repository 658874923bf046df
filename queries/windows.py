"""Reply windows (RULES section 12): whether a subject's letter went out, and whether its window is over.

"Every named individual receives their card and a reply window, the same as an organization." A
subject (an org or a named person) may be published once its letter was sent and either its window
closed or a reply came (docs/outreach.md). The window of a letter sent on day S with W days runs
through S + W (the reply-by date); from the next day it is closed. The latest letter a subject was
sent by the world's as-of date governs; a letter dated after it is not yet sent.

    >>> from provlog import World
    >>> w = World.from_text('org e "E" type=nonprofit\\nreply-window 10\\ncontact e sent=2026-08-01\\n'
    ...                     'as-of 2026-08-11\\n')
    >>> state(w, "e").status, state(w, "e").reply_by, state(w, "e").published
    ('in-window', '2026-08-11', False)
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Optional

from ..facts.outreach import DEFAULT_WINDOW

#: what a subject's window says at the as-of date: no letter yet; in its window; replied; window closed
STATUSES = ("unsent", "in-window", "replied", "closed")


@dataclass(frozen=True)
class Window:
    """A subject's reply window at the world's as-of date; ``sent`` None: no letter yet (then
    ``reply_by`` is the date a letter sent on the as-of date would ask a reply by)."""

    subject: str
    status: str
    window: int
    reply_by: str
    sent: Optional[str] = None
    replied: Optional[str] = None
    reply: Optional[str] = None  # the source that holds the reply
    letter: Optional[str] = None  # the digest of the letter sent, if the contact records it
    loc: Optional[str] = None

    @property
    def published(self) -> bool:
        """Whether the site may publish the subject's values and questions."""
        return self.status in ("replied", "closed")

    def says(self) -> str:
        """The one line a page shows instead of a subject that may not be published yet."""
        if self.status == "unsent":
            return "letter not yet sent: nothing is published before its reply window"
        return f"in reply window until {self.reply_by}"


def default_window(world) -> int:
    """The world's ``reply-window``, else provlog's default (facts/outreach.py)."""
    stated = world.facts.of("reply-window")
    return stated[0]["window"] if stated else DEFAULT_WINDOW


def gated(world) -> bool:
    """Whether the world runs the publication cycle: it states a ``reply-window`` or a ``contact``.
    A world that records no outreach at all is published as before (docs/outreach.md)."""
    return bool(world.facts.of("reply-window") or world.facts.of("contact"))


def later(day: str, days: int) -> str:
    """``day`` plus ``days``, as YYYY-MM-DD.

    >>> later("2026-08-25", 10)
    '2026-09-04'
    """
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def state(world, subject: str) -> Window:
    """``subject``'s window at the world's as-of date (the latest letter sent by then governs)."""
    as_of, default = world.as_of, default_window(world)
    sent = sorted((f for f in world.facts.of("contact") if f["subject"] == subject and f["sent"] <= as_of),
                  key=lambda f: f["sent"])
    if not sent:
        return Window(subject, "unsent", default, later(as_of, default))
    c = sent[-1]
    days = c["window"] or default
    by = later(c["sent"], days)
    replied = c["replied"] if c["replied"] and c["replied"] <= as_of else None
    status = "replied" if replied else "closed" if as_of > by else "in-window"
    return Window(subject, status, days, by, c["sent"], replied, c["reply"] if replied else None, c["letter"],
                  str(c.loc))
