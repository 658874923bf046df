"""A what-if's model from a stored one, re-deriving only the orgs it reaches (issue 28; docs/diff.md).

``provlog diff WORLD --without SOURCE`` or ``--set SIGNAL bound=2`` changes a few
``signal``, ``cite`` or ``source`` statements of a stored world. :func:`rederive`
derives the change's rows without deriving the world or reading all of it: the
orgs the change reaches are derived again, alone, over their own rows read
from the store and the unchanged rest; the result is a :class:`Delta` (rows
removed and added per relation, logic/diff.py's ``Changes``) and an
:class:`Overlay`, the stored model with the delta laid over it, which the
explainer reads as it reads any model.

Which orgs a change reaches:

* a signal or cite statement: its signal's org, before and after (logic/locality.py
  proves, from the rules, that its rows reach no other org's);
* a source statement: the orgs of every signal, recorded or derived, that cites
  it. :func:`source_keyed` proves from the rules that a source's rows reach the
  rest only through a citation: the relations made of source rows alone are
  *source-keyed* (``usable(Src)``, ``org_page(Src)``: their rows name the
  source), and every other rule that reads one joins it, by the same
  variable, to a ``cites(S, Src, ...)`` row (then it is S's org's) or to a
  ``result_src(R, Src)`` row (a result's: a change to a source a result
  cites is refused here, since results make derived signals).

Anything else (another kind of statement, a rule that fails the proof) raises
:class:`Refused`, and the caller derives the what-if whole.

    >>> delta, model = rederive(store, removed, added, as_of)    # doctest: +SKIP
    >>> delta.orgs, delta.changes["value"].added                  # doctest: +SKIP
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from ..facts.model import Fact, FactSet
from . import edb
from . import store as S
from .diff import Change, Changes
from .locality import EDITED, NotLocal
from .syntax import Atom, Var

#: the statements a what-if may change here; any other is derived whole
KINDS = ("signal", "cite", "source")
#: the EDB rows a source statement makes
SOURCE_ROWS = ("source", "unusable")


class Refused(Exception):
    """Why a what-if is derived whole."""


@lru_cache(maxsize=1)
def source_keyed() -> FrozenSet[str]:
    """The source-keyed relations of the independence RULES (module docstring); NotLocal if a rule reads
    one other than through a citation of the same source."""
    from .edit import locality
    from .program import RULES

    return _source_keyed(RULES.rules, locality().affected)


def _source_keyed(rules, affected: Iterable[str]) -> FrozenSet[str]:
    affected = set(affected)
    keyed = set(SOURCE_ROWS)
    by_head: Dict[str, List] = {}
    for r in rules:
        by_head.setdefault(r.head_name, []).append(r)

    def keyed_rule(r) -> bool:  # reads source rows, no signal's, and names the source it reads first
        lits = [lit for lit in r.body_literals if isinstance(lit, Atom) and not lit.negated]
        head = r.head_literal
        if not isinstance(head, Atom) or not head.args or not isinstance(head.args[0], Var):
            return False
        reads = {getattr(lit, "name", None) for lit in r.body_literals}
        return not reads & affected and any(
            lit.name in keyed and lit.args and lit.args[0] == head.args[0] for lit in lits)

    grew = True
    while grew:
        grew = False
        for name, rs in by_head.items():
            if name not in keyed and name not in affected and all(keyed_rule(r) for r in rs):
                keyed.add(name)
                grew = True
    for r in rules:
        if r.head_name in keyed:
            continue
        joins = {(lit.name, lit.args[1]) for lit in r.body_literals
                 if isinstance(lit, Atom) and not lit.negated and lit.name in ("cites", "result_src") and len(lit.args) > 1}
        for lit in r.body_literals:
            if getattr(lit, "name", None) in keyed:
                src = lit.args[0] if lit.args else None
                if not isinstance(src, Var) or not any(v == src for _, v in joins):
                    raise NotLocal(r, f"{lit.name} is read other than through a citation of the same source")
    return frozenset(keyed)


@dataclass
class Delta:
    """What a what-if changes: rows removed and added per relation, and the orgs derived again."""

    changes: Changes
    orgs: List[str]


def rederive(old: S.Stored, removed: Sequence[Fact], added: Sequence[Fact], as_of: Optional[str]) -> Delta:
    """The delta of the world of ``old`` less ``removed`` plus ``added`` (statements of :data:`KINDS`)."""
    from ..grammar.parser import paused_gc

    with paused_gc():
        return _rederive(old, removed, added, as_of)


def _numbers(old: S.Stored, facts: Sequence[Fact]) -> Set[int]:
    """The store's statement numbers of ``facts`` (signals, cites and sources: their fact ids are unique)."""
    out: Set[int] = set()
    for f in facts:
        got = old.query("SELECT n FROM _facts WHERE fid = ?", (f.fid,))
        if len(got) != 1:
            raise Refused(f"{f.fid} is not one statement of the store")
        out.add(got[0][0])
    return out


