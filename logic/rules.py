"""Rules as data: each Datalog clause with the clause of the RULES it implements.

    >>> r = Rule("C15", "b2(S, V, 'cap', 1) <= b1(S, V, 'cap', 0) & ~span_confirmed(S, V)",
    ...          "C15: {S} cites no confirmed span, so its cap 0 is held at 1")
    >>> r.head_name
    'b2'

``clause`` names the RULES (or SEMANTICS) item: a rule id like ``F.4``, a
contract clause like ``C15``, a section like ``9``, or ``def`` for a helper
relation that only names a concept the text uses. ``template`` is the line
the explainer shows, filled with the clause's bindings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Dict, List, Optional, Tuple

from .syntax import Literal, parse_rule

_HEAD = re.compile(r"\s*\(?\s*([a-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class Rule:
    clause: str  # e.g. "F.4", "C15", "9", "def"
    text: str  # one pyDatalog clause: head <= body
    template: str  # one line for people, e.g. "F.4: {I} led a priced round of {O}"
    stratum: str = "mechanics"

    @property
    def head(self) -> str:
        return self.text.split("<=", 1)[0].strip()

    @property
    def body(self) -> str:
        return self.text.split("<=", 1)[1].strip()

    @cached_property
    def head_name(self) -> str:  # (asked for every rule in every plan: read once)
        m = _HEAD.match(self.head)
        return m.group(1) if m else ""

    @property
    def head_literal(self) -> Literal:
        """The head, read once (logic/syntax.py): an Atom, or a FuncEq for an aggregate."""
        return parse_rule(self.text)[0]

    @property
    def body_literals(self) -> Tuple[Literal, ...]:
        """The body's literals, read once: what strata.py plans with and the explainer solves."""
        return parse_rule(self.text)[1]


@dataclass
class RuleSet:
    """An ordered set of rules, by stratum: one module's rules (mechanics.py, structure.py), or a
    rulebook's whole program (:meth:`union`). A :class:`~provlog.logic.rulebooks.Rulebook` is the
    record around one: its rules, EDB, words.

        >>> a = RuleSet("a"); _ = a.add("def", "p(X) <= q(X)", "{X} is p")
        >>> b = RuleSet("b"); _ = b.add("def", "r(X) <= p(X)", "{X} is r")
        >>> [r.head_name for r in RuleSet.union("ab", a, b).rules]
        ['p', 'r']
    """

    name: str
    rules: List[Rule] = field(default_factory=list)
    #: clause id -> one line in provlog's words (``provlog rules``, docs/clauses.md)
    statements: Dict[str, str] = field(default_factory=dict)

    def add(self, clause: str, text: str, template: str, stratum: str = "mechanics") -> Rule:
        r = Rule(clause, " ".join(text.split()), template, stratum)
        self.rules.append(r)
        return r

    @classmethod
    def union(cls, name: str, *sets: "RuleSet", statements: Optional[Dict[str, str]] = None) -> "RuleSet":
        """The rules of ``sets``, in order (a program of several modules' rules)."""
        return cls(name, [r for s in sets for r in s.rules],
                   dict(statements) if statements is not None else {k: v for s in sets for k, v in s.statements.items()})

    def stratum(self, name: str) -> List[Rule]:
        return [r for r in self.rules if r.stratum == name]

    def defining(self, relation: str) -> List[Rule]:
        return [r for r in self.rules if r.head_name == relation]

    def clauses(self) -> Dict[str, List[Rule]]:
        out: Dict[str, List[Rule]] = {}
        for r in self.rules:
            out.setdefault(r.clause, []).append(r)
        return out
