"""Rulebooks: more than one rule system on the same engine.

Every rulebook is described by a :class:`Rulebook` record: its rules (a
:class:`RuleSet`, each rule with its clause and template), its EDB predicates
and a function that turns a world's facts into rows, and how its proofs read.
The independence RULES (``program.CORE``) are evaluated by
:class:`~provlog.logic.program.Derivation` (strata, derived signals); another
rulebook (``logic/<name>/``) by :class:`RulebookRun`. logic/registry.py lists
them all; its statements are declared in ``facts/`` the same way as the core
ones. Queries, ``expect holds``, ``prove`` and ``refute`` work on every rulebook.

    >>> run = RulebookRun.run(facts, RULEBOOKS["advice"])       # doctest: +SKIP
    >>> run.program.match("finding", 4, [(1, "bank-a")])         # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Optional, Tuple

from ..facts.model import Fact, FactSet
from .edb import Origins
from .rules import RuleSet

if TYPE_CHECKING:  # pyDatalog loads when a rulebook runs, not when its record is built
    from .engine import Program

RowsFn = Callable[[FactSet, Dict[Tuple[str, Tuple], List[Fact]]], Dict[str, List[Tuple]]]


@dataclass
class Rulebook:
    name: str
    rules: RuleSet
    predicates: Dict[str, int]  # EDB predicate -> arity
    rows: RowsFn  # facts -> EDB rows, recording each row's facts in the origins dict
    summary: str = ""
    # relation -> (how it reads where it holds, where it fails), "{0}", "{1}"... its arguments: refute and proofs
    # (None where it holds: the rule's template says it)
    meanings: Dict[str, Tuple[Optional[str], str]] = field(default_factory=dict)
    # rows the program asserts itself (no statement states them), as people read them
    given: Dict[Tuple[str, Tuple], str] = field(default_factory=dict)
    # what the rules' variable names stand for where a condition tests them ("T" -> "tier")
    words: Dict[str, str] = field(default_factory=dict)
    # whether a fraction in a proof of this clause reads as a percentage (a share) or a plain number
    percent: Callable[[Optional[str]], bool] = lambda clause: False
    # variables that hold a day (an ordinal): proofs show them as dates
    dates: FrozenSet[str] = frozenset()


def collector(predicates: Dict[str, int], origins: Origins):
    """``(rows, add)``: rows by predicate, and ``add(pred, fact, *row)`` that records the row's fact."""
    out: Dict[str, List[Tuple]] = {p: [] for p in predicates}

    def add(p: str, fact: Optional[Fact], *row) -> None:
        out[p].append(row)
        if fact is not None:
            origins.add(p, row, fact)

    return out, add


class Evaluation:
    """What a rulebook evaluated over one world offers its readers (the explainer, goals, prove and
    refute): ``facts``, ``book`` (its :class:`Rulebook`), ``program`` (the read interface of
    logic/model.py), ``origins`` (each EDB row's facts), ``derived`` and ``derived_rows`` (derived
    signals, the core's only). The core is evaluated by :class:`~provlog.logic.program.Derivation`
    (strata, derived signals), another rulebook by :class:`RulebookRun`; both are Evaluations."""

    book: Rulebook

    @property
    def rules(self) -> RuleSet:
        return self.book.rules

    @property
    def edb(self):
        return set(self.book.predicates)


@dataclass
class RulebookRun(Evaluation):
    """One rulebook evaluated over one world by asking pyDatalog (the explainer walks it like the core)."""

    facts: FactSet
    book: Rulebook
    program: "Program"
    origins: Origins = field(default_factory=Origins)
    derived: Dict = field(default_factory=dict)  # no derived signals outside the core
    derived_rows: Dict = field(default_factory=dict)

    @classmethod
    def run(cls, facts: FactSet, book: Rulebook) -> "RulebookRun":
        from .engine import Program

        program = Program()
        for pred, arity in book.predicates.items():
            program.declare(pred, arity)
        origins = Origins()
        for pred, rows in book.rows(facts, origins).items():
            program.assert_rows(pred, rows)
        program.load_rules([r.text for r in book.rules.rules])
        return cls(facts, book, program, origins)