def _in(column: str, values: Sequence) -> Tuple[str, List]:
    return f"{S._q(column)} IN ({','.join('?' * len(values))})", list(values)


def _rederive(old: S.Stored, removed: Sequence[Fact], added: Sequence[Fact], as_of: Optional[str]) -> Delta:
    from .edit import locality

    if any(f.kind not in KINDS for f in list(removed) + list(added)):
        raise Refused("a what-if of another kind of statement")
    try:
        loc = locality()
        keyed = source_keyed()
    except NotLocal as e:
        raise Refused(str(e))
    scope = _Scope(old, loc, keyed, _orgs_reached(old, removed, added))
    scope.lay_edb(removed, added, as_of)
    program = scope.derive(added)
    return Delta(scope.changes(program), scope.orgs_l)


def _orgs_reached(old: S.Stored, removed: Sequence[Fact], added: Sequence[Fact]) -> Set[str]:
    """The orgs whose signals the change edits, or whose signals cite a source it edits."""
    sources = sorted({f["id"] for f in list(removed) + list(added) if f.kind == "source"})
    if sources:
        where, ps = _in("source", sources)
        if old.query(f"SELECT 1 FROM result_src WHERE {where} LIMIT 1", ps):
            raise Refused("a result cites the source: its M.3 signals could change")
    signals = sorted({f["id"] if f.kind == "signal" else f["signal"] for f in list(removed) + list(added)
                      if f.kind in ("signal", "cite")})
    orgs: Set[str] = {f["org"] for f in added if f.kind == "signal"}
    if signals:
        where, ps = _in("signal", signals)
        orgs |= {o for (o,) in old.query(f"SELECT org FROM signal WHERE {where}", ps)}
    if sources:
        where, ps = _in("source", sources)
        orgs |= {o for (o,) in old.query(f"SELECT DISTINCT s.org FROM cites c JOIN signal s ON s.signal = c.signal "
                                          f"WHERE c.{where}", ps)}
    return orgs


