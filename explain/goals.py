"""Prove or refute any goal of any rulebook: the generic why and why-not.

``prove`` builds the proof of each answer of an atom goal; ``refute`` says,
for an atom that does not hold, for each rule that could derive it, the first
condition that fails after the longest part of the body that holds (and, for
a derived condition, why it fails in turn).

    >>> refute(run, "finding('r-example', 'bank-a', 'product-recommendation', 'PR.2')")   # doctest: +SKIP
    [{'rule': 'PR.2', 'holds': [...], 'fails': 'r-example makes no suitability claim', 'because': [...]}]
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

from ..grammar import Goal, QueryError, parse_goal
from ..logic.syntax import Atom, Compare, FuncEq, Negated, Var
from ..logic.goal import check_names
from .exists import satisfiable
from .proof import _FREE, Explainer, _plain, condition_text


def one_atom(goal: Union[str, Goal], program) -> Atom:
    """The one atom of a goal that must be one (prove, refute, why --goal), its relation known with
    its arity in ``program``; else a located :class:`QueryError`."""
    if isinstance(goal, str):
        goal = parse_goal(goal)
    lits = goal.literals
    if len(lits) != 1 or not isinstance(lits[0], Atom):
        lit = lits[1] if len(lits) > 1 else lits[0]
        kinds = {Negated: "a negation", Compare: "a comparison", FuncEq: "a function lookup"}
        got = f"{len(lits)} literals" if len(lits) > 1 else f"{kinds[type(lit)]} {lit}"
        raise QueryError(f"expected one atom like finding(R, A, C, K), got {got}", lit.column)
    check_names(goal, program)
    return lits[0]


def prove(run, goal: Union[str, Goal], limit: int = 20) -> Tuple[List[str], Explainer]:
    """Proof roots (one per answer, at most ``limit``) of an atom goal, and the explainer holding the graph."""
    atom = one_atom(goal, run.program)
    ex = Explainer(run)
    pattern = [ex._value(a, {}) for a in atom.args]
    roots = []
    for row in ex.rows(atom.name, pattern)[:limit]:
        roots.append(ex.prove_atom(atom.name, row))
    return roots, ex


def refute(run, goal: str, depth: int = 2) -> List[Dict]:
    """Why an atom does not hold: per rule, what holds and the first condition that fails.

    A goal's variables mean "for any value" (``finding('r1', 'bank-a', C, K)``:
    no category, no clause). Where the failing condition is itself a derived
    atom, ``because`` refutes it in turn, ``depth`` levels down, so the answer
    ends at the condition that decides (a permission that covers the wrapper,
    a missing suitability claim). A rulebook's ``meanings`` phrase each
    condition as people read it.
    """
    atom = one_atom(goal, run.program)
    ex = Explainer(run)
    pattern = [ex._value(a, {}) for a in atom.args]
    return _public(_refute(ex, atom.name, pattern, _meanings(run), depth))


def _public(ways: List[Dict]) -> List[Dict]:
    """A refutation as ``refute`` prints it (docs/json.md): without what why-not reads of it."""
    return [{k: (_public(v) if k == "because" else v) for k, v in w.items() if k not in _AUX[1:] + ("applies",)}
            for w in ways]


def refute_row(ex: Explainer, name: str, pattern: List, depth: int = 2) -> List[Dict]:
    """:func:`refute` of ``name(*pattern)`` over an explainer already built (``None`` in
    ``pattern`` means any value). A way whose failing condition only tests values the
    goal fixes (``B > 0`` for a goal with B = 0) carries ``"applies": False``: that rule
    can never give this answer, whatever the facts say."""
    return _refute(ex, name, [_FREE if v is None else v for v in pattern], _meanings(ex.d), depth)


#: keys of a way that say how it failed, not what failed (two rules failing the same way are one)
_AUX = ("template", "open", "missing", "also")


def _meanings(run) -> Dict[str, Tuple[str, str]]:
    return run.book.meanings


def _bind(ex, args, pattern) -> Optional[Dict]:
    """Match a rule head against a goal pattern whose free places (variables) match anything."""
    bound = [(a, v) for a, v in zip(args, pattern) if v is not _FREE]
    return ex._match([a for a, _ in bound], [v for _, v in bound], {})


def _refute(ex, name: str, pattern: List, meanings, depth: int) -> List[Dict]:
    if ex.rows(name, pattern):
        return []
    shown = ", ".join("_" if v is _FREE else _plain(v) for v in pattern)
    if name in ex.edb:
        return [{"rule": None, "holds": [], "fails": f"no fact {name}({shown}) is stated"}]
    out = []
    for rule, head, body in ex.rules.get(name, []):
        if not isinstance(head, Atom):
            continue
        env = _bind(ex, head.args, pattern)
        if env is None:
            continue
        # the longest prefix that holds (asked fast: whether one holds does not depend on the order),
        # then its first solution in solve's order, as "what holds" reads it
        best_k = 0
        while best_k < len(body) and satisfiable(ex, body[:best_k + 1], env):
            best_k += 1
        best_env = next(iter(ex.solve(body[:best_k], env))) if best_k else env
        failing = body[best_k] if best_k < len(body) else None
        holds = [_show(l, best_env, holding=True, meanings=meanings, ex=ex, clause=rule.clause) for l in body[:best_k]]
        way = {"rule": rule.clause, "template": rule.template, "holds": holds,
               "fails": _show(failing, best_env, meanings=meanings, ex=ex, clause=rule.clause)
               if failing is not None else "(holds)"}
        if isinstance(failing, Atom):  # what the failing condition leaves open: "for any" these
            way["open"] = [a.name for a in failing.args if isinstance(a, Var) and a.name not in best_env]
            if failing.name in ex.edb:  # a fact no statement gives: which one
                way["missing"] = (failing.name, [None if v is _FREE else v for v in
                                                 (ex._value(a, best_env) for a in failing.args)])
                # the rule's later facts that are missing as well, whatever the failing one would bind
                # (F.3's fee policies: all three may be)
                also = []
                for l in body[best_k + 1:]:
                    if isinstance(l, Atom) and l.name in ex.edb:
                        row = [ex._value(a, env) for a in l.args]
                        if not ex.rows(l.name, row):
                            also.append((l.name, [None if v is _FREE else v for v in row]))
                if also:
                    way["also"] = also
        fixed = [l for l in body if isinstance(l, Compare) and set(l.variables()) <= set(env)]
        if any(next(iter(ex.solve([l], env)), None) is None for l in fixed):
            way["applies"] = False  # a test of only what the goal fixes fails: no fact could make it hold
        if (depth > 0 and isinstance(failing, Atom) and failing.name != name
                and any(r.clause != "def" for r, _, _ in ex.rules.get(failing.name, ()))):  # a `def` only names a concept
            because = _refute(ex, failing.name, [ex._value(a, best_env) for a in failing.args], meanings, depth - 1)
            if because:
                way["because"] = because
        if not any({k: v for k, v in w.items() if k not in _AUX} == {k: v for k, v in way.items() if k not in _AUX}
                   for w in out):  # two rules can fail the same way
            out.append(way)
    if not out:
        out.append({"rule": None, "holds": [], "fails": f"no rule derives {name}({shown})"})
    return out


def render(ways: List[Dict], indent: str = "") -> List[str]:
    """A refutation as lines: per rule, the failing condition, what held, and (indented) why it fails."""
    lines = []
    for wy in ways:
        head = f"{wy['rule']}: " if wy.get("rule") and wy["rule"] != "def" else ""
        held = "; ".join(wy.get("holds", []))
        lines.append(f"{indent}{'because ' if indent else ''}{head}{wy['fails']}" + (f"  (holds: {held})" if held else ""))
        lines += render(wy.get("because", []), indent + "  ")
    return lines


def _show(lit, env, holding: bool = False, meanings=None, ex=None, clause=None) -> str:
    """A literal with its bindings: as it holds (``holding``), or as the condition that fails."""
    def val(a, plain=False):
        if isinstance(a, Var):
            v = env.get(a.name)
            return (ex.show(v, clause, a.name) if ex is not None else _plain(v)) if v is not None else a.name
        if plain:  # a constant of the rule, as the meaning reads it
            return ex.show(a.value, clause) if ex is not None else _plain(a.value)
        return str(a)

    if isinstance(lit, (Atom, Negated)):
        # an atom that holds (a positive one holding, a negated one failing) reads as it holds
        said = (meanings or {}).get(lit.name, (None, None))[0 if holding != lit.negated else 1]
        if callable(said):  # a phrasing that depends on what the question leaves open (None)
            return said(*(None if isinstance(a, Var) and env.get(a.name) is None else val(a, True) for a in lit.args))
        if said is not None:
            return said.format(*(val(a, True) for a in lit.args))
        if not holding and lit.negated and ex is not None and all(not isinstance(a, Var) or a.name in env for a in lit.args):
            # an absence that fails: what holds instead, as its rule's template reads it
            return ex.graph.nodes[ex.prove_atom(lit.name, tuple(ex._value(a, env) for a in lit.args))]["label"]
        text = f"{lit.name}({', '.join(val(a) for a in lit.args)})"
        if holding:
            return f"no {text}" if lit.negated else text
        return f"{text} holds" if lit.negated else f"no {text}"
    if isinstance(lit, FuncEq):
        text = f"{lit.name}[{', '.join(val(a) for a in lit.args)}] == {val(lit.value)}"
        return text if holding else f"{text} does not hold"
    shown = condition_text(lit.text, env, ex.words_for(clause) if ex is not None else None,
                           (lambda var, v: ex.show(v, clause, var)) if ex is not None else None)
    return shown if holding else f"not so: {shown}"
