"""What an edit of a statement other than a signal or cite changes beyond one org's rows (issue 27).

logic/edit.py re-derives the orgs an edit touches. A ``signal`` or ``cite``
statement touches its signal's org alone (logic/locality.py). Any other
statement (a stake, a money row, a role, an org, a source, a policy, a
result, ...) makes EDB rows that no org's per-org relations own; here:

* :func:`dirty` finds the EDB tables those statements write (their rows
  made again from the new statements, compared with the store's);
* :func:`rederive` derives again the *global* relations those tables reach
  (the structural rules, the derived signals' stratum, the role tests,
  ...: every relation no signal row reaches), reading every other global
  relation from the previous store; and compares each with the store, row
  by row. One that is not recursive is derived again only for the keys a
  moved row reaches (logic/bounded.py: ``derive`` and ``uses`` by org),
  and only those keys' stored rows are read (:class:`Keyed`); a recursive
  one whole. A component is decoded from the store only when one derived
  again reads it. If the derived signals' stratum is reached,
  the derived signals of the orgs whose ``derive`` or ``uses`` rows moved
  (or that cite a changed statement) are made again (as a whole derivation
  makes them), the rest read from the store. After a stake edit ``chain``
  and its dependents are derived again only for the holders whose chains
  can change (logic/chains.py), and only their stored rows read (:class:`Keyed`);
* :func:`orgs` turns the changed rows of global relations into the orgs
  whose per-org rows they can change (``locality.routes``: proved from the
  rules), plus the orgs of every derived signal that changed.

What this cannot update in place (a change that reaches every org: a route the
proof cannot name; a relation the evaluation did not keep) raises LookupError,
and the caller (logic/edit.py) derives the world whole.

    >>> tables = dirty(old, rows, origins, removed, added, as_of)      # doctest: +SKIP
    >>> changed, derived = rederive(old, rows, facts, set(tables))      # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..facts.model import Fact, FactSet
from . import bounded, edb, strata
from . import store as S
from .joins import compile_rules
from .locality import EDITED, Locality, Route, _affected

#: EDB rows no statement makes (constants, the as-of day, the decay of the results' ages): always compared
SOURCELESS = ("view", "threshold", "as_of", "grade_ceiling", "decay")


class Changed:
    """A relation's rows after an edit, and the rows removed and added (as sets)."""

    __slots__ = ("rows", "removed", "added")

    def __init__(self, rows: List[Tuple], was: List[Tuple]):
        self.rows = rows
        self.removed, self.added = _moved(was, rows)

    def __bool__(self) -> bool:
        return bool(self.removed or self.added)


def _moved(was: List[Tuple], now: List[Tuple]) -> Tuple[Set[Tuple], Set[Tuple]]:
    """The rows removed and the rows added."""
    a, b = set(was), set(now)
    return a - b, b - a


class Keyed(Changed):
    """A relation's rows after an edit that made again only the rows whose argument ``col`` (the first,
    unless said) is one of ``keys`` (``mine``; ``was``: the store's rows of those keys): every other row
    is the store's, decoded only if :attr:`rows` is asked for. logic/edit.py writes only the keys' rows."""

    __slots__ = ("keys", "mine", "col", "_old", "_name", "_all")

    def __init__(self, old: "S.Stored", name: str, keys: Set[str], mine: List[Tuple], was: List[Tuple], col: int = 0):
        self.removed, self.added = _moved(was, mine)
        self.keys, self.mine, self.col, self._old, self._name, self._all = set(keys), mine, col, old, name, None

    @property
    def rows(self) -> List[Tuple]:  # (a property over Changed's slot: the whole table, as a derivation's)
        if self._all is None:
            c = self.col
            self._all = [r for r in stored_rows(self._old, self._name) if r[c] not in self.keys] + self.mine
        return self._all

    def rows_of(self, keys: Set[str]) -> Optional[List[Tuple]]:
        """The rows whose argument ``col`` is one of ``keys`` (the store's for keys not made again); None
        as :func:`keyed_rows`."""
        c = self.col
        theirs = keyed_rows(self._old, self._name, set(keys) - self.keys, c) if set(keys) - self.keys else []
        return None if theirs is None else theirs + [r for r in self.mine if r[c] in keys]