class _Scope:
    """One what-if: the store (``old``), the locality proof (``loc``), the source-keyed relations
    (``keyed``), the orgs the change reaches and their signals; the what-if's EDB rows once laid."""

    def __init__(self, old: S.Stored, loc, keyed: FrozenSet[str], orgs: Set[str]):
        self.old, self.loc, self.keyed = old, loc, keyed
        self.orgs, self.orgs_l = orgs, sorted(orgs)
        self.mine_signals: Set[str] = set()
        self.signal_org: Dict[str, str] = {}
        self.gone: Set[int] = set()
        self.new_rows: Dict[str, List[Tuple]] = {}

    def lay_edb(self, removed: Sequence[Fact], added: Sequence[Fact], as_of: Optional[str]) -> None:
        """The EDB rows of the change: old rows less the removed statements' (by their numbers), plus
        the added's; the reached orgs' signals, and which org each belongs to."""
        old, orgs_l = self.old, self.orgs_l
        self.gone = _numbers(old, removed)
        mine = FactSet()
        for f in added:
            mine.add(f)
        self.new_rows = {p: rs for p, rs in edb.rows(mine, as_of, edb.Origins()).items()
                         if p in EDITED or p in SOURCE_ROWS}
        if orgs_l:
            where, ps = _in("org", orgs_l)
            self.signal_org = {s: o for s, o in old.query(f"SELECT signal, org FROM signal WHERE {where}", ps)}
            self.mine_signals = set(self.signal_org)
        self.mine_signals |= {f["id"] for f in added if f.kind == "signal" and f["org"] in self.orgs}
        self.signal_org.update((f["id"], f["org"]) for f in added if f.kind == "signal")

    def edb_rows(self, pred: str) -> List[Tuple]:
        """``pred``'s rows in the what-if: the store's (of the orgs' signals for an edited relation)."""
        old, mine_signals, gone = self.old, self.mine_signals, self.gone
        arity, kinds, cols, is_edb = old.rels[pred]
        # rows the program gives itself (view, threshold, decay) are kept as derived: no _facts
        sql = f"SELECT {', '.join(map(S._q, cols))}, {'_facts' if is_edb else chr(39) + '[]' + chr(39)} FROM {S._q(pred)}"
        ps: List = []
        if pred in EDITED:
            if not mine_signals:
                rows = []
            else:
                where, ps = _in(cols[0], sorted(mine_signals))
                rows = old.query(f"{sql} WHERE {where} ORDER BY rowid", ps)
        else:
            rows = old.query(f"{sql} ORDER BY rowid")
        out = []
        marks = {str(n) for n in gone}
        plain = all(k in ("int", "text") for k in kinds)
        for r in rows:
            if marks and any(m in r[arity] for m in marks):  # decoded only where a removed number may be
                fs = S.decode(r[arity])
                if fs and not set(fs) - gone:
                    continue  # every statement it was made of is removed
            out.append(tuple(r[:arity]) if plain else S.decoded_rows(kinds, (r,))[0])
        out += [r for r in self.new_rows.get(pred, []) if pred not in EDITED or r[0] in mine_signals]
        return list(dict.fromkeys(out))

    def derive(self, added: Sequence[Fact]):
        """A program over the what-if's EDB rows that derives what the change reaches; the rest of
        what it reads is the store's rows, laid in as facts."""
        from . import strata
        from .engine import Program
        from .program import PER_POLICY, RULES

        old = self.old
        rules = RULES.rules
        derive = (set(self.loc.affected) | self.keyed) - set(edb.PREDICATES)
        goals = [n for n in derive if n in old.rels or n in old.funcs]
        components = strata.plan(rules, goals)
        heads = {r.head_name: r.head_literal for r in rules}
        asked = {n for comp in components for n in comp}
        reads = {lit.name for r in rules if r.head_name in asked for lit in r.body_literals if hasattr(lit, "name")}

        program = Program()
        for pred, arity in edb.PREDICATES.items():
            program.declare(pred, arity)
        for pred in sorted(reads & set(edb.PREDICATES)):
            if pred in old.rels:
                program.assert_rows(pred, self.edb_rows(pred))
        program.load_rules([r.text for r in rules])
        done: Set[str] = set()
        for comp in components:  # what the change does not reach is read from the store, not derived
            for name in comp:
                if name not in derive and name in old.rels and isinstance(heads[name], Atom):
                    program.replace_with_facts(name, old.rels[name][0], old.rows(name))
                    done.add(name)
        strata.materialize(program, rules, components, done, PER_POLICY)
        return program

    def changes(self, program) -> Changes:
        """Every affected relation's rows for the reached orgs, the what-if's against the store's."""
        changes: Changes = {}
        for name in sorted(set(self.loc.affected) | self.keyed):
            now_was = self._now_and_was(name, program)
            if now_was is None:
                continue
            a, b = set(map(tuple, now_was[1])), set(map(tuple, now_was[0]))
            if a != b:
                changes[name] = Change(sorted(a - b, key=repr), sorted(b - a, key=repr))
        return changes

    def _now_and_was(self, name: str, program) -> Optional[Tuple[List, List]]:
        """``name``'s rows in the what-if and in the store, for the reached orgs (a source-keyed
        relation: every row); None where it is not stored or not edited."""
        old, loc = self.old, self.loc
        function = name in old.funcs
        if not function and name not in old.rels:
            return None  # not stored
        arity, kinds, cols, _ = old.funcs[name] if function else old.rels[name]
        if name in edb.PREDICATES:
            now = self.edb_rows(name) if name in EDITED or name in SOURCE_ROWS else None
        elif function:
            now = list(program.match(name, arity, [], function=True))
        elif name in program.tables:
            now = list(program.table(name))
        else:
            raise Refused(f"{name} was not kept")
        if now is None:
            return None
        if name in self.keyed:  # source-keyed: every row (one per source, a small table)
            return now, old.rows(name)
        now = [tuple(r) for r in now if self._org_of(name, r) in self.orgs]
        i, how = loc.key(name)
        ids = self.orgs_l if how == "org" else sorted(
            {s for s, o in self.signal_org.items() if o in self.orgs} | self.mine_signals)
        was = []
        if ids:
            where, ps = _in(cols[i], ids)
            got = old.query(f"SELECT {', '.join(map(S._q, cols))} FROM {S._q(name)} WHERE {where}", ps)
            was = S.decoded_rows(kinds, got)
        return now, was

    def _org_of(self, name: str, row: Tuple) -> Optional[str]:
        i, how = self.loc.key(name)
        return row[i] if how == "org" else self.signal_org.get(row[i])


