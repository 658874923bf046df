"""Answers of a world (part of :class:`~provlog.queries.api.World`): values, cards, bands and
roles; signals; stakes and hops; money (queries/money.py); benchmark results (queries/results.py)."""
from __future__ import annotations

import weakref
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

from ..errors import UnknownName
from ..facts import DIMS
from .locking import _locked
from .records import DEFAULT_POLICY, Card, Clamp, Note, Signal, Value, weighted_number


class WorldAnswers:
    """What a loaded world answers, by org, dimension and policy (names checked by ``World._check``)."""

    # -- values -------------------------------------------------------------------------------
    def _clamps(self, dim: str, policy: str, effective) -> Tuple[Clamp, ...]:
        """The held clamps among ``effective`` (signal, its effective (kind, bound) or None) under ``policy``."""
        d = self.derivation
        out = []
        for sid, eff in effective:
            if eff is None or (sid, policy) not in d.admissible:
                continue
            view = d.view_of(sid, policy)
            held = d.held.get((sid, view))
            if held is None:
                continue
            kind, stated = d.stated[sid]
            out.append(Clamp(sid, dim, kind, stated, eff[1], tuple(sorted(held, key=_clause_order))))
        return tuple(out)

    def _notes(self, dim: str, sids: List[str]) -> Tuple[Note, ...]:
        """The informational notes of the signals ``sids`` on ``dim`` (each signal's made once per
        derivation: they do not depend on the policy, and each is a small proof)."""
        d = self.derivation
        memo = self.__dict__.get("_note_memo")
        if memo is None or memo[0]() is not d:  # a new derivation (an edit, a reload): new notes
            memo = self._note_memo = (weakref.ref(d), {})  # weak: a replaced derivation is not kept alive
        out: List[Note] = []
        for sid in sids:
            if sid not in d.informational:
                continue
            notes = memo[1].get(sid)
            if notes is None:
                notes = memo[1][sid] = self._signal_notes(sid, dim)
            out += notes
        return tuple(out)

    def _signal_notes(self, sid: str, dim: str) -> Tuple[Note, ...]:
        from ..explain.why import informational_notes

        d = self.derivation
        f = self.facts.signals.get(sid)
        kind, stated = (f["kind"], f["bound"]) if f is not None else (d.derived[sid].kind, d.derived[sid].bound)
        return tuple(Note(sid, dim, kind, stated, clause, note) for clause, note, _ in informational_notes(d, sid))

    def _signal_ids(self, org: str, dim: str) -> List[str]:
        return self.derivation.signal_ids(org, dim)

    @_locked
    def value(self, org: str, dim: str, policy: str = DEFAULT_POLICY) -> Value:
        """The value of ``org`` on ``dim`` under ``policy``, with its deciding signal and clamps."""
        self._check(org, dim, policy)
        d = self.derivation
        key = (org, dim, policy)
        conflict = d.conflicts.get(key)
        sids = self._signal_ids(org, dim)  # read once: the bounds, clamps and notes all come from them
        effective = [(s, d.effective.get((s, policy))) for s in sids]
        caps = [e[1] for _, e in effective if e is not None and e[0] == "cap"]
        floors = [e[1] for _, e in effective if e is not None and e[0] == "floor"]
        got = d.values.get(key)
        x, sig, rule = got if got else (None, None, None)
        return Value(org, dim, policy, x, sig, rule, conflict is not None,
                     min(caps) if caps else None, max(floors) if floors else None,
                     bool(got and got[1] is None and conflict is not None), self._clamps(dim, policy, effective),
                     self._notes(dim, sids))

    @_locked
    def card(self, org: str, policy: str = DEFAULT_POLICY, preset: Optional[str] = None) -> Card:
        """All eight values, band, role, conflicts and held clamps of ``org``."""
        self._check(org, None, policy)
        if preset is not None and preset not in self.facts.presets:
            raise UnknownName(f"unknown preset {preset!r}; presets: {', '.join(sorted(self.facts.presets)) or 'none'}")
        vals = {dim: self.value(org, dim, policy) for dim in DIMS}
        conflicts = []
        for dim, v in vals.items():
            if v.conflict:
                res = next((f for f in self.facts.of("resolution") if f["org"] == org and f["dim"] == dim), None)
                conflicts.append({"dim": dim, "cap": v.cap, "floor": v.floor, "resolved": v.resolved,
                                  "resolution": None if res is None else {"value": res["value"], "rule": res["rule"]}})
        weighted = None
        if preset is not None:
            weighted = weighted_number({d: v.value for d, v in vals.items()}, self.facts.presets[preset])
        from . import cardfields as cf

        d, by_fid, values = self.derivation, self.facts.by_fid, {dim: v.value for dim, v in vals.items()}
        stated = {s: (f["kind"], f["bound"]) for s, f in self.facts.signals.items() if f["org"] == org}
        return Card(org, policy, values,
                    d.bands.get((org, policy), "clear"), self.role(org), conflicts,
                    [c for v in vals.values() for c in v.clamps],
                    {dim: (v.signal, v.rule) for dim, v in vals.items()}, preset, weighted,
                    [n for v in vals.values() for n in v.notes],
                    cf.tags(d, self.facts.signals, org, policy, values), cf.requests(d, by_fid, org),
                    cf.recorded(d, by_fid, org), cf.lifts(d, by_fid, org, stated))

    @_locked
    def band(self, org: str, policy: str = DEFAULT_POLICY) -> str:
        self._check(org, None, policy)
        return self.derivation.bands.get((org, policy), "clear")

    @_locked
    def role(self, org: str) -> str:
        """The derived role (section 10), under leads-included."""
        self._check(org)
        return self.derivation.roles.get(org, "unclassified")

    @_locked
    def placement(self, org: str) -> str:
        """The org's list on the site (sections 10-11, logic/population.py ``placed``): referees,
        government, commercial (the ranked lists), watchlist, out-of-scope or unclassified."""
        self._check(org)
        return self.derivation.placements.get(org, "unclassified")

    @_locked
    def ranked(self, org: str) -> bool:
        """Whether the org is in a ranked list (section 10: never an entrant, never out of scope)."""
        self._check(org)
        return org in self.derivation.ranked

    @_locked
    def counted(self) -> List[str]:
        """The orgs every statistic counts, in the world's order (section 11: none out of scope)."""
        return [o for o in self.orgs if o in self.derivation.counted]

    def in_scope(self) -> List[str]:
        """:meth:`counted` read from the statements, without deriving the world (``provlog check``
        counts with it: a check costs a load): logic/population.py ``counted_orgs``."""
        from ..logic.population import counted_orgs

        counted = set(counted_orgs(self.facts))
        return [o for o in self.orgs if o in counted]

    # -- signals --------------------------------------------------------------------------------
    @_locked
    def signals(self, org: Optional[str] = None) -> List[Signal]:
        """Every signal, recorded and derived (of one org if given), sorted by id."""
        if org is not None:
            self._check(org)
        out = []
        cites: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        for c in self.facts.of("cite"):
            cites.setdefault(c["signal"], []).append((c["source"], c["span"]))
        for f in self.facts.of("signal"):
            if org is None or f["org"] == org:
                cs = [(s, None) for s in f.src] + cites.get(f["id"], [])
                out.append(Signal(f["id"], f["org"], f["dim"], f["direction"], f["kind"], f["bound"], f["rule"],
                                  False, tuple(cs), f["status"] or "active", "negative" in f.flags, str(f.loc)))
        for s in self.derivation.derived.values():
            if org is None or s.org == org:
                out.append(Signal(s.id, s.org, s.dim, s.direction, s.kind, s.bound, s.rule, True,
                                  tuple((src, span or None) for src, span in s.cites), facts=s.facts))
        return sorted(out, key=lambda s: s.id)

    @_locked
    def effective_stake(self, holder: str, subject: str) -> Fraction:
        """Exact effective stake of ``holder`` in ``subject`` (sum over simple chains, at most 100%)."""
        return self.derivation.effective_stake(holder, subject)

    @_locked
    def is_lab_investor(self, node: str) -> bool:
        return self.derivation.is_lab_investor(node)

    @_locked
    def is_lab_owner(self, node: str) -> bool:
        return self.derivation.is_lab_owner(node)

    @_locked
    def hop(self, node: str) -> Optional[int]:
        """Ties to the nearest lab (0 for a lab), or None beyond 4."""
        return self.derivation.hops.get(node)

    # -- money ---------------------------------------------------------------------------------------
    @_locked
    def hops(self, org: str):
        """Each money row into ``org`` with the payer's hop bucket and a shortest tie path to a lab."""
        from .money import hop_rows

        self._check(org)
        return hop_rows(self, org)

    @_locked
    def hop_paths(self, node: str, limit: int = 10):
        """Every shortest tie path from any lab, org, entity or person to a lab (at most ``limit``,
        lexicographic by node ids), each tie labelled with its statement (queries/money.py)."""
        from .money import hop_paths

        self._check_node(node)
        return hop_paths(self, node, limit)

    @_locked
    def hop_report(self, node: str, limit: int = 10) -> Dict[str, Any]:
        """What ``provlog hops`` shows: paths, and for an org its money rows (docs/json.md, "hops")."""
        from .money import hop_report

        self._check_node(node)
        return hop_report(self, node, limit)

    @_locked
    def matrix(self, year: Optional[int] = None):
        """The money matrix (queries/money.py): orgs x hop buckets, amounts per currency; of one year if given."""
        from .money import money_matrix

        return money_matrix(self, year)

    # -- benchmark results (logic/lanes.py) ----------------------------------------------------------
    @_locked
    def results(self, org: Optional[str] = None):
        """Each ``result`` (of ``org`` if given) with lane multiplier, freshness and magnitude
        at the world's as-of date, and the M.3 signal it derives, if any."""
        from .results import result_rows

        if org is not None:
            self._check(org)
        return result_rows(self, org)

    @property
    @_locked
    def as_of(self) -> str:
        """The date the world is read at: ``World.load(..., as_of=)``, else the world's own
        ``as-of`` statement, else today."""
        from .results import as_of_date

        return as_of_date(self)

    @property
    def as_of_origin(self) -> str:
        """Where :attr:`as_of` comes from: ``given``, ``stated at <file:line>`` or ``today``."""
        stated = self.facts.of("as-of")
        if self.as_of_given:
            return "given"
        return f"stated at {stated[0].loc}" if stated else "today"

    def legacy_lanes(self) -> List[str]:
        """Each result and catalog source in a legacy lane (pending, candidate, retired, unknown), located."""
        from .results import legacy_lanes

        return legacy_lanes(self.facts)


def _clause_order(c: str):
    from ..explain.why import clause_order  # the explainer's order (explain is imported where it is used)

    return clause_order(c)
