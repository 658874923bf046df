"""The cyclic garbage collector during a derivation: off, with what the derivation keeps frozen.

A derivation makes millions of rows that live as long as the world and hold no
cycle; only pyDatalog's sub-goals do. logic/strata.py calls :func:`sweep` after
each component it keeps; :func:`held_collector` around a whole derivation
(logic/program.py) lets that sweep freeze the kept rows out of the collector's
walks. Nothing here imports pyDatalog, so a caller can hold the collector
before the engine's own (large) imports run.
"""
from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

_held = threading.local()  # .freezing: inside held_collector(), materialize freezes what it keeps


@contextmanager
def held_collector(keep_frozen: bool = False):
    """Run a derivation with the cyclic collector off and its kept rows frozen out of its walks.

    The rows a derivation keeps are tuples of strings, numbers and Fractions: no cycles, nothing for
    the collector to free, yet each of its sweeps walks every one made since the last (a quarter of
    the derive CPU at 5,000 orgs, plus one walk of them all when it was enabled again). Inside this
    block strata.materialize sweeps only what pyDatalog made since the last component (its sub-goals
    do form cycles) and then freezes the survivors (``gc.freeze``: no walk, a list splice). On exit
    they are given back to the oldest generation (``gc.unfreeze``), unless ``keep_frozen`` (a caller
    that owns the process: the CLI) keeps them out of the walks for good. If something is frozen
    already and the caller does not own the process, nothing is frozen (unfreezing would give back
    objects that are not ours): the sweeps then walk the rows as before.

        >>> with held_collector():            # doctest: +SKIP
        ...     materialize(program, rules, components, set())
    """
    was, outer = gc.isenabled(), getattr(_held, "freezing", False)
    freezing = outer or keep_frozen or gc.get_freeze_count() == 0
    gc.disable()
    _held.freezing = freezing
    try:
        yield
    finally:
        _held.freezing = outer
        if freezing and not keep_frozen and not outer:
            gc.unfreeze()
        if was:
            gc.enable()


def sweep(engine_asked: bool) -> None:
    """After a component: free pyDatalog's cycles, then freeze what is kept (see held_collector)."""
    if gc.isenabled():
        return
    if engine_asked:
        # pyDatalog's sub-goals of a question refer to each other: cycles that only the collector frees.
        # With it off, sweep what this component made, and only that (the youngest generation).
        gc.collect(0)
    if getattr(_held, "freezing", False):
        # A component joined in Python leaves a few cycles unswept (its relation's retracted clauses,
        # about 45,000 objects in all, whatever the world's size): frozen with the rows, they are given
        # back at the end of the derivation, or live as long as a CLI process.
        gc.freeze()