# -- the model with the delta laid over it -----------------------------------------------------------
class Overlay:
    """The read interface of a model (logic/goal.py, logic/model.py) over ``base`` (a StoredModel)
    with ``changes`` applied: the what-if's model, for the explainer and goals."""

    def __init__(self, base, changes: Changes):
        self._b = base
        self._ch = changes
        self._gone = {n: set(c.removed) for n, c in changes.items()}
        self.tables = _OverlayTables(self)

    def relations(self) -> Dict[str, int]:
        return self._b.relations()

    def functions(self) -> Dict[str, int]:
        return self._b.functions()

    def kept(self) -> Dict[str, int]:
        return self._b.kept()

    def _apply(self, name: str, rows, bound=()) -> List[Tuple]:
        ch = self._ch.get(name)
        if ch is None:
            return list(rows)
        gone = self._gone[name]
        return [r for r in rows if tuple(r) not in gone] + \
            [r for r in ch.added if all(r[i] == v for i, v in bound)]

    def table(self, name: str) -> List[Tuple]:
        return self._apply(name, self._b.table(name))

    def match(self, name: str, arity: int, bound: Sequence[Tuple[int, Any]], function: bool = False):
        return self._apply(name, self._b.match(name, arity, bound, function), bound)

    def ask(self, goal: str):
        raise Refused("a what-if answers no pyDatalog goal")

    def relation(self, predicate: str, arity: int, bound=None):
        raise Refused("a what-if answers no pyDatalog goal")


class _OverlayTables(dict):
    def __init__(self, model: Overlay):
        super().__init__()
        self._m = model

    def __contains__(self, name) -> bool:
        return name in self._m._b.tables

    def get(self, name, default=None):
        return self._m.table(name) if name in self else default

    def __missing__(self, name):
        if name not in self:
            raise KeyError(name)
        return self._m.table(name)


class OverlayFacts:
    """A stored world's facts (StoredFacts) less ``removed`` plus ``added``: the what-if's statements."""

    def __init__(self, base, removed: Sequence[Fact], added: Sequence[Fact]):
        self._b = base
        self._gone = {f.fid for f in removed}
        self._added = list(added)
        self.files = list(base.files)
        self.by_fid = _Ids(base.by_fid, self._gone, {f.fid: f for f in added})
        ids = lambda kinds: {f["id"]: f for f in added if f.kind in kinds}  # noqa: E731
        self.nodes = _Ids(base.nodes, self._gone_ids(("lab", "org", "entity", "person")), ids(("lab", "org", "entity", "person")))
        self.sources = _Ids(base.sources, self._gone_ids(("source",)), ids(("source",)))
        self.signals = _Ids(base.signals, self._gone_ids(("signal",)), ids(("signal",)))
        self.presets = base.presets

    def _gone_ids(self, kinds) -> Set[str]:
        return {fid.split(":", 1)[1] for fid in self._gone if fid.split(":", 1)[0] in kinds and ":" in fid}

    def of(self, kind: str) -> List[Fact]:
        return [f for f in self._b.of(kind) if f.fid not in self._gone] + [f for f in self._added if f.kind == kind]

    @property
    def facts(self) -> List[Fact]:
        return [f for f in self._b.facts if f.fid not in self._gone] + self._added

    def __iter__(self):
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self._b) - len(self._gone) + len(self._added)

    @property
    def orgs(self) -> List[str]:
        return sorted(set(self._b.orgs) | {f["id"] for f in self._added if f.kind == "org"})

    def to_factset(self) -> FactSet:
        fs = FactSet()
        for f in self.facts:
            fs.add(f)
        fs.files = list(self.files)
        return fs


class _Ids:
    """A lookup by id over a base one, less some ids, with others added."""

    def __init__(self, base, gone: Set[str], added: Dict[str, Fact]):
        self._b, self._gone, self._added = base, gone, added

    def get(self, key, default=None):
        if key in self._added:
            return self._added[key]
        if key in self._gone:
            return default
        return self._b.get(key, default)

    def __getitem__(self, key):
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def items(self):
        return [(k, v) for k, v in self._b.items() if k not in self._gone and k not in self._added] + list(self._added.items())

    def __iter__(self):
        return iter(k for k, _ in self.items())

    def keys(self):
        return [k for k, _ in self.items()]

    def values(self):
        return [v for _, v in self.items()]

    def __len__(self) -> int:
        return len(self.items())


class OverlayOrigins:
    """Each EDB row's statements in the what-if: the added statements' own rows, else the store's less the
    removed statements."""

    def __init__(self, base, removed: Sequence[Fact], added: Sequence[Fact], as_of: Optional[str]):
        self._b = base
        self._gone = {f.fid for f in removed}
        mine = FactSet()
        for f in added:
            mine.add(f)
        self._mine = edb.Origins()
        edb.rows(mine, as_of, self._mine)

    def get(self, key, default=()):
        got = tuple(f for f in self._b.get(key, ()) if f.fid not in self._gone) + self._mine.get(key)
        return got or default
