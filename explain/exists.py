"""Whether a rule body has a solution at all, found fast: the refutations' and proofs' quick "no".

A proof or a refutation reads the *first* solution of a body in
:meth:`Explainer.solve <provlog.explain.proof.Explainer.solve>`'s order (the
smallest-proof choice and the text of "what holds" depend on which one), so
that order stays. But whether there is one does not depend on the order, and
a body with none is searched to the end: a clamp's refutation of
``vcite(S, 'all', Src, Sp, 'confirmed', 1, Pub)`` read every confirmed tier-1
source's citations, one lookup each, to find that ``S`` cites none of them.
:func:`satisfiable` joins the literal with the fewest rows next (``S``'s own
citations first) and says the same yes or no.

    >>> satisfiable(ex, body, {"S": "sg1", "St": "confirmed", "T": 1})   # doctest: +SKIP
    False
"""
from __future__ import annotations

from typing import Dict, Sequence

from ..logic.syntax import Atom, Compare, FuncEq, Negated, solve_compare, variables_needed


def satisfiable(ex, body: Sequence, env: Dict) -> bool:
    """Whether ``ex.solve(body, env)`` yields anything. Where a test of ``body`` reads a variable no
    literal of it binds (a prefix of a rule cut before its binder), when the test runs decides what it
    means, so :meth:`solve`'s own order answers."""
    if not _safe(body, env):
        return next(iter(ex.solve(body, env)), None) is not None
    return _any(ex, list(body), env)


def _safe(body: Sequence, env: Dict) -> bool:
    """Every test's variables are bound by ``env`` or by the body's atoms and assignments, so each runs
    with its variables bound whatever the order, and every order has the same solutions."""
    bound = set(env)
    for lit in body:
        if isinstance(lit, (Atom, FuncEq)):
            bound.update(lit.variables())
    tests = [lit for lit in body if isinstance(lit, (Negated, Compare))]
    grew = True
    while grew:  # assignments (X == Y + 1) bind in turn
        grew = False
        for lit in tests:
            if (isinstance(lit, Compare) and lit.assigns and lit.assigns not in bound
                    and set(lit.right.variables()) <= bound):
                bound.add(lit.assigns)
                grew = True
    return all(set(lit.variables()) <= bound for lit in tests)


def _any(ex, body: list, env: Dict) -> bool:
    if not body:
        return True
    for i, lit in enumerate(body):  # a test whose variables are bound decides at once
        if isinstance(lit, (Negated, Compare)) and all(v in env for v in variables_needed(lit, env)):
            rest = body[:i] + body[i + 1:]
            if isinstance(lit, Negated):
                return not ex.rows(lit.name, [ex._value(a, env) for a in lit.args]) and _any(ex, rest, env)
            e = solve_compare(lit, env)
            return e is not None and _any(ex, rest, e)
    best = None
    for i, lit in enumerate(body):  # else the atom with the fewest rows: none, and there is no solution
        if isinstance(lit, (Atom, FuncEq)):
            args = lit.args + (lit.value,) if isinstance(lit, FuncEq) else lit.args
            rows = ex.rows(lit.name, [ex._value(a, env) for a in args], func=isinstance(lit, FuncEq))
            if not rows:
                return False
            if best is None or len(rows) < len(best[2]):
                best = (i, args, rows)
    if best is None:  # pragma: no cover - _safe leaves no test unbound once the atoms are joined
        return next(iter(ex.solve(body, env)), None) is not None
    i, args, rows = best
    rest = body[:i] + body[i + 1:]
    return any(e is not None and _any(ex, rest, e) for e in (ex._match(args, row, env) for row in rows))
