"""Hints for a goal that names what is not there: an unknown relation, a constant no fact or rule has.

Read from the parsed goal (grammar/query.py), before anything is asked, so the
message can say what to write instead.

    >>> unknown_relation("lab_ownr(X, L)")
    'no relation lab_ownr/2 (did you mean lab_owner/2, lab_investor/2?); `provlog relations` lists them'
    >>> unknown_relation("lab_owner(X, L) & finding(R, A, C, K)")
    'finding/4 is in rulebook advice: add --rulebook advice'
    >>> unknown_relation_at("lab_owner(X, L) & finding(R, A, C, K)")[1]
    19
    >>> unknown_relation("lab_owner(X, L)") is None
    True
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Tuple

from ..facts import DIMS
from ..facts.schema import POLICY_NAMES
from ..grammar.query import Atom, Compare, Const, FuncEq, Negated
from ..grammar.read_goal import parse_goal
from ..logic import RULES
from .reference import CORE, relations, rulebook_flag, rulebook_names

@lru_cache(maxsize=None)
def _arities(rulebook: str) -> Dict[str, int]:
    """relation -> arity as a goal writes it (a function ``f[A, B] == X`` takes two in its brackets)."""
    return _goal_arities(rulebook)


def _goal_arities(rulebook) -> Dict[str, int]:
    """:func:`_arities` of a rulebook's name or record, not cached (a record a World was given)."""
    return {r.name: r.arity - 1 if "[" in r.signature else r.arity for r in relations(rulebook)}


def uses(goal: str) -> List[Tuple[str, int]]:
    """(relation, arity) of each atom or function the goal names, in order."""
    return [(name, n) for name, n, _ in _uses(goal)]


def _uses(goal: str) -> List[Tuple[str, int, int]]:
    out = []
    for lit in parse_goal(goal).literals:
        lit = lit.atom if isinstance(lit, Negated) else lit
        if isinstance(lit, (Atom, FuncEq)):
            out.append((lit.name, len(lit.args), lit.column))
    return out


def _strings(goal: str) -> List[str]:
    """The goal's string constants, in order."""
    terms = []
    for lit in parse_goal(goal).literals:
        lit = lit.atom if isinstance(lit, Negated) else lit
        if isinstance(lit, Atom):
            terms += lit.args
        elif isinstance(lit, FuncEq):
            terms += list(lit.args) + [lit.value]
        elif isinstance(lit, Compare):
            terms += [lit.left, lit.right]
    return [t.value for t in terms if isinstance(t, Const) and isinstance(t.value, str)]


def unknown_relation(goal: str, rulebook: Optional[str] = None) -> Optional[str]:
    """The message for the first relation of ``goal`` the rulebook lacks (name or arity), or None."""
    found = unknown_relation_at(goal, rulebook)
    return found[0] if found else None


def unknown_relation_at(goal: str, rulebook: Optional[str] = None, record=None) -> Optional[Tuple[str, int]]:
    """(message, column of the literal) for the first relation of ``goal`` the rulebook lacks, or None.
    ``record``: the rulebook itself, where it is not one of logic/registry.py's (a World was given it)."""
    book = rulebook or CORE
    known = _arities(book) if record is None else _goal_arities(record)
    for name, n, column in _uses(goal):
        if known.get(name) == n:
            continue
        others = [b for b in rulebook_names() if b != book and _arities(b).get(name) == n] if record is None else []
        if others:
            fix = "leave out --rulebook" if others[0] == CORE else f"add --rulebook {others[0]}"
            return f"{name}/{n} is in rulebook {others[0]}: {fix}", column
        if name in known:
            return (f"{name} takes {known[name]} argument{'s' if known[name] != 1 else ''}, not {n}; "
                    f"`provlog relations{rulebook_flag(rulebook)}` shows it"), column
        near = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(f'{x}/{known[x]}' for x in near)}?)" if near else ""
        return f"no relation {name}/{n}{hint}; `provlog relations{rulebook_flag(rulebook)}` lists them", column
    return None


def constant_notes(world, goal: str, rulebook: Optional[str] = None) -> List[str]:
    """A note for each string constant of ``goal`` that no fact, id or rule of ``world`` has, with the nearest."""
    cache = world.__dict__.setdefault("_goal_constants", {})  # check asks for every expect goal of a world
    if rulebook not in cache:
        cache[rulebook] = frozenset(_constants(world, rulebook))
    have = cache[rulebook]
    notes = []
    for c in unknown_constants(goal, have):
        near = difflib.get_close_matches(c, sorted(have), n=1, cutoff=0.75)
        notes.append(f"{c!r} names no id or value in this world or its rules"
                     + (f": did you mean {near[0]!r}?" if near else ": check the spelling"))
    return notes


def _constants(world, rulebook: Optional[str]) -> set:
    """Every string a goal may match: the facts' ids, values and flags, the rules' constants, and
    derived signal ids (core) or the rows a rulebook adds from its tables (advice: the categories' routes).
    Nothing is derived for a rulebook's goal: its rules are read, not run."""
    from ..logic.edb import Origins

    out = set(POLICY_NAMES) | set(DIMS)
    for f in world.facts:
        out.add(f.fid)
        out.update(f.flags)
        for v in f.values.values():
            out.update(x for x in (v if isinstance(v, (tuple, list, frozenset)) else (v,)) if isinstance(x, str))
    if rulebook in (None, CORE):
        out.update(world.derivation.derived)
        rules = RULES.rules
    else:
        if rulebook not in world.rulebooks:
            world.rulebook(rulebook)  # UnknownName, as everywhere
        book = world.rulebooks[rulebook]
        rules = book.rules.rules
        for rows in book.rows(world.facts, Origins()).values():
            out.update(v for row in rows for v in row if isinstance(v, str))
    for r in rules:
        out.update(re.findall(r"'([^']*)'", r.text))  # rules quote their constants with '...'
    return out


def unknown_constants(goal: str, known: Iterable[str]) -> List[str]:
    """The string constants of ``goal`` that are not in ``known`` (a typo answers "no" silently)."""
    have = known if isinstance(known, frozenset) else set(known)
    out: List[str] = []
    for s in _strings(goal):
        if s not in have and s not in out:
            out.append(s)
    return out

