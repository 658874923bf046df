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

import heapq
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .syntax import Atom, FuncEq, Negated
from .engine import Program, pydatalog
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


def graph(rules: Sequence[Rule]) -> Dict[str, Set[str]]:
    """Relation dependency graph: each head -> the relations its bodies use (an edge to each)."""
    g: Dict[str, Set[str]] = {}
    for r in rules:
        g.setdefault(r.head_name, set()).update(body_relations(r))
    return g


def plan(rules: Sequence[Rule], goals: Iterable[str]) -> List[List[str]]:
    """Components needed for ``goals``, dependencies first; each a list of relation names.

    The order is networkx's ``lexicographical_topological_sort`` of the condensation (keyed by each
    component's least name), reversed; done here because importing networkx cost a derivation 0.1 s.
    """
    g = graph(rules)
    needed: Set[str] = set()
    todo = [goal for goal in goals if goal in g or any(goal in body for body in g.values())]
    while todo:  # every goal and every relation it reaches
        n = todo.pop()
        if n not in needed:
            needed.add(n)
            todo.extend(g.get(n, ()))
    sub = {n: {b for b in g[n] if b in needed and b in g} for n in needed if n in g}
    comps = _components(sub)
    comp_of = {n: i for i, comp in enumerate(comps) for n in comp}
    into = [0] * len(comps)  # edges into each component from another (head -> body)
    succ: List[Set[int]] = [set() for _ in comps]
    for n, bodies in sub.items():
        for b in bodies:
            if comp_of[b] != comp_of[n] and comp_of[b] not in succ[comp_of[n]]:
                succ[comp_of[n]].add(comp_of[b])
                into[comp_of[b]] += 1
    ready = [(min(comps[i]), i) for i in range(len(comps)) if not into[i]]
    heapq.heapify(ready)
    order: List[int] = []
    while ready:
        _, i = heapq.heappop(ready)
        order.append(i)
        for j in succ[i]:
            into[j] -= 1
            if not into[j]:
                heapq.heappush(ready, (min(comps[j]), j))
    return [sorted(comps[i]) for i in reversed(order)]


def _components(g: Dict[str, Set[str]]) -> List[Set[str]]:
    """The strongly connected components of ``g`` (Tarjan's, without recursion)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[Set[str]] = []
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            n, it = work[-1]
            nxt = next((m for m in it if m not in index or m in on), None)
            if nxt is not None:
                if nxt in index:
                    low[n] = min(low[n], index[nxt])
                else:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(g[nxt]))))
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[n])
            if low[n] == index[n]:
                comp = set()
                while True:
                    m = stack.pop()
                    on.discard(m)
                    comp.add(m)
                    if m == n:
                        break
                out.append(comp)
    return out


def _surely_empty(rules: Sequence[Rule], sizes: Dict[str, int]) -> bool:
    """Every rule joins a relation already known to be empty, so asking would find nothing."""
    return all(any(sizes.get(b, -1) == 0 for b in _positive(r)) for r in rules)


def materialize(program: Program, rules: Sequence[Rule], components: List[List[str]], done: Set[str],
                parts: Optional[Dict[str, Tuple[int, Sequence]]] = None, progress=None,
                keys: Optional[Dict[str, Tuple[int, Sequence]]] = None) -> None:
    """Ask each plain relation of each component once and replace its rules by its answers.

    ``parts`` names relations asked in parts, one per value of one argument (``{"value": (2,
    POLICIES)}``): same answers, but pyDatalog's working set is one part's, not the whole relation's.
    ``progress(i, component)`` is called as the i-th component (from 1) starts. ``keys`` names
    relations of which only the rows whose argument i is one of the values are wanted (``{"value": (0,
    ["o1"])}``: an edit's orgs, logic/edit.py); a relation joins.py cannot join from them is asked whole.
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
            join = None
            if PYTHON_JOINS and len(comp) == 1:
                if keys and name in keys:
                    join = compile_rules(by_head[name], program, by_head.get, keys=keys[name])
                join = join or compile_rules(by_head[name], program, by_head.get)
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
            except pydatalog().DatalogError:  # a relation that needs a bound argument keeps its rules
                pass
        for name, (n, rows) in answers.items():
            program.replace_with_facts(name, n, rows)
            if rows:  # readers (the explainer, goals) look a kept relation up by its first argument
                program.indexed(name, n).lookup(0, None)
            done.add(name)
        sweep(engine_asked)
