"""The query API: :class:`World`, a loaded world and everything the rules derive from it.

    >>> from provlog import World                              # doctest: +SKIP
    >>> w = World.load("facts/worlds/example")                 # doctest: +SKIP
    >>> v = w.value("harbor-eval", "F", policy="standard")     # doctest: +SKIP
    >>> v.value, v.rule, [c.clauses for c in v.clamps]         # doctest: +SKIP

Several worlds can be loaded side by side: each owns its Datalog program.

World's methods live by job in modules of their own, one class each, all of them bases of World:
queries/loading.py (load, stores, fingerprint), queries/answers.py (values, cards, signals,
hops, money, results), queries/proofs.py (why, why-not), queries/goals.py (query, prove,
refute), queries/checks.py (expect, verify, warnings). What they answer with is in
queries/records.py. This module keeps the constructor, the derivation and the name checks.
"""
from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional

from ..errors import UnknownName
from ..facts import DIMS, FactSet, LoadError
from ..facts.schema import POLICY_NAMES
from ..logic import CORE, RULEBOOKS, Derivation
from .answers import WorldAnswers
from .checks import WorldChecks
from .goals import WorldGoals
from .loading import WorldLoading
from .proofs import WorldProofs
from .records import (DEFAULT_POLICY, STORED_POLICY, Card, Clamp, ExpectResult, Note, Signal, Value,
                      weighted_number)

__all__ = ["Card", "Clamp", "LoadError", "Signal", "UnknownName", "Value", "World", "DEFAULT_POLICY",
           "STORED_POLICY", "ExpectResult", "Note", "weighted_number"]


class World(WorldLoading, WorldAnswers, WorldProofs, WorldGoals, WorldChecks):
    """A loaded world and everything the rules derive from it.

    A World is safe to share between threads: every method that reads its
    program, its rulebooks or the explainer's and readers' caches holds one
    lock (an RLock), so two threads get the same answers and the same proofs
    as one would; they take turns rather than run side by side.
    """

    def __init__(self, facts: FactSet, as_of: Optional[str] = None, name: str = "", freeze: bool = False,
                 lazy: bool = False, progress=None, rulebooks: Optional[Dict[str, Any]] = None):
        """``freeze``: see :meth:`Derivation.run` (the CLI sets it; a library caller keeps its collector).
        ``lazy``: derive on first use (``check`` and ``fingerprint`` never do); ``progress``: see
        :meth:`Derivation.run` (queries/progress.py draws it). ``rulebooks``: the rulebooks a goal may
        name, by name (default: logic/registry.py's ``RULEBOOKS``); the independence RULES are always
        the world's own."""
        #: the rulebooks a goal of this world may name (``--rulebook``), by name, the RULES first
        self.rulebooks: Dict[str, Any] = RULEBOOKS if rulebooks is None else {CORE.name: CORE, **rulebooks}
        self._lock = threading.RLock()
        self.facts = facts
        self.name = name
        self.as_of_given = as_of  # None: the world's own as-of statement, else today (see as_of_origin)
        self._freeze = freeze
        self._progress = progress
        self._derivation: Optional[Derivation] = None
        self._store = None  # (target, how) to write the derivation to, or the open store it was read from
        self.edited: Optional[List[str]] = None  # the orgs derived again after an edit (logic/edit.py), if it was
        if not lazy:
            self.derivation

    @property
    def derivation(self) -> Derivation:
        """Everything the rules derive from the world (derived on first use, or read from a store)."""
        with self._lock:
            if self._derivation is None and isinstance(self._store, tuple) and self._edit_store(*self._store):
                return self._derivation
            if self._derivation is None:
                self._derivation = Derivation.run(self.facts, self.as_of_given, freeze=self._freeze,
                                                  progress=self._progress)
                if isinstance(self._store, tuple) and not self.store_after_answer:
                    self._stored = True
                    self._write_store(*self._store)
            return self._derivation

    #: True (the CLI): a first derivation is stored by :meth:`store_now`, once the answer is out
    store_after_answer = False

    def store_now(self) -> None:
        """Store the derivation made since loading, if there is one and it is not stored yet."""
        if self._derivation is not None and isinstance(self._store, tuple) and not self.__dict__.get("_stored"):
            self._stored = True
            self._write_store(*self._store)

    # -- names ------------------------------------------------------------------------------
    @property
    def orgs(self) -> List[str]:
        return self.facts.orgs

    def _check(self, org: Optional[str] = None, dim: Optional[str] = None, policy: Optional[str] = None) -> None:
        if org is not None and (org not in self.facts.nodes or self.facts.nodes[org].kind != "org"):
            near = [o for o in self.orgs if o.startswith(org[:3])][:3]
            hint = f"; did you mean {', '.join(near)}?" if near else f"; orgs: {', '.join(self.orgs[:8])}"
            raise UnknownName(f"unknown org {org!r}{hint}")
        if dim is not None and (len(dim) != 1 or dim not in DIMS):
            raise UnknownName(f"unknown dimension {dim!r}; one of {' '.join(DIMS)}")
        if policy is not None and policy not in POLICY_NAMES:
            raise UnknownName(f"unknown policy {policy!r}; one of {', '.join(POLICY_NAMES)}")

    def _check_node(self, node: str) -> None:
        if node not in self.facts.nodes:
            import difflib

            near = difflib.get_close_matches(node, sorted(self.facts.nodes), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise UnknownName(f"unknown lab, org, entity or person {node!r}{hint}")
