"""A live world's ids and references, resolved again only where a change reaches (facts/live.py).

facts/resolving.py resolves a whole world at once; a live world changes a few blocks at a time
(facts/live_blocks.py), so this index keeps every declaration and reference by id and, after a
change, checks again only the ids the changed blocks declare, name or meant to declare: their
duplicates (E112) and their references (E110, E111, with resolving.py's own check). The checks
over the whole world that are cheap (one statement per key, citations per signal, the checks
across statements) run in full after each change, as resolving.py runs them.

    >>> from provlog.facts.live_blocks import LiveFile
    >>> f = LiveFile("w.facts")
    >>> ix = LiveIndex()
    >>> ix.update(*f.update('org e "E" type=nonprofit\\nstake e nowhere 20%\\n'))
    >>> [d.code for d in ix.diagnostics()]
    ['E110']
    >>> ix.update(*f.update('org e "E" type=nonprofit\\nstake e e 20%\\n'))
    >>> ix.diagnostics()
    []
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set, Tuple

from . import schema as S
from .collector import _Collector
from .errors import Diagnostic
from .live_blocks import Block
from .model import Fact
from .resolving import _check_cites_per_signal, _check_across, _check_once, _check_references


class LiveIndex:
    """Every declaration by (namespace, id) and every reference by id, each by the block that makes it."""

    def __init__(self, language: Optional[S.Language] = None):
        self.errs = _Collector(language)
        self.ns_of = {d.keyword: d.namespace for d in self.errs.language.decls.values() if d.declares}
        self.decls: Dict[Tuple[str, str], Dict[int, List[Fact]]] = {}
        self.refs: Dict[str, Dict[int, List[Tuple]]] = {}
        self.attempted: Dict[str, int] = {}  # ids broken declarations meant, with how many meant each
        self.kinds: Dict[str, Dict[str, Fact]] = {ns: {} for ns in self.ns_of.values()}  # the first of each id
        self.dups: Dict[Tuple[str, str], List[Diagnostic]] = {}
        self.ref_diags: Dict[str, List[Diagnostic]] = {}

    def update(self, removed: Iterable[Block], added: Iterable[Block]) -> None:
        """Take the blocks a change removed and added, and check again the ids they reach."""
        decl_keys: Set[Tuple[str, str]] = set()
        idents: Set[str] = set()
        for blocks, sign in ((removed, -1), (added, 1)):
            for b in blocks:
                self._count(b, sign, decl_keys, idents)
        for key in decl_keys:
            self._redeclare(key)
        idents |= {ident for _, ident in decl_keys}
        for ident in idents:
            self._recheck(ident)

    def _count(self, b: Block, sign: int, decl_keys: Set, idents: Set) -> None:
        k = id(b)
        for f in b.facts:
            ns = self.ns_of.get(f.kind)
            if ns is not None:
                key = (ns, f["id"])
                decl_keys.add(key)
                by = self.decls.setdefault(key, {})
                if sign > 0:
                    by.setdefault(k, []).append(f)
                else:
                    by.pop(k, None)
        for ref in b.refs + b.refused:
            ident = ref[1][0]
            idents.add(ident)
            by = self.refs.setdefault(ident, {})
            if sign > 0:
                by.setdefault(k, []).append(ref)
            else:
                by.pop(k, None)
        for ident in b.attempted:
            idents.add(ident)
            n = self.attempted.get(ident, 0) + sign
            if n > 0:
                self.attempted[ident] = n
            else:
                self.attempted.pop(ident, None)

    def _redeclare(self, key: Tuple[str, str]) -> None:
        """The first declaration of one id (``kinds``), and E112 at every later one, as resolving.py's."""
        ns, ident = key
        facts = [f for fs in self.decls.get(key, {}).values() for f in fs]
        if not facts:
            self.decls.pop(key, None)
            self.kinds[ns].pop(ident, None)
            self.dups.pop(key, None)
            return
        first = min(facts, key=lambda x: (x.loc.file, x.loc.line))
        self.kinds[ns][ident] = first
        dups = [Diagnostic(f.loc.file, f.loc.line, f.loc.col, "E112",
                           f"duplicate id {ident!r}: already declared as {first.kind} at {first.loc}",
                           self.errs.line(f.loc.file, f.loc.line))
                for f in facts if f is not first]
        if dups:
            self.dups[key] = dups
        else:
            self.dups.pop(key, None)

    def _recheck(self, ident: str) -> None:
        """The references to one id, checked by resolving.py's own check."""
        refs = [r for rs in self.refs.get(ident, {}).values() for r in rs]
        if not refs:
            self.refs.pop(ident, None)
            self.ref_diags.pop(ident, None)
            return
        errs = self.errs
        errs.diags, errs.refused_refs = [], refs
        _check_references([], errs, self.kinds, self.attempted)
        if errs.diags:
            self.ref_diags[ident] = errs.diags
        else:
            self.ref_diags.pop(ident, None)
        errs.diags, errs.refused_refs = [], []

    def diagnostics(self, facts: Optional[List[Fact]] = None) -> List[Diagnostic]:
        """The world's resolving errors: duplicates and references (kept), and, over ``facts`` (every
        fact of the world) when given, one statement per key, citations per signal and, when all
        else resolves, each declaration's checks across statements."""
        out = [d for ds in self.dups.values() for d in ds] + [d for ds in self.ref_diags.values() for d in ds]
        if facts is None:
            return out
        errs = self.errs
        errs.diags = []
        ok = _check_cites_per_signal(facts, errs)
        ok = _check_once(facts, errs) and ok
        if ok and not out:
            _check_across(facts, errs, self.kinds)
        out += errs.diags
        errs.diags = []
        return out
