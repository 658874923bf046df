"""Evaluate the rules over a world, stratum by stratum, and keep the answers.

Stratum ``derive`` (structure.py, section 9) turns structural facts into
derived signals; provlog numbers them ``<rule>/<org>/<n>`` (in a stable
order, independent of statement order), gives each the citations of every
fact of every proof, and asserts them beside the recorded ones. Stratum
``mechanics`` then derives bounds, values, bands and roles for all.

pyDatalog does not memoise across queries, so each relation a reader needs
is asked once, for all orgs and policies, and kept here.
"""
from __future__ import annotations

import gc
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from ..facts.model import Fact, FactSet
from ..facts.schema import POLICY_NAMES
from . import edb
from .clauses import ABSENT, CLAUSES, DATE_VARS, GIVEN, WORDS
from .lanes import LANES
from .lifts import ABSENT as LIFT_ABSENT, LIFTS
from .mechanics import MECHANICS
from .population import ABSENT as POPULATION_ABSENT, POPULATION
from .model import Keyed, KeyedSet, whole
from .rulebooks import Evaluation, Rulebook
from .rules import RuleSet
from .structure import STRUCTURE

if TYPE_CHECKING:  # pyDatalog is imported only by a derivation that runs (a stored one never does)
    from .engine import Program

#: The independence RULES: section 0 and 9, bands and roles (mechanics.py), the lifts (lifts.py), the structural rules
#: (structure.py), the provenance lanes with M.3 (lanes.py) and the lists, ranks and inclusion of sections 10-11
#: (population.py), in that order.
RULES = RuleSet.union("independence", MECHANICS, LIFTS, STRUCTURE, LANES, POPULATION, statements=CLAUSES)

#: The independence RULES described the way the other rulebooks are (logic/rulebooks.py); it
#: derives through :class:`Derivation` (strata, derived signals) where the others run as a RulebookRun.
CORE = Rulebook(
    "independence", RULES, edb.PREDICATES, rows=None, summary="the independence RULES",
    meanings={name: (None, absent) for name, absent in {**ABSENT, **LIFT_ABSENT, **POPULATION_ABSENT}.items()}, given=GIVEN, words=WORDS, dates=DATE_VARS,
    # shares (25%) read as percentages; the results lanes' scores (PL.*: 0.71, x1.4) as numbers
    percent=lambda clause: not (clause or "").startswith("PL."))

#: The largest per-policy relations, asked one policy at a time (a fifth of pyDatalog's working set).
PER_POLICY = {name: (at, POLICY_NAMES) for name, at in (
    ("admissible", 1), ("effective", 1), ("smallest", 2), ("largest", 2), ("has_cap", 2), ("value", 2),
    ("conflict", 2))}

@dataclass(frozen=True)
class DerivedSignal:
    id: str
    rule: str
    org: str
    dim: str
    direction: str
    kind: str
    bound: int
    key: object
    facts: Tuple[str, ...]  # fact ids of every proof
    cites: Tuple[Tuple[str, str], ...]  # (source, span or '')


def signal_rows(derived) -> Dict[str, List[Tuple]]:
    """The EDB rows of derived signals, as recorded signals have them (edb.py): ranked after them (the deciders
    tie-break), active, citing what their proofs cite."""
    rows: Dict[str, List[Tuple]] = defaultdict(list)
    for s in derived:
        rows["signal"].append((s.id, s.org, s.dim, s.direction))
        rows["stated"].append((s.id, s.kind, s.bound))
        rows["status"].append((s.id, "active"))
        rows["signal_rule"].append((s.id, s.rule))
        rows["precedence"].append((s.id, 1))
        rows["cites"].extend((s.id, src, span) for src, span in s.cites)
    return rows


def _by_fid(facts, fids: Set[Any]) -> Dict[str, Fact]:
    """The statements ``fids`` name (those that name one), by fact id: read one by one where the
    statements say how (an edited world's, logic/edit_delta.py ``statements``), else from all of them."""
    wanted = {f for f in fids if isinstance(f, str)}
    if hasattr(facts, "statements"):
        return facts.statements(wanted)
    by = facts.by_fid if isinstance(facts, FactSet) else {f.fid: f for f in facts}
    return {f: by[f] for f in wanted if f in by}


