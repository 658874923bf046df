"""Each org's history on the explorer's org page (issue 42; docs/history.md, docs/web.md).

The site renders the table from ``provlog log`` of its range, made once at export (export.py); the
explorer makes it when a page asks, under the page's policy, bounded to the newest ``last`` commits of
its range (``provlog serve --history``, ``--history-last``), by the same log and the same ``by_org``:

    >>> h = Histories("world", "HEAD", 20, None)                            # doctest: +SKIP
    >>> [e.commit.short for e in h.of("quorvell", "standard").entries]      # doctest: +SKIP

Each pair of commits is derived once and kept in the world's ``.provlog/`` (queries/history.py): a
second request, or a second ``provlog serve``, walks git and reads the pairs, and derives nothing.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import List, Optional

from ..history import Entry, HistoryFailed, log
from .feed import by_org


@dataclass
class OrgHistory:
    """What an org page shows: its entries (newest first), the bound, and why there are none (``note``)."""

    entries: List[Entry] = field(default_factory=list)
    bound: str = ""
    note: Optional[str] = None


class Histories:
    """The served world's history in ``rng`` (its newest ``last`` commits), one walk at a time (the
    stores it writes are shared by every request)."""

    def __init__(self, world: str, rng: str, last: Optional[int], as_of: Optional[str]):
        self.world, self.rng, self.last, self.as_of = world, rng, last, as_of
        self._lock = threading.Lock()

    @property
    def bound(self) -> str:
        return self.rng if self.last is None else f"the last {self.last} commits of {self.rng}"

    def of(self, org: str, policy: str) -> OrgHistory:
        """``org``'s moves under ``policy``; a history that cannot be walked (HEAD moved to a commit
        without the world, say) is said in ``note``, one line, as ``provlog log`` says it."""
        try:
            with self._lock:
                h = log(self.world, policy=policy, rng=self.rng, as_of=self.as_of, last=self.last)
        except HistoryFailed as e:
            return OrgHistory(bound=self.bound, note=str(e))
        return OrgHistory(by_org(h).get(org, []), self.bound)


__all__ = ["Histories", "OrgHistory"]
