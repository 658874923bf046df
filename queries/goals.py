"""Goals (part of :class:`~provlog.queries.api.World`): ask, prove and refute a Datalog goal over
the facts and derived relations of any rulebook (logic/goal.py answers, explain/goals.py proves)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Optional

from ..errors import UnknownName
from ..grammar import QueryError, parse_goal
from ..logic import CORE, RULEBOOKS
from ..logic.goal import answer
from .locking import _locked


class WorldGoals:
    """Datalog goals of any rulebook: ``query``, ``holds``, ``prove``, ``refute``."""

    # -- ad-hoc queries ----------------------------------------------------------------------------
    @_locked
    def query(self, goal: str, rulebook: Optional[str] = None) -> List[Dict[str, Any]]:
        """Answer a Datalog goal over facts and derived relations; one dict per answer.

        >>> w.query("value(O, 'F', 'standard', X, S, R) & (X < 2)")   # doctest: +SKIP
        [{'O': 'tensor-eval', 'X': 1, 'S': 'F.4/tensor-eval/1', 'R': 'F.4'}]
        """
        parsed = parse_goal(goal)
        self._known_relations(goal, rulebook)
        names = parsed.variables()
        rows = answer(parsed, self.rulebook(rulebook).program)
        if rows == [()]:
            return [{}]
        out = [dict(zip(names, (_plain(v) for v in row))) for row in rows]
        return sorted(out, key=lambda d: [repr(d[k]) for k in names])

    def goal_notes(self, goal: str, rulebook: Optional[str] = None) -> List[str]:
        """Notes on a goal that may answer "no" by a typo: each string constant no fact, id or rule has."""
        from .hints import constant_notes

        return constant_notes(self, goal, rulebook)

    # -- rulebooks and goals -------------------------------------------------------------------------
    def _known_relations(self, goal: str, rulebook: Optional[str]) -> None:
        """Refuse a goal naming a relation the rulebook lacks, saying which it meant or which rulebook has it."""
        from .hints import unknown_relation_at

        book = self.rulebook_record(rulebook)
        found = unknown_relation_at(goal, rulebook, None if RULEBOOKS.get(book.name) is book else book)
        if found is not None:
            raise QueryError(*found)

    def rulebook_record(self, name: Optional[str]):
        """The :class:`~provlog.logic.rulebooks.Rulebook` a goal's ``--rulebook`` names (UnknownName if
        this world has none of that name)."""
        book = self.rulebooks.get(name or CORE.name)
        if book is None:
            raise UnknownName(f"unknown rulebook {name!r}; rulebooks: {', '.join(self.rulebooks)}")
        return book

    @_locked
    def rulebook(self, name: Optional[str] = None):
        """The evaluation of a rulebook over this world (None: the independence RULES): the
        derivation for the core, a :class:`~provlog.logic.rulebooks.RulebookRun` for another."""
        book = self.rulebook_record(name)
        if book is CORE:
            return self.derivation
        runs = self.__dict__.setdefault("_runs", {})
        if name not in runs:
            from ..logic.rulebooks import RulebookRun

            runs[name] = RulebookRun.run(self.facts, book)
        return runs[name]

    @_locked
    def holds(self, goal: str, rulebook: Optional[str] = None) -> bool:
        """Whether a Datalog goal has an answer (QueryError or UnknownName if it cannot be asked)."""
        return bool(self.query(goal, rulebook))

    @_locked
    def prove(self, goal: str, rulebook: Optional[str] = None, fmt: str = "text",
              depth: Optional[int] = None, start: Optional[int] = None) -> str:
        """The proof of every answer of an atom goal, in any rulebook: text, json (a list of
        DAGs) or dot (one digraph, a cluster per answer); ``depth``/``start`` cut every format."""
        from ..explain import to_dot, to_json, to_text
        from ..explain.goals import prove
        import json as _json

        parsed = parse_goal(goal)  # refuse anything that is not a Datalog goal, before loading a rulebook
        self._known_relations(goal, rulebook)
        roots, ex = prove(self.rulebook(rulebook), parsed)
        if not roots:
            return "no: the goal has no answer"
        if fmt == "json":
            if start is not None:  # one sub-proof, as `why --from`
                return _json.dumps([to_json(ex.graph, roots, depth, start)], indent=2, sort_keys=True, ensure_ascii=False)
            return _json.dumps([to_json(ex.graph, r, depth) for r in roots], indent=2, sort_keys=True, ensure_ascii=False)
        if fmt == "dot":
            return to_dot(ex.graph, roots, depth, start)
        return to_text(ex.graph, roots, depth, start)

    @_locked
    def refute(self, goal: str, rulebook: Optional[str] = None) -> List[Dict[str, Any]]:
        """Why a ground goal does not hold: for each rule, the first condition that fails."""
        from ..explain.goals import refute

        parsed = parse_goal(goal)
        self._known_relations(goal, rulebook)
        return refute(self.rulebook(rulebook), parsed)


def _plain(v):
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, tuple):
        return list(v)
    return v
