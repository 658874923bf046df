"""Prove or refute any goal of any rulebook: the generic why and why-not.

``prove`` builds the proof of each answer of an atom goal; ``refute`` says,
for a ground atom that does not hold, for each rule that could derive it,
the first condition that fails after the longest part of the body that holds.

    >>> refute(run, "finding('r1', 'bank-a', 'product-recommendation')")   # doctest: +SKIP
    [{'rule': 'PR.2', 'holds': [...], 'fails': 'steer(r1) ...'}]
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from .clauses import Atom, Compare, FuncEq, is_var, parse_literal
from .proof import Explainer, _plain


class GoalError(ValueError):
    """A goal that is not one atom, or names no relation of the rulebook."""


def _atom(goal: str) -> Atom:
    lit = parse_literal(goal.strip())
    if not isinstance(lit, Atom) or lit.negated:
        raise GoalError(f"expected one atom like finding(R, A, C), got {goal!r}")
    return lit


def prove(run, goal: str, limit: int = 20) -> Tuple[List[str], Explainer]:
    """Proof roots (one per answer, at most ``limit``) of an atom goal, and the explainer holding the graph."""
    atom = _atom(goal)
    ex = Explainer(run)
    if atom.name not in ex.rules and atom.name not in ex.edb:
        raise GoalError(f"no relation {atom.name!r} in this rulebook")
    pattern = [ex._value(a, {}) for a in atom.args]
    roots = []
    for row in ex.rows(atom.name, pattern)[:limit]:
        roots.append(ex.prove_atom(atom.name, row))
    return roots, ex


def refute(run, goal: str) -> List[Dict]:
    """Why a ground atom does not hold: per rule, what holds and the first condition that fails."""
    atom = _atom(goal)
    ex = Explainer(run)
    if any(is_var(a) for a in atom.args):
        raise GoalError("why-not needs a ground goal (no variables)")
    row = tuple(ex._value(a, {}) for a in atom.args)
    if ex.rows(atom.name, list(row)):
        return []
    if atom.name in ex.edb:
        return [{"rule": None, "holds": [], "fails": f"no fact {atom.name}({', '.join(map(_plain, row))}) is stated"}]
    out = []
    for rule, head, body in ex.rules.get(atom.name, []):
        if not isinstance(head, Atom):
            continue
        env = ex._match(head.args, row, {})
        if env is None:
            continue
        best_k, best_env = 0, env
        for k in range(1, len(body) + 1):
            sol = next(iter(ex.solve(body[:k], env)), None)
            if sol is None:
                break
            best_k, best_env = k, sol
        failing = body[best_k] if best_k < len(body) else None
        holds = [_show(l, best_env, holding=True) for l in body[:best_k]]
        out.append({"rule": rule.clause, "template": rule.template,
                    "holds": holds, "fails": _show(failing, best_env) if failing is not None else "(holds)"})
    if not out:
        out.append({"rule": None, "holds": [], "fails": f"no rule derives {atom.name} with these arguments"})
    return out


def _show(lit, env, holding: bool = False) -> str:
    """A literal with its bindings: as it holds (``holding``), or as the condition that fails."""
    def val(a):
        v = env.get(a) if is_var(a) else None
        return _plain(v) if v is not None else a

    if isinstance(lit, Atom):
        text = f"{lit.name}({', '.join(val(a) for a in lit.args)})"
        if holding:
            return f"no {text}" if lit.negated else text
        return f"{text} holds" if lit.negated else f"no {text}"
    if isinstance(lit, FuncEq):
        text = f"{lit.name}[{', '.join(val(a) for a in lit.args)}] == {val(lit.value)}"
        return text if holding else f"{text} does not hold"
    shown = lit.expr
    for k in sorted(env, key=len, reverse=True):
        shown = shown.replace(k, _plain(env[k]))
    return shown if holding else f"condition {shown} is false"
