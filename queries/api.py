"""The query API: load a world, ask for values, cards, signals, hops and checks.

    >>> from provlog import World                              # doctest: +SKIP
    >>> w = World.load("facts/worlds/example")                 # doctest: +SKIP
    >>> v = w.value("harbor-eval", "F", policy="standard")     # doctest: +SKIP
    >>> v.value, v.rule, [c.clauses for c in v.clamps]         # doctest: +SKIP

Several worlds can be loaded side by side: each owns its Datalog program.
"""
from __future__ import annotations

import functools
import os
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple, Union

from ..errors import UnknownName
from ..facts import DIMS, Diagnostic, FactSet, LoadError, load_text, load_world
from ..facts.schema import POLICY_NAMES
from ..grammar import QueryError, parse_goal
from ..logic import CORE, RULEBOOKS, Derivation
from ..logic.goal import answer

DEFAULT_POLICY = "standard"
STORED_POLICY = "leads-included"  # stored values and roles derive under it (section 0)

__all__ = ["Card", "Clamp", "LoadError", "Signal", "UnknownName", "Value", "World", "DEFAULT_POLICY"]


@dataclass(frozen=True)
class Clamp:
    """A bound that a clause held: ``stated`` became ``effective``."""

    signal: str
    dim: str
    kind: str
    stated: int
    effective: int
    clauses: Tuple[str, ...]

    def to_json(self) -> Dict[str, Any]:
        return {"signal": self.signal, "dim": self.dim, "kind": self.kind, "stated": self.stated,
                "effective": self.effective, "clauses": list(self.clauses)}


@dataclass(frozen=True)
class Note:
    """A signal a clause makes informational (section 9's mis-dimensioned facts, F.11, A.3): its
    stated bound bounds nothing, and ``note`` (the bound_note) names the clause and what to do."""

    signal: str
    dim: str
    kind: str
    stated: int
    clause: str
    note: str

    def to_json(self) -> Dict[str, Any]:
        return {"signal": self.signal, "dim": self.dim, "kind": self.kind, "stated": self.stated,
                "clause": self.clause, "note": self.note}


@dataclass(frozen=True)
class Value:
    """One derived value, with what decided it."""

    org: str
    dim: str
    policy: str
    value: Optional[int]
    signal: Optional[str]
    rule: Optional[str]
    conflict: bool
    cap: Optional[int] = None  # smallest admissible cap
    floor: Optional[int] = None  # largest admissible floor
    resolved: bool = False
    clamps: Tuple[Clamp, ...] = ()
    notes: Tuple[Note, ...] = ()  # signals on the dimension that a clause makes informational

    def __str__(self) -> str:
        return "-" if self.value is None else str(self.value)

    def to_json(self) -> Dict[str, Any]:
        return {"org": self.org, "dim": self.dim, "policy": self.policy, "value": self.value,
                "signal": self.signal, "rule": self.rule, "conflict": self.conflict,
                "cap": self.cap, "floor": self.floor, "resolved": self.resolved,
                "clamps": [c.to_json() for c in self.clamps], "notes": [n.to_json() for n in self.notes]}


@dataclass(frozen=True)
class Card:
    org: str
    policy: str
    values: Dict[str, Optional[int]]
    band: str
    role: str
    conflicts: List[Dict[str, Any]]
    clamps: List[Clamp]
    deciders: Dict[str, Tuple[Optional[str], Optional[str]]] = field(default_factory=dict)
    preset: Optional[str] = None
    weighted: Optional[Fraction] = None
    notes: List[Note] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        out = {"org": self.org, "policy": self.policy, "values": dict(self.values), "band": self.band,
               "role": self.role, "conflicts": self.conflicts, "clamps": [c.to_json() for c in self.clamps],
               "notes": [n.to_json() for n in self.notes],
               "rules": {d: r for d, (s, r) in self.deciders.items()},
               "signals": {d: s for d, (s, r) in self.deciders.items()}}  # the deciding signal ids the text card shows
        if self.preset is not None:
            out["preset"] = self.preset
            out["weighted"] = None if self.weighted is None else round(float(self.weighted), 4)
        return out


