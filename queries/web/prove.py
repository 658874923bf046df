"""The static site's proofs, searched on every core before its pages are written (``provlog site``).

Most of a site's writing time is its proof pages' proof searches (explain/why.py), one per value: eight
an org under the site's policy; then its cards, five an org (one per policy, side by side on its page).
Each is independent of the others, so worker processes forked from the one that loaded the world
(each with the world, already derived, as it is) search them side by side and send back each proof's
nodes and edges and each card; the pages then read them from data.py's memo. They are the same
whichever process computed them, so the site's bytes are too.

    >>> jobs(None, orgs=3), jobs(1, orgs=500)  # a small world, or one job asked for: no workers
    (1, 1)
"""
from __future__ import annotations

import multiprocessing
import os
from typing import Callable, List, Optional

from ...facts import DIMS
from ...facts.schema import POLICY_NAMES
from ..api import DEFAULT_POLICY, World
from . import data

#: below this many orgs, forking workers costs more than it saves
SMALL = 40

#: the world a forked worker proves from (set in the parent just before it forks)
_WORLD: Optional[World] = None


def jobs(asked: Optional[int], orgs: int) -> int:
    """How many processes search the proofs: ``asked``, else one a core this process may use (up
    to 8) for a world of at least :data:`SMALL` orgs, else 1; always 1 where processes cannot fork."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if asked is not None:
        return max(1, asked)
    if orgs < SMALL:
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, 8))


def _org_proofs(org: str):
    """In a worker: the proofs of ``org``'s eight values and its cards under every policy (its page
    shows them side by side), as data.py keeps them."""
    return (org, [data.why_graph(_WORLD, org, d, DEFAULT_POLICY) for d in DIMS],
            [data.card(_WORLD, org, p) for p in POLICY_NAMES])


def prove_all(w: World, n: int, advance: Callable[[], None] = lambda: None) -> None:
    """Every proof the site shows, into data.py's memo (inside ``data.kept()``), by ``n`` processes;
    ``advance`` is called once an org. With ``n`` below 2 nothing is done: the pages prove as they go."""
    global _WORLD
    orgs: List[str] = sorted(w.orgs)
    if n < 2 or not orgs:
        return
    w.derivation  # derived once, here, not in each worker
    _org_proofs_in(w, orgs[0])  # the first in this process: the engine's relations asked once, before forking
    advance()
    _WORLD = w
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            for org, graphs, cards in pool.imap(_org_proofs, orgs[1:], chunksize=4):
                for d, g in zip(DIMS, graphs):
                    data.keep(("why", org, d, DEFAULT_POLICY), g)
                for p, c in zip(POLICY_NAMES, cards):
                    data.keep(("card", org, p), c)
                advance()
    finally:
        _WORLD = None


def _org_proofs_in(w: World, org: str) -> None:
    for d in DIMS:
        data.why_graph(w, org, d, DEFAULT_POLICY)
    for p in POLICY_NAMES:
        data.card(w, org, p)