def keyed_rows(old: "S.Stored", name: str, keys: Set[str], col: int = 0) -> Optional[List[Tuple]]:
    """The stored rows (as :func:`stored_rows`) whose argument ``col`` is one of ``keys``, read by SQL;
    None if that column is not a text column (then SQL cannot select them: see store/codec.py ``_bind``)."""
    _, kinds, cols, _ = old.funcs.get(name) or old.rels[name]
    if kinds[col] != "text":
        return None
    out: List[Tuple] = []
    part = sorted(keys)
    for i in range(0, len(part), 500):
        out += _selected(old, name, f" WHERE {S._q(cols[col])} IN ({','.join('?' * len(part[i:i + 500]))})",
                         part[i:i + 500])
    return out


def _selected(old: "S.Stored", name: str, where: str = "", params: Sequence = ()) -> List[Tuple]:
    """The stored rows of a relation or function (its keys, then its value) that ``where`` selects, decoded."""
    _, kinds, cols, _ = old.funcs.get(name) or old.rels[name]
    return S.decoded_rows(kinds, old.query(f"SELECT {', '.join(map(S._q, cols))} FROM {S._q(name)}{where} ORDER BY rowid",
                                           params))


class Fresh(dict):
    """Changed relations by name, looked up as their rows (a :class:`Keyed`'s decoded only when asked for)."""

    def __getitem__(self, name: str) -> List[Tuple]:
        return super().__getitem__(name).rows


class Rows(dict):
    """EDB rows by table: those given, and any other table's read when first asked for, from ``base`` (a
    mapping) or else the store ``old`` (a table it does not keep has no rows). An edit that changed a few
    tables decodes only those the relations it derives again read."""

    def __init__(self, old: "S.Stored", given: Dict[str, List[Tuple]], base=None):
        super().__init__(given)
        self._old, self._base = old, base

    def __missing__(self, pred: str) -> List[Tuple]:
        if self._base is not None:
            got = self._base[pred]
        else:
            got = stored_rows(self._old, pred) if pred in self._old.rels else []
        self[pred] = got
        return got


def stored_rows(old: "S.Stored", name: str) -> List[Tuple]:
    """Every row of a stored relation or function (its keys, then its value), decoded."""
    return _selected(old, name)


def dirty(old: "S.Stored", rows: Dict[str, List[Tuple]], removed: Sequence[Fact], added: Sequence[Fact],
          as_of: str) -> Dict[str, Changed]:
    """The EDB tables (not the per-org ones: those are the signals', EDITED) that the ``removed`` and
    ``added`` statements write, each with its new rows (``rows``: the new world's) and what moved. A
    table written whole again even if only a row's statements changed (its ``_facts``)."""
    written = set(dirty_tables(list(removed) + list(added), as_of)) | set(SOURCELESS)
    out: Dict[str, Changed] = {}
    for pred in sorted(written - set(EDITED)):
        if pred in old.rels:
            got = Changed(list(dict.fromkeys(rows[pred])), stored_rows(old, pred))
            if got or pred not in SOURCELESS:  # (a sourceless table has no _facts: kept unless it moved)
                out[pred] = got
    return out


def dirty_tables(changed: Sequence[Fact], as_of: str) -> List[str]:
    """The EDB tables the ``changed`` statements make rows of."""
    mine = FactSet()
    for f in changed:
        mine.add(f)
    return [p for p, rs in edb.rows(mine, as_of).items() if rs]


