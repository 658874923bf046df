"""Warnings from ``provlog check``: what a world may say but probably does not mean.

A warning is not an error: the world loads, every answer stands, and
``check`` still exits 0; it prints each warning after its ``ok`` line. The
codes are listed in provlog.facts.errors.WARNINGS (and docs/errors.md).

- **W100** a recorded signal that cites no source (no ``cite`` statement and no
  ``src=``). Nothing can admit it under any policy, so it never sets a bound,
  and ``why`` can only say that no usable source backs it.
- **W110** a quoted constant in an ``expect holds|fails`` goal that names
  nothing provlog knows: no value of any statement of the world (ids, enum
  values, dates, ...), no word of the fact language (dimensions, policies,
  bands, roles, every choice of a declared attribute), no constant written in
  a rule of any rulebook. A typo in an id otherwise makes ``expect fails``
  pass for the wrong reason and ``expect holds`` fail without a hint.
  The goal is read by the goal grammar (grammar/query.lark); every quoted
  constant is compared, whatever its position, since relations do not
  declare which argument holds an id.

    >>> from provlog import World                                   # doctest: +SKIP
    >>> [str(w) for w in warnings(World.load("facts/worlds/example"))]  # doctest: +SKIP
    []
"""
from __future__ import annotations

import re
from typing import Callable, List, Set

from lark import Token

from ..facts import Diagnostic, FactSet
from ..facts import schema as S
from ..facts.values import DIMS
from ..grammar.query import _parser as _goal_parser

_RULE_CONSTANT = re.compile(r"'([^'\\]*)'")


def warnings(world) -> List[Diagnostic]:
    """Every warning of a loaded :class:`~provlog.queries.api.World`, in file order."""
    return sorted(uncited_signals(world.facts) + unknown_goal_constants(world.facts, _rulebook_constants),
                  key=Diagnostic.sort_key)


def _rulebook_constants(facts: FactSet) -> Set[str]:
    """The constants the rules know: written in a rule, or in a row a rulebook adds (its tables)."""
    from ..logic import RULEBOOK
    from ..logic.edb import Origins
    from ..logic.rulebooks import REGISTRY

    texts = [r.text for r in RULEBOOK.rules] + [r.text for b in REGISTRY.values() for r in b.rules.rules]
    out = {c for t in texts for c in _RULE_CONSTANT.findall(t)}
    for book in REGISTRY.values():
        for rows in book.rows(facts, Origins()).values():
            out.update(v for row in rows for v in row if isinstance(v, str))
    return out


def uncited_signals(facts: FactSet) -> List[Diagnostic]:
    """W100: recorded signals with neither a ``cite`` nor ``src=``."""
    cited = {f["signal"] for f in facts.of("cite")}
    return [Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W100",
                       f"signal {f['id']} cites no source: add `cite {f['id']} <source>` or src=<source>; "
                       "until then no policy admits it and it sets no bound")
            for f in facts.of("signal") if not f.src and f["id"] not in cited]


def unknown_goal_constants(facts: FactSet, rules: Callable[[FactSet], Set[str]] = lambda facts: set()
                           ) -> List[Diagnostic]:
    """W110: quoted goal constants that name nothing the world, the language or ``rules(facts)`` know."""
    expects = [f for f in facts.of("expect") if f["what"] in ("holds", "fails")]
    if not expects:
        return []
    known = _known(facts) | rules(facts)
    out = []
    for f in expects:
        tree = _goal_parser().parse(f["goal"])
        for tok in tree.scan_values(lambda t: isinstance(t, Token) and t.type == "STRING"):
            const = str(tok)[1:-1]
            if const not in known:
                out.append(Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W110",
                                      f"goal constant {const!r} names nothing in the world or the rules "
                                      "(a typo? no id, value, policy, dimension or rule constant is spelled so)"))
    return out


def _known(facts: FactSet) -> Set[str]:
    """Every value of every statement, and every word of the fact language."""
    known: Set[str] = set(DIMS) | set(S.POLICY_NAMES) | set(S.ROLE_NAMES) | set(S.BANDS)
    for decl in S.DECLS.values():
        known |= decl.flags
        for fld in decl.positional + tuple(decl.attrs.values()):
            known.update(getattr(fld.parse, "choices", ()))
    for f in facts:
        known.update(f.flags)
        known.update(f.src)
        for v in f.values.values():
            if isinstance(v, tuple):
                known.update(str(x) for x in v)
            elif v is not None:
                known.add(str(v))
    return known
