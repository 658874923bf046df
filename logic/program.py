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
from typing import Dict, List, Optional, Set, Tuple

from ..facts.model import Fact, FactSet
from ..grammar.parser import paused_gc
from ..facts.schema import POLICY_NAMES
from . import edb, strata
from .engine import Program
from .mechanics import MECHANICS
from . import structure  # noqa: F401  (registers the structural rules in MECHANICS)
from . import lanes  # noqa: F401  (registers the provenance-lane rules and M.3 in MECHANICS)

RULEBOOK = MECHANICS

#: The largest per-policy relations, asked one policy at a time (a fifth of pyDatalog's working set).
PER_POLICY = {name: (at, POLICY_NAMES) for name, at in (
    ("admissible", 1), ("effective", 1), ("smallest", 2), ("largest", 2), ("has_cap", 2), ("value", 2),
    ("conflict", 2))}

#: rows kept by a derivation above which its objects are frozen out of the cyclic collector's walks
FREEZE_ABOVE = 50_000


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


def _sort_key(key, facts_by_id: Dict[str, Fact]):
    if isinstance(key, str) and key in facts_by_id:
        return (1, facts_by_id[key].canon())
    return (0, str(key))


@dataclass
class Derivation:
    """All answers of the rules over one world."""

    facts: FactSet
    program: Program
    derived: Dict[str, DerivedSignal] = field(default_factory=dict)
    values: Dict[Tuple[str, str, str], Tuple[int, Optional[str], str]] = field(default_factory=dict)
    conflicts: Dict[Tuple[str, str, str], Tuple[int, int]] = field(default_factory=dict)
    effective: Dict[Tuple[str, str], Tuple[str, int]] = field(default_factory=dict)  # (S, P) -> (K, B)
    stated: Dict[str, Tuple[str, int]] = field(default_factory=dict)
    held: Dict[Tuple[str, str], Set[str]] = field(default_factory=dict)  # (S, V) -> clauses
    evclass: Dict[Tuple[str, str], str] = field(default_factory=dict)
    admissible: Set[Tuple[str, str]] = field(default_factory=set)
    bands: Dict[Tuple[str, str], str] = field(default_factory=dict)
    roles: Dict[str, str] = field(default_factory=dict)
    hops: Dict[str, int] = field(default_factory=dict)
    derived_rows: Dict[str, Tuple] = field(default_factory=dict)  # derived signal -> its derive(...) row
    origins: edb.Origins = field(default_factory=edb.Origins)  # EDB row -> its facts
    self_favour: Set[str] = field(default_factory=set)  # for-signals citing their org's own pages (C17)

    @classmethod
    def run(cls, facts: FactSet, as_of: Optional[str] = None, freeze: bool = False) -> "Derivation":
        """Derive everything; ``freeze`` (for short-lived processes such as the CLI) moves a large
        derivation's objects out of the collector's walks for the rest of the process."""
        # pyDatalog makes hundreds of thousands of small objects that live as long as the world;
        # the cyclic collector would walk them all again and again (about 60% of the time).
        with paused_gc():
            d = cls._run(facts, as_of)
        if freeze and gc.isenabled() and sum(map(len, d.program.tables.values())) > FREEZE_ABOVE:
            # Left to the collector, its next full walk would visit all that the world keeps (0.2 s at
            # 200 orgs, seconds at 5,000: the first `why` paid it); frozen, collections skip it. It is
            # never undone, so only a caller that owns the process asks for it.
            gc.freeze()
        return d

    @classmethod
    def _run(cls, facts: FactSet, as_of: Optional[str] = None) -> "Derivation":
        program = Program()
        for pred, arity in edb.PREDICATES.items():
            program.declare(pred, arity)
        origins = edb.Origins()
        for pred, rows in edb.rows(facts, as_of, origins).items():
            program.assert_rows(pred, rows)
        program.load_rules([r.text for r in RULEBOOK.rules])
        d = cls(facts, program)
        d.origins = origins
        done: Set[str] = set()
        # Stratum "derive" first (derived signals join the EDB after it), then the rest.
        strata.materialize(program, RULEBOOK.rules, strata.plan(RULEBOOK.rules, ["derive", "uses"]), done)
        d._derive_signals()
        strata.materialize(program, RULEBOOK.rules, strata.plan(RULEBOOK.rules, [r.head_name for r in RULEBOOK.rules]), done,
                           PER_POLICY)
        d._collect()
        return d

    # -- stratum "derive" ----------------------------------------------------------------
    def _derive_signals(self) -> None:
        p = self.program
        by_id = {f.fid: f for f in self.facts}
        uses: Dict[Tuple, Set[str]] = defaultdict(set)
        for rule, org, key, fs in p.match("uses", 4, []):
            uses[(rule, org, key)].update(fs)
        groups: Dict[Tuple[str, str], List[Tuple]] = defaultdict(list)
        for rule, org, dim, direction, kind, n, key in p.match("derive", 7, []):
            groups[(rule, org)].append((key, dim, direction, kind, n))
        rows = defaultdict(list)
        for (rule, org), items in sorted(groups.items()):
            items.sort(key=lambda it: (_sort_key(it[0], by_id), it[1], it[3], it[4]))
            for i, (key, dim, direction, kind, n) in enumerate(items, 1):
                fids = tuple(sorted(uses.get((rule, org, key), ()), key=lambda f: by_id[f].canon()))
                cites = sorted({(s, by_id[f].span or "") for f in fids for s in by_id[f].src})
                sid = f"{rule}/{org}/{i}"
                self.derived[sid] = DerivedSignal(sid, rule, org, dim, direction, kind, n, key, fids, tuple(cites))
                rows["signal"].append((sid, org, dim, direction))
                self.derived_rows[sid] = (rule, org, dim, direction, kind, n, key)
                rows["stated"].append((sid, kind, n))
                rows["status"].append((sid, "active"))
                rows["signal_rule"].append((sid, rule))
                rows["precedence"].append((sid, 1))
                for src, span in cites:
                    rows["cites"].append((sid, src, span))
        for pred, rs in rows.items():
            p.assert_rows(pred, rs)

    # -- stratum "mechanics" ---------------------------------------------------------------
    #: What readers need: each relation's answers, kept when its stratum was evaluated.
    REPORT = ("value", "conflict", "effective", "b0", "held", "evclass", "admissible", "band", "org_role",
              "hop_of", "self_favour")

    def _collect(self) -> None:
        got = {name: self.program.table(name) for name in self.REPORT}
        for o, d, pol, x, s, rule in got["value"]:
            self.values[(o, d, pol)] = (x, s or None, rule)
        for o, d, pol, c, f in got["conflict"]:
            self.conflicts[(o, d, pol)] = (c, f)
        for s, pol, k, b in got["effective"]:
            self.effective[(s, pol)] = (k, b)
        for s, k, n in got["b0"]:
            self.stated[s] = (k, n)
        for s, v, c in got["held"]:
            self.held.setdefault((s, v), set()).add(c)
        for s, v, c in got["evclass"]:
            self.evclass[(s, v)] = c
        self.admissible = set(got["admissible"])
        for o, pol, b in got["band"]:
            self.bands[(o, pol)] = b
        for o, role in got["org_role"]:
            self.roles[o] = role
        for x, n in got["hop_of"]:
            self.hops[x] = n
        self.self_favour = {s for (s,) in got["self_favour"]}

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