def rederive(old: "S.Stored", rows: Dict[str, List[Tuple]], facts: FactSet, changed: Dict[str, Changed],
             loc: Locality, remake: Set[str] = frozenset()) -> Tuple[Dict[str, Changed], Optional[Dict[str, Any]]]:
    """The global relations (not ``loc.affected``) that the EDB tables ``changed`` (their rows moved, as
    :func:`dirty` says) reach, derived again over the new EDB (the signals' rows aside: no global
    relation reads them), each with its rows and what moved. Component by component, dependencies
    first: one that reads nothing that moved is read from ``old`` instead (its rows are the store's);
    ``derive`` and ``uses`` are derived again for the orgs a moved row reaches alone (logic/bounded.py).
    Second: the new derived signals by id if the derived signals' stratum moved, or ``remake`` (the
    orgs of the derived signals citing a statement that changed: its span, its sources), else None:
    those of the orgs whose ``derive`` or ``uses`` rows moved, and of ``remake``, made again, the
    others read from ``old``."""
    from .engine import Program
    from .program import RULES

    rules = RULES.rules
    reached = _affected(rules, changed) - set(loc.affected) - set(edb.PREDICATES)
    goals = sorted(n for n in reached | ({"derive", "uses"} if remake else set()) if n in old.rels or n in old.funcs)
    if not goals:
        return {}, None
    program = Program()
    for pred, arity in edb.PREDICATES.items():
        program.declare(pred, arity)
    program.load_rules([r.text for r in rules])
    moved, out = set(changed), {}
    kept = _Kept(program, old, rules)
    for pred in edb.PREDICATES:
        if pred in changed or pred not in old.rels:
            program.assert_rows(pred, rows[pred] if pred not in EDITED else [])
        elif pred not in EDITED:
            kept.keep(pred)  # its rows are the store's: decoded if a relation derived again reads it
    for comp in strata.plan(rules, goals):
        if comp == ["chain"] and _chains(program, old, rules, rows, moved, out, kept) or set(comp) <= kept.bounded:
            continue
        if len(comp) == 1 and _bounded(program, old, rules, comp[0], moved, {**changed, **out}, out, kept):
            continue
        _component(program, old, rules, comp, moved, out, kept)
    derived = None
    if remake or {"derive", "uses"} & moved:
        orgs = set(remake) | {r[1] for n in ("derive", "uses") if n in out for r in out[n].removed | out[n].added}
        kept.need_keys(["derive", "uses"], orgs)
        derived = _derived(old, facts, program, orgs)
    return out, derived


def _derived(old: "S.Stored", facts: FactSet, program, orgs: Set[str]) -> Dict[str, Any]:
    """Every derived signal of the new world by id: those of ``orgs`` made again (as a whole derivation
    numbers them: per rule and org, over that org's ``derive`` and ``uses`` rows and the statements
    they cite), the others read from ``old`` (no row or statement of theirs changed), in the order a
    whole derivation makes them (by rule, org, number)."""
    from .program import Derivation, DerivedSignal

    d = Derivation(facts, program)
    d._derive_signals(orgs)
    marks = ",".join("?" * len(orgs))
    kept = old.query(f"SELECT * FROM _derived WHERE org NOT IN ({marks})", sorted(orgs))
    got = [S.derived_signal(r, DerivedSignal) for r in kept] + list(d.derived.values())
    return Remade(orgs, ((s.id, s) for s in sorted(got, key=lambda s: (s.rule, s.org, int(s.id.rsplit("/", 1)[1])))))


class Remade(dict):
    """Derived signals by id, of which those of ``orgs`` were made again (the others are the store's)."""

    def __init__(self, orgs: Set[str], items):
        super().__init__(items)
        self.orgs = set(orgs)


