"""Evaluate a rule book stratum by stratum, keeping each relation's answers as facts.

pyDatalog resolves top-down and tables a sub-goal per call pattern and per
query; asked whole, a deep program re-derives the same lower relations under
many patterns. Here the relations are ordered by their dependencies (the
strongly connected components of the predicate graph, lowest first); each is
asked once with every argument free, and its rules are then replaced by its
answers. Later relations join against indexed facts: a rule whose body is a
join over kept relations (a linear recursion too, as a fixpoint) is answered
by joins.py in Python, every other (a recursion through several relations or
atoms, a relation that needs a bound argument) is asked of pyDatalog.
The rules stay what they are (the explainer walks their bodies); only the
evaluation is planned. Relations defined by an aggregate (``f[X] == min_(...)``)
keep their rule; the plain relation that reads one is kept.

    >>> order = plan(RULES.rules, ["value"])   # doctest: +SKIP
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import networkx as nx
from pyDatalog.util import DatalogError

from .syntax import Atom, FuncEq, Negated
from .engine import Program
from .gc_hold import sweep
from .joins import compile_rules
from .rules import Rule

#: Plain rules over kept relations are joined in Python (joins.py); False asks pyDatalog for every relation.
PYTHON_JOINS = True


def body_relations(rule: Rule) -> Set[str]:
    """Every relation and function the body reads (negated ones too)."""
    return {lit.name for lit in rule.body_literals if isinstance(lit, (Atom, Negated, FuncEq))}


def _positive(rule: Rule) -> Set[str]:
    return {lit.name for lit in rule.body_literals if isinstance(lit, Atom)}


def graph(rules: Sequence[Rule]) -> nx.DiGraph:
    """Relation dependency graph: an edge from each head to each relation its body uses."""
    g = nx.DiGraph()
    for r in rules:
        g.add_node(r.head_name)
        for b in body_relations(r):
            g.add_edge(r.head_name, b)
    return g


def plan(rules: Sequence[Rule], goals: Iterable[str]) -> List[List[str]]:
    """Components needed for ``goals``, dependencies first; each a list of relation names."""
    g = graph(rules)
    heads = {r.head_name for r in rules}
    needed = set()
    for goal in goals:
        if goal in g:
            needed |= {goal} | nx.descendants(g, goal)
    sub = g.subgraph(needed & heads)
    cond = nx.condensation(sub)
    order = list(reversed(list(nx.lexicographical_topological_sort(cond, key=lambda n: min(cond.nodes[n]["members"])))))
    return [sorted(cond.nodes[c]["members"]) for c in order]


def _surely_empty(rules: Sequence[Rule], sizes: Dict[str, int]) -> bool:
    """Every rule joins a relation already known to be empty, so asking would find nothing."""
    return all(any(sizes.get(b, -1) == 0 for b in _positive(r)) for r in rules)


def materialize(program: Program, rules: Sequence[Rule], components: List[List[str]], done: Set[str],
                parts: Optional[Dict[str, Tuple[int, Sequence]]] = None, progress=None) -> None:
    """Ask each plain relation of each component once and replace its rules by its answers.

    ``parts`` names relations asked in parts, one per value of one argument (``{"value": (2,
    POLICIES)}``): same answers, but pyDatalog's working set is one part's, not the whole relation's.
    ``progress(i, component)`` is called as the i-th component (from 1) starts.
    """
    parts = parts or {}
    by_head: Dict[str, List[Rule]] = {}
    for r in rules:
        by_head.setdefault(r.head_name, []).append(r)
    sizes = program.sizes
    for i, comp in enumerate(components, 1):
        if progress:
            progress(i, comp)
        todo = [name for name in comp if name not in done and isinstance(by_head[name][0].head_literal, Atom)]
        answers, engine_asked = {}, False
        for name in todo:
            n = len(by_head[name][0].head_literal.args)
            if len(comp) == 1 and _surely_empty(by_head[name], sizes):
                answers[name] = (n, [])
                continue
            # a plain rule over kept relations: joined in Python (joins.py), no question to pyDatalog
            join = compile_rules(by_head[name], program, by_head.get) if PYTHON_JOINS and len(comp) == 1 else None
            if join is not None:
                answers[name] = (n, join())
                continue
            engine_asked = True
            try:
                if name in parts:
                    at, values = parts[name]
                    answers[name] = (n, [row for v in values for row in program.relation(name, n, {at: v})])
                else:
                    answers[name] = (n, program.relation(name, n))
            except DatalogError:  # a relation that needs a bound argument keeps its rules
                pass
        for name, (n, rows) in answers.items():
            program.replace_with_facts(name, n, rows)
            if rows:  # readers (the explainer, goals) look a kept relation up by its first argument
                program.indexed(name, n).lookup(0, None)
            done.add(name)
        sweep(engine_asked)
