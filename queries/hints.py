"""Hints for a goal that names what is not there: an unknown relation, a constant no fact or rule has.

Read from the goal's text, before anything is asked, so the message can say
what to write instead (the goal grammar itself is grammar/query.lark).

    >>> unknown_relation("lab_ownr(X, L)")
    'query: no relation lab_ownr/2 (did you mean lab_owner/2, lab_investor/3?); `provlog relations` lists them'
    >>> unknown_relation("finding(R, A, C, K)")
    'query: finding/4 is in rulebook advice: add --rulebook advice'
    >>> unknown_relation("lab_owner(X, L)") is None
    True
"""
from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Tuple

from ..explain.clauses import split_top
from ..facts import DIMS
from ..facts.schema import POLICY_NAMES
from ..logic import RULEBOOK
from .reference import CORE, relations, rulebook_flag, rulebook_names

_STRING = re.compile(r"'([^'\\\n]*)'|\"([^\"\\\n]*)\"")
_USE = re.compile(r"\b([a-z][a-z0-9_]*)\s*([(\[])")


@lru_cache(maxsize=None)
def _arities(rulebook: str) -> Dict[str, int]:
    """relation -> arity as a goal writes it (a function ``f[A, B] == X`` takes two in its brackets)."""
    return {r.name: r.arity - 1 if "[" in r.signature else r.arity for r in relations(rulebook)}


def uses(goal: str) -> List[Tuple[str, int]]:
    """(relation, arity) of each atom or function the goal names, in order."""
    text = _STRING.sub("''", goal)
    out = []
    for m in _USE.finditer(text):
        close = ")" if m.group(2) == "(" else "]"
        depth, i = 0, m.end() - 1
        for i in range(m.end() - 1, len(text)):
            depth += text[i] in "(["
            depth -= text[i] in ")]"
            if depth == 0:
                break
        inner = text[m.end():i] if i < len(text) and text[i] == close else ""
        out.append((m.group(1), len(split_top(inner, ","))))
    return out


def unknown_relation(goal: str, rulebook: Optional[str] = None) -> Optional[str]:
    """The message for the first relation of ``goal`` the rulebook lacks (name or arity), or None."""
    book = rulebook or CORE
    known = _arities(book)
    for name, n in uses(goal):
        if known.get(name) == n:
            continue
        others = [b for b in rulebook_names() if b != book and _arities(b).get(name) == n]
        if others:
            fix = "leave out --rulebook" if others[0] == CORE else f"add --rulebook {others[0]}"
            return f"query: {name}/{n} is in rulebook {others[0]}: {fix}"
        if name in known:
            return (f"query: {name} takes {known[name]} argument{'s' if known[name] != 1 else ''}, not {n}; "
                    f"`provlog relations{rulebook_flag(rulebook)}` shows it")
        near = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(f'{x}/{known[x]}' for x in near)}?)" if near else ""
        return f"query: no relation {name}/{n}{hint}; `provlog relations{rulebook_flag(rulebook)}` lists them"
    return None


def constant_notes(world, goal: str, rulebook: Optional[str] = None) -> List[str]:
    """A note for each string constant of ``goal`` that no fact, id or rule of ``world`` has, with the nearest."""
    known = sorted(_constants(world, rulebook))
    notes = []
    for c in unknown_constants(goal, known):
        near = difflib.get_close_matches(c, known, n=1, cutoff=0.75)
        notes.append(f"{c!r} names no id or value in this world or its rules"
                     + (f": did you mean {near[0]!r}?" if near else ": check the spelling"))
    return notes


def _constants(world, rulebook: Optional[str]) -> set:
    """Every string a goal may match: the facts' ids, values and flags, derived signal ids, the rules' constants."""
    out = set(world.derivation.derived) | set(POLICY_NAMES) | set(DIMS)
    for f in world.facts:
        out.add(f.fid)
        out.update(f.flags)
        for v in f.values.values():
            out.update(x for x in (v if isinstance(v, (tuple, list, frozenset)) else (v,)) if isinstance(x, str))
    book = RULEBOOK if rulebook in (None, CORE) else world.rulebook(rulebook).rules
    for r in book.rules:
        out.update(re.findall(r"'([^']*)'", r.text))  # rules quote their constants with '...'
    if rulebook not in (None, CORE):  # and the rows a rulebook adds from its tables (advice: the categories' routes)
        from ..logic.edb import Origins

        run = world.rulebook(rulebook)
        for rows in run.book.rows(world.facts, Origins()).values():
            out.update(v for row in rows for v in row if isinstance(v, str))
    return out


def unknown_constants(goal: str, known: Iterable[str]) -> List[str]:
    """The string constants of ``goal`` that are not in ``known`` (a typo answers "no" silently)."""
    have = set(known)
    out: List[str] = []
    for m in _STRING.finditer(goal):
        s = m.group(1) if m.group(1) is not None else m.group(2)
        if s not in have and s not in out:
            out.append(s)
    return out