class _Kept:
    """The stored relations of components an edit does not reach, decoded into the program only when
    a component derived again (or the derived signals) reads them, directly or through the rules of a
    relation that keeps its rules (a function, one not stored): most are never read."""

    def __init__(self, program, old: "S.Stored", rules):
        self.program, self.old, self.pending = program, old, set()
        self.reads: Dict[str, Set[str]] = {}
        for r in rules:
            self.reads.setdefault(r.head_name, set()).update(strata.body_relations(r))
        self.facts: Set[str] = set()  # relations whose rules were replaced by rows (read no further)
        self.bounded: Set[str] = set()  # relations derived again on their affected keys alone (chains.py)
        self.lazy: Dict[str, Any] = {}  # a kept relation's new rows (a Keyed's), if not the store's

    def keep(self, name: str, rows: Optional["Changed"] = None) -> None:
        """Keep ``name``: the store's rows, or those of ``rows`` (decoded only when read)."""
        self.pending.add(name)
        if rows is not None:
            self.lazy[name] = rows

    def done(self, names) -> None:
        self.facts.update(names)

    def need_keys(self, names, orgs: Set[str]) -> None:
        """The rows of the kept relations ``names`` (of a derived signal's rows: keyed by org, their
        second argument) of ``orgs`` alone, decoded into the program: what making those orgs' derived
        signals reads (program.py ``_derive_signals(only=orgs)``); the others wholly (:meth:`need`)."""
        for n in names:
            if n in self.pending and bounded.KEYS.get(n) == 1:
                ch = self.lazy.get(n)
                got = ch.rows_of(orgs) if isinstance(ch, Keyed) and ch.col == 1 else \
                    None if ch is not None else keyed_rows(self.old, n, orgs, 1)
                if got is not None:
                    self.pending.discard(n)
                    self.lazy.pop(n, None)
                    self.facts.add(n)  # (only these orgs' rows: nothing reads them after)
                    self.program.replace_with_facts(n, self.old.rels[n][0], got)
        self.need(names)

    def need(self, names) -> None:
        """Decode the kept relations ``names`` read, through relations that still have their rules."""
        todo, seen = list(names), set()
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if n in self.pending:
                self.pending.discard(n)
                self.facts.add(n)
                got = self.lazy.pop(n).rows if n in self.lazy else self.old.rows(n)
                self.program.replace_with_facts(n, self.old.rels[n][0], got)
            elif n not in self.facts:
                todo += self.reads.get(n, ())


def _component(program, old: "S.Stored", rules, comp: List[str], moved: Set[str], out: Dict[str, Changed],
               kept: "_Kept") -> None:
    """Derive one component again if a relation it reads moved (adding what moves to ``moved`` and
    ``out``), else keep its stored rows (decoded when read: ``kept``). A function (an aggregate) keeps
    its rules either way."""
    from .program import PER_POLICY
    from .syntax import Atom

    mine = [r for r in rules if r.head_name in comp]
    reads = {n for r in mine for n in strata.body_relations(r)}
    heads = {r.head_name: r.head_literal for r in mine}
    if not reads & moved:
        for name in comp:
            if isinstance(heads[name], Atom) and name in old.rels:
                kept.keep(name)
        return
    kept.need(reads)
    strata.materialize(program, rules, [comp], set(), PER_POLICY)
    kept.done(n for n in comp if isinstance(heads[n], Atom) and n in program.tables)
    for name in comp:
        if name in old.funcs:
            now = list(program.match(name, old.funcs[name][0], [], function=True))
        elif name not in old.rels:  # not stored (answered only with an argument bound): its readers see its
            moved.add(name)  # rules, and what they read moved, so it may have
            continue
        elif name in program.tables:
            now = list(program.table(name))
        else:
            raise LookupError(f"{name} was not kept")
        got = Changed([tuple(r) for r in now], stored_rows(old, name))
        if got:
            out[name] = got
            moved.add(name)


def _bounded(program, old: "S.Stored", rules, name: str, moved: Set[str], deltas: Dict[str, Changed],
             out: Dict[str, Changed], kept: "_Kept") -> bool:
    """A relation (not recursive, stored) derived again only for the keys its moved reads reach
    (logic/bounded.py), every other key's rows kept from ``old``; False if that does not apply (it is then
    derived as any component): a relation read that moved has no rows to compare (not stored), it has no
    key (bounded.key_column), or a rule's moved row reaches no key."""
    from .program import RULES

    mine = [r for r in rules if r.head_name == name]
    reads = {n for r in mine for n in strata.body_relations(r)}
    if not reads & moved or name not in old.rels or name in reads:
        return False
    col = bounded.key_column(mine, old.rels[name][1], reads & moved)
    if col is None or any(n not in deltas for n in reads & moved):
        return False
    kept.need(reads)
    keys = bounded.reached(mine, col, {n: deltas[n] for n in reads & moved}, program)
    join = None if keys is None else compile_rules(mine, program, RULES.defining, keys=(col, sorted(keys, key=repr)))
    was = None if join is None else keyed_rows(old, name, keys, col)
    if was is None:
        return False
    ch = Keyed(old, name, keys, join(), was, col)
    kept.keep(name, ch)
    if ch:
        out[name] = ch
        moved.add(name)
    return True


