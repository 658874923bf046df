"""Resolve a world's checked statements together: duplicate ids, references between statements,
one-per-key statements, citations per signal, and each declaration's checks across statements.
Only a world with none of these errors becomes a :class:`~provlog.facts.model.FactSet`."""
from __future__ import annotations

from typing import Dict, List, Set, Tuple

from . import schema as S
from .collector import _Collector
from .model import Fact, FactSet


#: citations of one signal (cite statements and src= entries); a real signal has a few (bench cites)
MAX_CITES_PER_SIGNAL = 250_000


def _check_cites_per_signal(facts: List[Fact], errs: _Collector) -> bool:
    """E153 at the citation that takes a signal past :data:`MAX_CITES_PER_SIGNAL` (once per signal)."""
    count: Dict[str, int] = {}
    ok = True
    for f in facts:
        sid, n = (f["signal"], 1) if f.kind == "cite" else (f["id"], len(f.src)) if f.kind == "signal" else (None, 0)
        if n:
            count[sid] = count.get(sid, 0) + n
            if count[sid] > MAX_CITES_PER_SIGNAL and count[sid] - n <= MAX_CITES_PER_SIGNAL:
                errs.add(f.loc.file, f.loc.line, f.loc.col, "E153",
                         f"signal {sid!r} has more than {MAX_CITES_PER_SIGNAL} citations, the limit per signal")
                ok = False
    return ok


def _resolve(facts: List[Fact], errs: _Collector, attempted: Set[str] = frozenset()) -> FactSet:
    """Duplicate ids, references, and one-per-key statements, over the whole world."""
    world = FactSet()
    kinds, dup = _declared(facts, errs)
    ok = _check_cites_per_signal(facts, errs) and not dup
    ok = _check_references(facts, errs, kinds, attempted) and ok
    ok = _check_once(facts, errs) and ok
    if ok:  # checks across statements (a rulebook's, issue 8) need every reference resolved
        ok = _check_across(facts, errs, kinds)
    if ok:
        for f in facts:
            world.add(f)
    return world


def _declared(facts: List[Fact], errs: _Collector) -> Tuple[Dict[str, Dict[str, Fact]], bool]:
    """Every declared id by namespace (``node``, ``source``, ...), the first of two kept; and
    whether any id was declared twice (E112 at the later one)."""
    ns_of = {d.keyword: d.namespace for d in errs.language.decls.values() if d.declares}
    kinds: Dict[str, Dict[str, Fact]] = {ns: {} for ns in ns_of.values()}
    dup = False
    for f in facts:
        ns = ns_of.get(f.kind)
        if ns:
            prev = kinds[ns].get(f["id"])
            if prev is not None:
                later = max(prev, f, key=lambda x: (x.loc.file, x.loc.line))
                first = prev if later is f else f
                errs.add(later.loc.file, later.loc.line, later.loc.col, "E112",
                         f"duplicate id {f['id']!r}: already declared as {first.kind} at {first.loc}")
                dup = True
                kinds[ns][f["id"]] = first
                continue
            kinds[ns][f["id"]] = f
    return kinds, dup


def _check_references(facts: List[Fact], errs: _Collector, kinds: Dict[str, Dict[str, Fact]],
                      attempted: Set[str]) -> bool:
    """Each reference a statement makes names a declaration of a kind it takes (E110, E111). A
    reference to an id whose declaration was refused for its own error is not reported again."""
    ok = True
    refs = [(f.loc.file, r) for f in facts for r in f.refs] + errs.refused_refs
    for f in facts:  # resolved here; a loaded world does not keep them
        object.__setattr__(f, "refs", ())
    space: Dict[Tuple[str, ...], str] = {}  # a reference's kinds -> its namespace (a few shapes, many refs)
    for file, (ident, allowed, line, col, what) in refs:
        ns = space.get(allowed)
        if ns is None:
            ns = space[allowed] = "node" if set(allowed) & set(S.NODE) else allowed[0]
        target = kinds.get(ns, {}).get(ident)
        if target is None and ident in attempted:
            continue
        elsewhere = target is None  # declared as something else?
        if elsewhere:
            target = next((k[ident] for k in kinds.values() if ident in k), None)
        if target is None:
            kind_words = "/".join(allowed)
            errs.add(file, line, col, "E110",
                     f"{what} names {ident!r}, which is not declared anywhere in the world (expected a {kind_words}; declare it or fix the id)")
            ok = False
        elif elsewhere or (ns == "node" and target.kind not in allowed):
            errs.add(file, line, col, "E111",
                     f"{what} names {ident!r}, a {target.kind} (at {target.loc}); expected a {'/'.join(allowed)}")
            ok = False
    return ok


def _check_once(facts: List[Fact], errs: _Collector) -> bool:
    """At most one statement of a kind per key, where its declaration says so (E112)."""
    ok = True
    once: Dict[Tuple, Fact] = {}
    for f in facts:
        unique = errs.language.decls[f.kind].unique
        if unique is not None:  # one statement per world for each value of these fields
            key = (f.kind,) + tuple(str(f[k]) for k in unique)
            prev = once.get(key)
            if prev is not None:
                later = max(prev, f, key=lambda x: (x.loc.file, x.loc.line))
                first = prev if later is f else f
                shown = [str(f[k]) for k in unique if f[k] is not None]  # a stored role has no dim
                per = f"for {' '.join(shown)}" if unique else "in the world"
                errs.add(later.loc.file, later.loc.line, later.loc.col, "E112",
                         f"a second {f.kind} {per}: the first is at {first.loc}; there may be one")
                ok = False
                once[key] = first
            else:
                once[key] = f
    return ok


def _check_across(facts: List[Fact], errs: _Collector, kinds: Dict[str, Dict[str, Fact]]) -> bool:
    """Each declaration's checks across its statements (a rulebook's, issue 8)."""
    ok = True
    for decl in errs.language.decls.values():
        if decl.across is not None:
            mine = [f for f in facts if f.kind == decl.keyword]
            for f, code, msg in decl.across(mine, lambda kind, ident: kinds.get(kind, {}).get(ident)):
                errs.add(f.loc.file, f.loc.line, f.loc.col, code, msg)
                ok = False
    return ok