def _sort_key(key, facts_by_id: Dict[str, Fact]):
    if isinstance(key, str) and key in facts_by_id:
        return (1, facts_by_id[key].canon())
    return (0, str(key))


@dataclass
class Derivation(Evaluation):
    """All answers of the independence RULES over one world (an :class:`Evaluation`, as a rulebook's
    RulebookRun is: the explainer and goals read both the same way)."""

    facts: FactSet
    program: "Program"  # or a stored model (logic/store/): both offer the read interface (logic/model.py)
    derived: Dict[str, DerivedSignal] = field(default_factory=dict)
    values: Dict[Tuple[str, str, str], Tuple[int, Optional[str], str]] = field(default_factory=dict)
    conflicts: Dict[Tuple[str, str, str], Tuple[int, int]] = field(default_factory=dict)
    effective: Dict[Tuple[str, str], Tuple[str, int]] = field(default_factory=dict)  # (S, P) -> (K, B)
    stated: Dict[str, Tuple[str, int]] = field(default_factory=dict)
    held: Dict[Tuple[str, str], Set[str]] = field(default_factory=dict)  # (S, V) -> clauses
    informational: Dict[str, Set[str]] = field(default_factory=dict)  # S -> the clauses that make it informational
    evclass: Dict[Tuple[str, str], str] = field(default_factory=dict)
    admissible: Set[Tuple[str, str]] = field(default_factory=set)
    bands: Dict[Tuple[str, str], str] = field(default_factory=dict)
    roles: Dict[str, str] = field(default_factory=dict)
    hops: Dict[str, int] = field(default_factory=dict)
    placements: Dict[str, str] = field(default_factory=dict)  # org -> its list on the site (section 10)
    candidate_results: Dict[str, str] = field(default_factory=dict)  # candidate -> its result (section 11)
    ranked: Set[str] = field(default_factory=set)  # orgs in a ranked list (section 10)
    counted: Set[str] = field(default_factory=set)  # orgs every statistic counts (section 11)
    derived_rows: Dict[str, Tuple] = field(default_factory=dict)  # derived signal -> its derive(...) row
    origins: edb.Origins = field(default_factory=edb.Origins)  # EDB row -> its facts
    self_favour: Set[str] = field(default_factory=set)  # for-signals citing their org's own pages (C17)

    book = CORE  # what the explainer reads of the rulebook: its rules, words, meanings

    @classmethod
    def run(cls, facts: FactSet, as_of: Optional[str] = None, freeze: bool = False,
            progress: Optional[Callable[[int, int, List[str]], Any]] = None) -> "Derivation":
        """Derive everything; ``freeze`` (for short-lived processes such as the CLI) moves a large
        derivation's objects out of the collector's walks for the rest of the process; ``progress``
        is called with (strata done, strata in all, the relations of the next) as each stratum starts,
        and (n, n, []) at the end."""
        from .gc_hold import held_collector

        # pyDatalog makes hundreds of thousands of small objects that live as long as the world;
        # the cyclic collector would walk them all again and again (about 60% of the time). Only a
        # caller that owns the process (``freeze``) keeps them frozen out of its walks after: left to
        # the collector, its next full walk would visit all that the world keeps (0.2 s at 200 orgs,
        # seconds at 5,000: the first `why` paid it).
        with held_collector(keep_frozen=freeze):
            d = cls._run(facts, as_of, progress)
            if freeze:
                gc.freeze()  # what the last component and the collection made
        return d

    @classmethod
    def _run(cls, facts: FactSet, as_of: Optional[str] = None, progress=None) -> "Derivation":
        from . import strata
        from .engine import Program

        program = Program()
        for pred, arity in edb.PREDICATES.items():
            program.declare(pred, arity)
        origins = edb.Origins()
        for pred, rows in edb.rows(facts, as_of, origins).items():
            program.assert_rows(pred, rows)
        program.load_rules([r.text for r in RULES.rules])
        d = cls(facts, program)
        d.origins = origins
        done: Set[str] = set()
        # Stratum "derive" first (derived signals join the EDB after it), then the rest.
        first = strata.plan(RULES.rules, ["derive", "uses"])
        rest = strata.plan(RULES.rules, [r.head_name for r in RULES.rules])
        total = len(first) + len(rest)
        strata.materialize(program, RULES.rules, first, done,
                           progress=progress and (lambda i, comp: progress(i - 1, total, comp)))
        d._derive_signals()
        strata.materialize(program, RULES.rules, rest, done, PER_POLICY,
                           progress=progress and (lambda i, comp: progress(len(first) + i - 1, total, comp)))
        if progress:
            progress(total, total, [])
        d._collect()
        return d

    # -- stratum "derive" ----------------------------------------------------------------
    def _derive_signals(self, only: Optional[Set[str]] = None) -> None:
        """Number the derived signals (per rule and org) and assert their rows. ``only``: make those orgs'
        alone, reading only the statements of the kinds they cite, and assert nothing (an edit's,
        logic/spread.py: a derived signal's number and fields depend on its own org's rows only)."""
        p = self.program
        uses: Dict[Tuple, Set[str]] = defaultdict(set)
        for rule, org, key, fs in p.match("uses", 4, []):
            if only is None or org in only:
                uses[(rule, org, key)].update(fs)
        groups: Dict[Tuple[str, str], List[Tuple]] = defaultdict(list)
        for rule, org, dim, direction, kind, n, key in p.match("derive", 7, []):
            if only is None or org in only:
                groups[(rule, org)].append((key, dim, direction, kind, n))
        by_id = {f.fid: f for f in self.facts} if only is None else _by_fid(
            self.facts, {f for fs in uses.values() for f in fs} | {it[0] for g in groups.values() for it in g})
        for (rule, org), items in sorted(groups.items()):
            items.sort(key=lambda it: (_sort_key(it[0], by_id), it[1], it[3], it[4]))
            for i, (key, dim, direction, kind, n) in enumerate(items, 1):
                fids = tuple(sorted(uses.get((rule, org, key), ()), key=lambda f: by_id[f].canon()))
                cites = sorted({(s, by_id[f].span or "") for f in fids for s in by_id[f].src})
                sid = f"{rule}/{org}/{i}"
                self.derived[sid] = DerivedSignal(sid, rule, org, dim, direction, kind, n, key, fids, tuple(cites))
                self.derived_rows[sid] = (rule, org, dim, direction, kind, n, key)
        for pred, rs in signal_rows(self.derived.values() if only is None else ()).items():
            p.assert_rows(pred, rs)

    # -- stratum "mechanics" ---------------------------------------------------------------
    #: What readers need, read from the relations strata kept: attribute -> (relation, arity, key
    #: arguments, value of a row (of the key's rows if many), many); SETS: attribute -> (relation, arity).
    COLLECT = {
        "values": ("value", 6, 3, lambda r: (r[3], r[4] or None, r[5]), False),
        "conflicts": ("conflict", 5, 3, lambda r: (r[3], r[4]), False),
        "effective": ("effective", 4, 2, lambda r: (r[2], r[3]), False),
        "stated": ("b0", 3, 1, lambda r: (r[1], r[2]), False),
        "held": ("held", 3, 2, lambda rows: {r[2] for r in rows}, True),
        "informational": ("informational", 2, 1, lambda rows: {r[1] for r in rows}, True),
        "evclass": ("evclass", 3, 2, lambda r: r[2], False),
        "bands": ("band", 3, 2, lambda r: r[2], False),
        "roles": ("org_role", 2, 1, lambda r: r[1], False),
        "hops": ("hop_of", 2, 1, lambda r: r[1], False),
        "placements": ("placed", 2, 1, lambda r: r[1], False),
        "candidate_results": ("candidate_result", 2, 1, lambda r: r[1], False),
    }
    SETS = {"admissible": ("admissible", 2), "self_favour": ("self_favour", 1), "ranked": ("ranked", 1),
            "counted": ("counted", 1)}

    def _collect(self) -> None:
        # Views over the kept relations, read through their indexes, not dicts beside them: at 5,000
        # orgs those copies (a key tuple and a value tuple per row) held about a tenth of the memory.
        for attr, (name, arity, n, value, many) in self.COLLECT.items():
            setattr(self, attr, _ByKey(self.program.indexed(name, arity), n, value, many))
        for attr, (name, n) in self.SETS.items():
            setattr(self, attr, _ByKey(self.program.indexed(name, n), n, None))

    @classmethod
    def stored(cls, facts, model, derived: Dict[str, "DerivedSignal"], origins,
               live: Callable[[], "Derivation"]) -> "Derivation":
        """A derivation read from a stored model (logic/store/): each dict looks up one key at a
        time. ``live`` derives the world when something needs the engine itself (a pyDatalog goal)."""
        d = cls(facts, model)
        for attr, (name, arity, n, value, many) in cls.COLLECT.items():
            setattr(d, attr, Keyed(model, name, arity, n, value, many))
        for attr, (name, n) in cls.SETS.items():
            setattr(d, attr, KeyedSet(model, name, n))
        d.derived = derived
        d.derived_rows = _DerivedRows(derived)
        d.origins = origins
        d._live = live
        return d

    def view_of(self, signal: str, policy: str) -> str:
        """The view a policy reads a signal's citations in: 'ai' only where against-interest drops some."""
        return "ai" if policy == "against-interest" and signal in self.self_favour else "all"

    # -- helpers for readers -------------------------------------------------------------------
    def effective_stake(self, holder: str, subject: str) -> Fraction:
        found = self.program.match("stake_total", 3, [(0, holder), (1, subject)])
        return min(found[0][2], Fraction(1)) if found else Fraction(0)

    def is_lab_investor(self, node: str) -> bool:
        return bool(self.program.match("is_lab_investor", 1, [(0, node)]))

    def is_lab_owner(self, node: str) -> bool:
        return bool(self.program.match("lab_owner", 2, [(0, node)]))

    def signal_ids(self, org: str, dim: str) -> List[str]:
        """Every signal on ``org``/``dim``, recorded and derived, sorted by id."""
        return sorted({row[0] for row in self.program.match("signal", 4, [(1, org), (2, dim)])})