@dataclass(frozen=True)
class Signal:
    """A recorded or derived signal, as the rules see it."""

    id: str
    org: str
    dim: str
    direction: str
    kind: str
    bound: Optional[int]
    rule: str
    derived: bool
    cites: Tuple[Tuple[str, Optional[str]], ...]
    status: str = "active"
    negative: bool = False
    loc: Optional[str] = None
    facts: Tuple[str, ...] = ()  # derived: the fact ids of its proofs


@dataclass(frozen=True)
class ExpectResult:
    loc: str
    text: str
    ok: bool
    got: Any
    expected: Any


def _locked(method):
    """Run ``method`` holding the world's lock (see :class:`World`)."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return run


class World:
    """A loaded world and everything the rules derive from it.

    A World is safe to share between threads: every method that reads its
    program, its rulebooks or the explainer's and readers' caches holds one
    lock (an RLock), so two threads get the same answers and the same proofs
    as one would; they take turns rather than run side by side.
    """

    def __init__(self, facts: FactSet, as_of: Optional[str] = None, name: str = "", freeze: bool = False,
                 lazy: bool = False, progress=None, rulebooks: Optional[Dict[str, Any]] = None):
        """``freeze``: see :meth:`Derivation.run` (the CLI sets it; a library caller keeps its collector).
        ``lazy``: derive on first use (``check`` and ``fingerprint`` never do); ``progress``: see
        :meth:`Derivation.run` (queries/progress.py draws it). ``rulebooks``: the rulebooks a goal may
        name, by name (default: logic/registry.py's ``RULEBOOKS``); the independence RULES are always
        the world's own."""
        #: the rulebooks a goal of this world may name (``--rulebook``), by name, the RULES first
        self.rulebooks: Dict[str, Any] = RULEBOOKS if rulebooks is None else {CORE.name: CORE, **rulebooks}
        self._lock = threading.RLock()
        self.facts = facts
        self.name = name
        self.as_of_given = as_of  # None: the world's own as-of statement, else today (see as_of_origin)
        self._freeze = freeze
        self._progress = progress
        self._derivation: Optional[Derivation] = None
        self._store = None  # (target, how) to write the derivation to, or the open store it was read from
        self.edited: Optional[List[str]] = None  # the orgs derived again after an edit (logic/edit.py), if it was
        if not lazy:
            self.derivation

    @property
    def derivation(self) -> Derivation:
        """Everything the rules derive from the world (derived on first use, or read from a store)."""
        with self._lock:
            if self._derivation is None and isinstance(self._store, tuple) and self._edit_store(*self._store):
                return self._derivation
            if self._derivation is None:
                self._derivation = Derivation.run(self.facts, self.as_of_given, freeze=self._freeze,
                                                  progress=self._progress)
                if isinstance(self._store, tuple) and not self.store_after_answer:
                    self._write_store(*self._store)
            return self._derivation

    #: True (the CLI): a first derivation is stored by :meth:`store_now`, once the answer is out
    store_after_answer = False

    def store_now(self) -> None:
        """Store the derivation made since loading, if there is one and it is not stored yet."""
        if self._derivation is not None and isinstance(self._store, tuple) and not self.__dict__.get("_stored"):
            self._stored = True
            self._write_store(*self._store)

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Union[str, os.PathLike], strict: bool = False, as_of: Optional[str] = None,
             freeze: bool = False, store: Union[None, bool, str, os.PathLike] = None, progress=None,
             rulebooks: Optional[Dict[str, Any]] = None) -> "World":
        """Load a ``.facts`` file or folder; raises :class:`LoadError` listing every error.

        ``store``: None or False reads and writes no store; True the default one (``.provlog/`` in the
        world's folder); a path that store file. A store made from exactly these inputs answers without
        parsing or deriving; otherwise the world is loaded, and its first derivation is stored
        (docs/store.md). The world derives on first use.
        """
        if not store:
            return cls(load_world(path, strict=strict), as_of=as_of, name=str(path), freeze=freeze, lazy=True,
                       progress=progress, rulebooks=rulebooks)
        from ..logic import store as S

        target = S.default_path(path) if store is True else S.Path(store)
        try:
            before = S.inputs(path, strict, as_of)
        except OSError:
            before = None  # unreadable: the loader says what is wrong
        if before is not None:
            opened = S.open_store(target, lambda files: S.inputs(path, strict, as_of, files))
            if opened is not None:
                return cls._from_store(opened, as_of, str(path), rulebooks)
        facts = load_world(path, strict=strict)
        w = cls(facts, as_of=as_of, name=str(path), freeze=freeze, lazy=True, progress=progress, rulebooks=rulebooks)
        if before is not None:
            w._store = (target, (path, strict, before))
        return w

    #: every store a World of this process was read from (the CLI removes one found damaged)
    opened_stores: List = []

    @classmethod
    def _from_store(cls, opened, as_of: Optional[str], name: str, rulebooks=None) -> "World":
        from ..logic import store as S

        facts = S.StoredFacts(opened)
        w = cls(facts, as_of=as_of, name=name, lazy=True, rulebooks=rulebooks)
        w._read_store(opened, facts)
        return w

    def _read_store(self, opened, facts) -> None:
        """Answer from ``opened`` (its facts ``facts``: a StoredFacts)."""
        from ..logic import store as S
        from ..logic.program import DerivedSignal

        self.opened_stores.append(opened.path)
        self._store = opened
        as_of = self.as_of_given

        def live() -> Derivation:  # what only the engine answers (a pyDatalog goal): derive, once
            if not hasattr(self, "_live"):
                self._live = Derivation.run(facts.to_factset(), as_of)
            return self._live

        model = S.StoredModel(opened, live)
        self._derivation = Derivation.stored(facts, model, S.derived_signals(opened, DerivedSignal),
                                             S.StoredOrigins(opened, facts), live)

    def _edit_store(self, target, how) -> bool:
        """Write this world's store from its previous one, if they differ only in signals and cites
        (logic/edit.py: the orgs they touch are derived again, alone), and answer from it."""
        import sqlite3

        from ..logic import edit
        from ..logic import store as S

        path, strict, before = how
        old = S.open_store(target, None, quiet=True)  # World.load opened it first, and said if it is damaged
        if old is None:
            return False
        try:
            now = S.inputs(path, strict, self.as_of_given, self.facts.files)
            if any(now["files"].get(n) != h for n, h in before["files"].items()) or now["listed"] != before["listed"]:
                return False  # a file changed while it was read
            self.edited = edit.update(target, old, self.facts, now, self.fingerprint(), self.as_of_given)
        except (edit.Refused, OSError, S.StoreError, sqlite3.Error, KeyError, ValueError, TypeError):  # derive whole
            return False
        finally:
            old.con.close()
        opened = S.open_store(target, lambda files: S.inputs(path, strict, self.as_of_given, files))
        if opened is None:
            return False
        self._read_store(opened, S.StoredFacts(opened))
        return True

    def _write_store(self, target, how) -> None:
        """Store this world's derivation, if its files are still the ones it was loaded from."""
        from ..logic import store as S

        path, strict, before = how
        try:
            now = S.inputs(path, strict, self.as_of_given, self.facts.files)
            if any(now["files"].get(n) != h for n, h in before["files"].items()) or now["listed"] != before["listed"]:
                return  # a file changed while it was read: store nothing
            S.write(target, self._derivation, now, self.fingerprint())
        except (OSError, S.StoreError) as e:
            S.warn(f"store not written to {target} ({e})")

    def export(self, target: Union[str, os.PathLike]) -> None:
        """Write this world's stored model to ``target`` (a SQLite file; docs/store.md)."""
        from ..logic import store as S

        if self._store is not None and not isinstance(self._store, tuple):
            S.copy(self._store, target)
            return
        inp = S.inputs(self.name, False, self.as_of_given, self.facts.files) if self.name else {}
        S.write(S.Path(target), self.derivation, inp, self.fingerprint())

    @classmethod
    def from_text(cls, text: str, name: str = "<text>", strict: bool = False, as_of: Optional[str] = None,
                  rulebooks: Optional[Dict[str, Any]] = None) -> "World":
        return cls(load_text(text, name, strict=strict), as_of=as_of, name=name, rulebooks=rulebooks)

    # -- reproducibility ----------------------------------------------------------------------------------
    def fingerprint(self) -> Dict[str, str]:
        """SHA-256 of the canonical facts (order and layout free) and of the rules.

        Any published number can be reproduced from a world whose facts hash the
        same, evaluated by rules that hash the same.
        """
        if self._store is not None and not isinstance(self._store, tuple):
            import json

            return json.loads(self._store.meta["fingerprint"])
        cached = self.__dict__.get("_fingerprint")  # a loaded world never changes
        if cached is not None:
            return dict(cached)
        import hashlib

        facts = "\n".join(sorted(f.canon() for f in self.facts)).encode("utf-8")
        # every rulebook's rules, the independence RULES first (the registry's order)
        rules = "\n".join(f"{name}\t{r.clause}\t{r.text}" for name, book in self.rulebooks.items()
                          for r in book.rules.rules).encode("utf-8")
        self.__dict__["_fingerprint"] = {"facts": hashlib.sha256(facts).hexdigest(),
                                         "rules": hashlib.sha256(rules).hexdigest()}
        return dict(self.__dict__["_fingerprint"])

    def warnings(self) -> List[Diagnostic]:
        """What ``provlog check`` warns of, in file order (queries/lint.py): signals that cite no
        source (W100), ``expect`` goal constants that name nothing in the world or the rules (W110)."""
        from .lint import warnings

        return warnings(self)

    # -- names ------------------------------------------------------------------------------
    @property
    def orgs(self) -> List[str]:
        return self.facts.orgs

    def _check(self, org: Optional[str] = None, dim: Optional[str] = None, policy: Optional[str] = None) -> None:
        if org is not None and (org not in self.facts.nodes or self.facts.nodes[org].kind != "org"):
            near = [o for o in self.orgs if o.startswith(org[:3])][:3]
            hint = f"; did you mean {', '.join(near)}?" if near else f"; orgs: {', '.join(self.orgs[:8])}"
            raise UnknownName(f"unknown org {org!r}{hint}")
        if dim is not None and (len(dim) != 1 or dim not in DIMS):
            raise UnknownName(f"unknown dimension {dim!r}; one of {' '.join(DIMS)}")
        if policy is not None and policy not in POLICY_NAMES:
            raise UnknownName(f"unknown policy {policy!r}; one of {', '.join(POLICY_NAMES)}")

    # -- values -------------------------------------------------------------------------------
    def _clamps(self, org: str, dim: str, policy: str) -> Tuple[Clamp, ...]:
        d = self.derivation
        out = []
        for sid in self._signal_ids(org, dim):
            view = d.view_of(sid, policy)
            if (sid, policy) not in d.admissible or (sid, view) not in d.held:
                continue
            kind, stated = d.stated[sid]
            eff = d.effective.get((sid, policy))
            if eff is None:
                continue
            out.append(Clamp(sid, dim, kind, stated, eff[1], tuple(sorted(d.held[(sid, view)], key=_clause_order))))
        return tuple(out)

    def _notes(self, org: str, dim: str) -> Tuple[Note, ...]:
        from ..explain.why import informational_notes

        d = self.derivation
        out = []
        for sid in self._signal_ids(org, dim):
            if sid not in d.informational:
                continue
            f = self.facts.signals.get(sid)
            kind, stated = (f["kind"], f["bound"]) if f is not None else (d.derived[sid].kind, d.derived[sid].bound)
            out += [Note(sid, dim, kind, stated, clause, note) for clause, note, _ in informational_notes(d, sid)]
        return tuple(out)

    def _signal_ids(self, org: str, dim: str) -> List[str]:
        return self.derivation.signal_ids(org, dim)

    @_locked
    def value(self, org: str, dim: str, policy: str = DEFAULT_POLICY) -> Value:
        """The value of ``org`` on ``dim`` under ``policy``, with its deciding signal and clamps."""
        self._check(org, dim, policy)
        d = self.derivation
        key = (org, dim, policy)
        conflict = d.conflicts.get(key)
        caps = [b for s in self._signal_ids(org, dim) for (k, b) in [d.effective.get((s, policy), (None, None))] if k == "cap"]
        floors = [b for s in self._signal_ids(org, dim) for (k, b) in [d.effective.get((s, policy), (None, None))] if k == "floor"]
        got = d.values.get(key)
        x, sig, rule = got if got else (None, None, None)
        return Value(org, dim, policy, x, sig, rule, conflict is not None,
                     min(caps) if caps else None, max(floors) if floors else None,
                     bool(got and got[1] is None and conflict is not None), self._clamps(org, dim, policy),
                     self._notes(org, dim))

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
        return Card(org, policy, {d: v.value for d, v in vals.items()},
                    self.derivation.bands.get((org, policy), "clear"), self.role(org), conflicts,
                    [c for v in vals.values() for c in v.clamps],
                    {d: (v.signal, v.rule) for d, v in vals.items()}, preset, weighted,
                    [n for v in vals.values() for n in v.notes])

    @_locked
    def band(self, org: str, policy: str = DEFAULT_POLICY) -> str:
        self._check(org, None, policy)
        return self.derivation.bands.get((org, policy), "clear")

    @_locked
    def role(self, org: str) -> str:
        """The derived role (section 10), under leads-included."""
        self._check(org)
        return self.derivation.roles.get(org, "unclassified")

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

    # -- ad-hoc queries ----------------------------------------------------------------------------
    @_locked
    def query(self, goal: str, rulebook: Optional[str] = None) -> List[Dict[str, Any]]:
        """Answer a Datalog goal over facts and derived relations; one dict per answer.

        >>> w.query("value(O, 'F', 'standard', X, S, R) & (X < 2)")   # doctest: +SKIP
        [{'O': 'tensor-eval', 'X': 1, 'S': 'F.4/tensor-eval/1', 'R': 'F.4'}]
        """
        parsed = parse_goal(goal)
        self._known_relations(goal, rulebook)
        names = parsed.variables()
        rows = answer(parsed, self.rulebook(rulebook).program)
        if rows == [()]:
            return [{}]
        out = [dict(zip(names, (_plain(v) for v in row))) for row in rows]
        return sorted(out, key=lambda d: [repr(d[k]) for k in names])

    def goal_notes(self, goal: str, rulebook: Optional[str] = None) -> List[str]:
        """Notes on a goal that may answer "no" by a typo: each string constant no fact, id or rule has."""
        from .hints import constant_notes

        return constant_notes(self, goal, rulebook)

    # -- rulebooks and goals -------------------------------------------------------------------------
    def _known_relations(self, goal: str, rulebook: Optional[str]) -> None:
        """Refuse a goal naming a relation the rulebook lacks, saying which it meant or which rulebook has it."""
        from .hints import unknown_relation_at

        book = self.rulebook_record(rulebook)
        found = unknown_relation_at(goal, rulebook, None if RULEBOOKS.get(book.name) is book else book)
        if found is not None:
            raise QueryError(*found)

    def rulebook_record(self, name: Optional[str]):
        """The :class:`~provlog.logic.rulebooks.Rulebook` a goal's ``--rulebook`` names (UnknownName if
        this world has none of that name)."""
        book = self.rulebooks.get(name or CORE.name)
        if book is None:
            raise UnknownName(f"unknown rulebook {name!r}; rulebooks: {', '.join(self.rulebooks)}")
        return book

    @_locked
    def rulebook(self, name: Optional[str] = None):
        """The evaluation of a rulebook over this world (None: the independence RULES): the
        derivation for the core, a :class:`~provlog.logic.rulebooks.RulebookRun` for another."""
        book = self.rulebook_record(name)
        if book is CORE:
            return self.derivation
        runs = self.__dict__.setdefault("_runs", {})
        if name not in runs:
            from ..logic.rulebooks import RulebookRun

            runs[name] = RulebookRun.run(self.facts, book)
        return runs[name]

    @_locked
    def holds(self, goal: str, rulebook: Optional[str] = None) -> bool:
        """Whether a Datalog goal has an answer (QueryError or UnknownName if it cannot be asked)."""
        return bool(self.query(goal, rulebook))

    @_locked
    def prove(self, goal: str, rulebook: Optional[str] = None, fmt: str = "text",
              depth: Optional[int] = None, start: Optional[int] = None) -> str:
        """The proof of every answer of an atom goal, in any rulebook: text, json (a list of
        DAGs) or dot (one digraph, a cluster per answer); ``depth``/``start`` cut every format."""
        from ..explain import to_dot, to_json, to_text
        from ..explain.goals import prove
        import json as _json

        parsed = parse_goal(goal)  # refuse anything that is not a Datalog goal, before loading a rulebook
        self._known_relations(goal, rulebook)
        roots, ex = prove(self.rulebook(rulebook), parsed)
        if not roots:
            return "no: the goal has no answer"
        if fmt == "json":
            if start is not None:  # one sub-proof, as `why --from`
                return _json.dumps([to_json(ex.graph, roots, depth, start)], indent=2, sort_keys=True, ensure_ascii=False)
            return _json.dumps([to_json(ex.graph, r, depth) for r in roots], indent=2, sort_keys=True, ensure_ascii=False)
        if fmt == "dot":
            return to_dot(ex.graph, roots, depth, start)
        return to_text(ex.graph, roots, depth, start)

    @_locked
    def refute(self, goal: str, rulebook: Optional[str] = None) -> List[Dict[str, Any]]:
        """Why a ground goal does not hold: for each rule, the first condition that fails."""
        from ..explain.goals import refute

        parsed = parse_goal(goal)
        self._known_relations(goal, rulebook)
        return refute(self.rulebook(rulebook), parsed)

    # -- expectations and verify ---------------------------------------------------------------------
    @_locked
    def check_expects(self) -> List[ExpectResult]:
        """Run every ``expect`` statement of the world."""
        out = []
        for f in sorted(self.facts.of("expect"), key=lambda f: f.loc):
            what = f["what"]
            pol = f["policy"] or DEFAULT_POLICY
            if what == "hop":
                got = self.hop(f["node"])
                text = f"expect hop {f['node']} = {_show(f['expected'], 'none')}"
                out.append(ExpectResult(str(f.loc), text, got == f["expected"], got, f["expected"]))
            elif what == "value":
                v = self.value(f["org"], f["dim"], pol)
                ok = v.value == f["expected"] and (f["rule"] is None or v.rule == f["rule"])
                text = f"expect {f['org']} {f['dim']} = {_show(f['expected'])} policy={pol}" + (f" rule={f['rule']}" if f["rule"] else "")
                got = f"{_show(v.value)}" + (f" rule={v.rule}" if f["rule"] else "")
                out.append(ExpectResult(str(f.loc), text, ok, got, f["expected"]))
            elif what == "band":
                got = self.band(f["org"], pol)
                out.append(ExpectResult(str(f.loc), f"expect {f['org']} band={f['expected']} policy={pol}",
                                        got == f["expected"], got, f["expected"]))
            elif what in ("holds", "fails"):
                text = f'expect {what} "{f["goal"]}"' + (f" rulebook={f['rulebook']}" if f["rulebook"] else "")
                try:
                    got = self.holds(f["goal"], f["rulebook"])
                except (QueryError, UnknownName) as e:  # a goal that cannot be asked fails its expect, with why
                    out.append(ExpectResult(str(f.loc), text, False, f"error: {e}", what))
                    continue
                out.append(ExpectResult(str(f.loc), text, got == (what == "holds"), "holds" if got else "fails", what))
            elif what == "role":
                got = self.role(f["org"])
                out.append(ExpectResult(str(f.loc), f"expect {f['org']} role={f['expected']}", got == f["expected"],
                                        got, f["expected"]))
        return out

    @_locked
    def verify(self) -> List[str]:
        """Stored assessments and roles against their derivation, and unresolved conflicts.

        Returns the problems, one line each; an empty list means the world verifies.
        """
        problems = []
        for f in sorted(self.facts.of("assessment"), key=lambda f: f.loc):
            org = f["org"]
            if f["dim"]:
                v = self.value(org, f["dim"], STORED_POLICY)
                if v.value != f["value"]:
                    problems.append(f"{f.loc}: {org} {f['dim']} stored {_show(f['value'])}, derived {_show(v.value)} "
                                    f"under {STORED_POLICY} ({v.rule or 'unevidenced'})")
            else:
                role = self.role(org)
                if role != f["role"]:
                    problems.append(f"{f.loc}: {org} role stored {f['role']}, derived {role}")
        for org in self.orgs:
            for pol in (STORED_POLICY, DEFAULT_POLICY):
                for dim in DIMS:
                    v = self.value(org, dim, pol)
                    if v.conflict and not v.resolved:
                        problems.append(f"{org} {dim}: unresolved conflict under {pol}: floor {v.floor} > cap {v.cap}; "
                                        f"write `resolution {org} {dim} value=<n> rule=<rule>` with {v.cap} <= n <= {v.floor}")
        return problems

    # -- explanations ----------------------------------------------------------------------------------
    @_locked
    def explain(self, org: str, dim: str, policy: str = DEFAULT_POLICY):
        """The proof DAG of a value: ``(root, graph)``, the graph a ``networkx.DiGraph``."""
        root, g = self._proof(org, dim, policy)
        return root, g.to_networkx()

    def _proof(self, org: str, dim: str, policy: str):
        """``(root, ProofGraph)``: the renderers' input (networkx is imported only for :meth:`explain`)."""
        from ..explain import explain_value

        self._check(org, dim, policy)
        ex = explain_value(self.derivation, org, dim, policy)
        return ex.root, ex.graph

    @_locked
    def why(self, org: str, dim: str, policy: str = DEFAULT_POLICY, fmt: str = "text",
            depth: Optional[int] = None, start: Optional[int] = None) -> str:
        """The proof of a value as text (a tree), json (the DAG) or dot."""
        from ..explain import to_dot, to_json, to_text
        import json as _json

        root, g = self._proof(org, dim, policy)
        if fmt == "json":
            return _json.dumps(dict(to_json(g, root, depth, start), fingerprint=self.fingerprint()), indent=2,
                               sort_keys=True, ensure_ascii=False)
        if fmt == "dot":
            return to_dot(g, root, depth, start)
        return to_text(g, root, depth=depth, start=start)

    @_locked
    def why_not(self, org: str, dim: str, n: int, policy: str = DEFAULT_POLICY) -> Dict[str, Any]:
        """For each way the value could be ``n``: what blocks it, the facts involved, what would
        lift it (the shape of docs/json.md, "why-not")."""
        from ..explain import why_not

        self._check(org, dim, policy)
        return why_not(self.derivation, org, dim, n, policy)

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

    def _check_node(self, node: str) -> None:
        if node not in self.facts.nodes:
            import difflib

            near = difflib.get_close_matches(node, sorted(self.facts.nodes), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise UnknownName(f"unknown lab, org, entity or person {node!r}{hint}")

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


def _show(v, none="-"):
    return none if v is None else str(v)


def _plain(v):
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, tuple):
        return list(v)
    return v


def weighted_number(values: Dict[str, Optional[int]], preset) -> Optional[Fraction]:
    """Section 13: sum of weight x value over evidenced dimensions / sum of their weights."""
    num = den = Fraction(0)
    for d, v in values.items():
        if v is None:
            continue
        w = preset[d] or Fraction(0)
        num += w * v
        den += w
    return num / den if den else None