def _chains(program, old: "S.Stored", rules, rows: Dict[str, List[Tuple]], moved: Set[str],
            out: Dict[str, Changed], kept: "_Kept") -> bool:
    """``chain`` derived again only for the holders a stake edit reaches (logic/chains.py), the rest
    read from ``old``; False if that does not apply (``chain`` is then derived as any component)."""
    from . import chains

    if "stake" not in moved or "chain" not in old.rels:
        return False
    stakes = stored_rows(old, "stake")
    again = chains.holders(stakes, rows["stake"])
    was = keyed_rows(old, "chain", again)  # only the re-derived holders' rows are read (and written, edit.py)
    got = None if was is None else chains.rederive(was, stakes, rows["stake"], rules, again)
    if got is None:
        return False
    ch = Keyed(old, "chain", again, got, was)
    kept.keep("chain", ch)  # the whole table decoded only if a relation derived again reads it
    if ch:
        out["chain"] = ch
        moved.add("chain")
        _dependents(program, old, rules, got, again, moved, out, kept)
    return True


def _dependents(program, old: "S.Stored", rules, chain: List[Tuple], again: Set[str], moved: Set[str],
                out: Dict[str, Changed], kept: "_Kept") -> None:
    """``chain``'s dependents (logic/chains.py ``DEPENDENTS``) derived again only for the holders
    ``again`` whose chains changed, every other holder's rows read from ``old`` (marked done in
    ``kept``: not derived again); nothing if that does not apply (they are then derived whole)."""
    from . import chains

    if not all(n in old.rels or n in old.funcs for n in chains.DEPENDENTS) or "effective_stake" not in old.funcs:
        return
    new = chains.dependents([r for r in chain if r[0] in again], rules, old.funcs["effective_stake"][0])
    if new is None:
        return
    for name in chains.DEPENDENTS:
        was = keyed_rows(old, name, again)
        if was is None:
            was = [r for r in stored_rows(old, name) if r[0] in again]
        ch = Keyed(old, name, again, new[name], was)
        if name in old.rels:
            kept.keep(name, ch)
        kept.bounded.add(name)
        if ch:
            out[name] = ch
            moved.add(name)


def orgs(changed: Dict[str, Changed], routes: Dict[str, List[Optional[Route]]], old: "S.Stored") -> Set[str]:
    """The orgs whose per-org rows the ``changed`` rows of global relations (and EDB tables) can change,
    by ``routes`` (logic/locality.py). A signal's org, and the citations a route joins through, are read
    from the previous store ``old``: they differ in the new world only for orgs an edit of signals or
    cites touches, or whose derived signals changed, which the caller adds. LookupError if a change
    reaches every org."""
    out: Set[str] = set()
    for name, ch in changed.items():
        for route in routes.get(name, ()):
            if route is None:
                raise LookupError(f"a change of {name} reaches every org")
            values = sorted({row[route.at] for row in ch.removed | ch.added}, key=repr)
            if route.via is not None:
                rel, b, a = route.via
                _, _, cols, _ = old.rels[rel]
                values = _lookup(old, rel, cols[a], cols[b], values)
            if route.kind == "signal":
                values = _lookup(old, "signal", "org", "signal", values)
            out |= {v for v in values if isinstance(v, str)}
    return out


def _lookup(old: "S.Stored", rel: str, want: str, by: str, values: Sequence) -> List:
    """``want`` of the rows of ``rel`` whose ``by`` is one of ``values`` (text columns)."""
    out: List = []
    values = [v for v in values if isinstance(v, str)]
    for i in range(0, len(values), 500):
        part = values[i:i + 500]
        out += [v for (v,) in old.query(f"SELECT DISTINCT {S._q(want)} FROM {S._q(rel)} WHERE {S._q(by)} "
                                        f"IN ({','.join('?' * len(part))})", part)]
    return out
