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
from typing import Callable, Dict, List, Optional

from ...facts import DIMS
from ...facts.schema import POLICY_NAMES
from ...importers.records import ImportFailure
from ..api import DEFAULT_POLICY, World
from . import data

#: below this many orgs, forking workers costs more than it saves
SMALL = 40

#: the world a forked worker proves from, and what writes an org's own pages (set in the parent just
#: before it forks)
_WORLD: Optional[World] = None
_WRITE: Optional[Callable[[str], List[str]]] = None


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
    shows them side by side), as data.py keeps them; and the files of the org's own pages, written
    here (``_WRITE``), or the errors that stopped one (an exception would not cross back whole)."""
    graphs = [data.why_graph(_WORLD, org, d, DEFAULT_POLICY) for d in DIMS]
    cards = [data.card(_WORLD, org, p) for p in POLICY_NAMES]
    try:
        wrote, errors = (_WRITE(org) if _WRITE is not None else []), []
    except ImportFailure as e:
        wrote, errors = [], e.errors
    return org, graphs, cards, wrote, errors


def prove_all(w: World, n: int, advance: Callable[[], None] = lambda: None,
              write: Optional[Callable[[str], List[str]]] = None) -> Dict[str, List[str]]:
    """Every proof the site shows, into data.py's memo (inside ``data.kept()``), by ``n`` processes;
    ``advance`` is called once an org. ``write(org)``, if given, writes the org's own pages (its card
    and its proofs need nothing of another org's) in the worker that proved it and says which files;
    the answer: those files, by org. With ``n`` below 2 nothing is done: the pages prove as they go."""
    global _WORLD, _WRITE
    orgs: List[str] = sorted(w.orgs)
    done: Dict[str, List[str]] = {}
    if n < 2 or not orgs:
        return done
    w.derivation  # derived once, here, not in each worker
    _org_proofs_in(w, orgs[0])  # the first in this process: the engine's relations asked once, before forking
    advance()
    _WORLD, _WRITE = w, write
    try:
        with multiprocessing.get_context("fork").Pool(n) as pool:
            for org, graphs, cards, wrote, errors in pool.imap(_org_proofs, orgs[1:], chunksize=4):
                if errors:
                    raise ImportFailure(errors)
                for d, g in zip(DIMS, graphs):
                    data.keep(("why", org, d, DEFAULT_POLICY), g)
                for p, c in zip(POLICY_NAMES, cards):
                    data.keep(("card", org, p), c)
                if write is not None:
                    done[org] = wrote
                advance()
    finally:
        _WORLD, _WRITE = None, None
    return done


def _org_proofs_in(w: World, org: str) -> None:
    for d in DIMS:
        data.why_graph(w, org, d, DEFAULT_POLICY)
    for p in POLICY_NAMES:
        data.card(w, org, p)