class _ByKey(Mapping):
    """A kept relation read as ``{row[:n]: value(row)}`` (the last row of a key wins; with ``many``,
    ``value(rows of the key)``; with no ``value``, a set of its rows) through the index on its first
    argument: what :func:`~provlog.logic.model.whole` would build, without a second copy of the rows.

        >>> from provlog.logic.engine import Table
        >>> t = Table(); _ = t.extend([("s1", "standard", "cap", 2), ("s1", "primary-only", "cap", 1)])
        >>> eff = _ByKey(t, 2, lambda r: (r[2], r[3]))
        >>> eff[("s1", "standard")], eff.get(("s2", "standard")), ("s1", "primary-only") in eff, len(eff)
        (('cap', 2), None, True, 2)
    """

    def __init__(self, table, n: int, value: Optional[Callable], many: bool = False):
        self._table, self._n, self._value, self._many = table, n, value, many
        self._all: Optional[Dict] = None

    def _rows(self, key) -> Sequence[Tuple]:
        if self._n == 1:
            return self._table.lookup(0, key)
        if type(key) is not tuple or len(key) != self._n:
            return ()
        rows = self._table.lookup(0, key[0])
        if self._n == 2:  # the common keys (signal, policy), (org, policy): no slice per row
            k1 = key[1]
            return [r for r in rows if r[1] == k1]
        if self._n == 3:  # (org, dim, policy): values, conflicts
            k1, k2 = key[1], key[2]
            return [r for r in rows if r[2] == k2 and r[1] == k1]
        rest = key[1:]
        return [r for r in rows if r[1:self._n] == rest]

    def get(self, key, default=None):
        rows = self._rows(key)
        if not rows:
            return default
        if self._value is None:
            return True
        return self._value(rows) if self._many else self._value(rows[-1])

    def __getitem__(self, key):
        got = self.get(key, _ABSENT)
        if got is _ABSENT:
            raise KeyError(key)
        return got

    def __contains__(self, key) -> bool:
        return bool(self._rows(key))

    def _whole(self) -> Dict:
        if self._all is None:
            self._all = whole(self._table.rows, self._n, self._value or (lambda r: True), self._many)
        return self._all

    def __iter__(self):
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())


_ABSENT = object()


class _DerivedRows(dict):
    """``derived_rows`` of a stored derivation: each signal's derive(...) row, from its DerivedSignal."""

    def __init__(self, derived):
        super().__init__()
        self._d = derived

    def __missing__(self, sid):
        s = self._d[sid]
        return (s.rule, s.org, s.dim, s.direction, s.kind, s.bound, s.key)
