"""What a change moves, and the statements each move rests on (issue 28; docs/diff.md).

Given two derivations of a world (before and after a change), the rows that
differ between them (logic/diff.py :func:`~provlog.logic.diff.changes`) and the
statements that differ (:func:`~provlog.logic.diff.statements`), :func:`moves`
lists every value, conflict, band, role, hop bucket, M floor (M.3) and
benchmark contribution that differs, each with its old and new row, its old
and new deciding rule, and what it *rests on*:

    rests on = (edited ∩ leaves(old proof)) ∪ (edited ∩ leaves(new proof))

where *edited* is the statements one side has and the other lacks (by
content: a statement edited is its old text on one side and its new text on
the other), and *leaves* are the statements at the fact leaves of the proof
``why`` shows for that row (a removed statement cannot be in the new proof, nor
an added one in the old, so this is "the edited statements that appear in the
old proof and not the new, and the reverse"). An edited statement in neither
proof is not named, however near it stands. An atom a proof reads as absent that holds on the other
side brings the leaves of its proof there (a cite added that lifts a hold): :func:`_rests`.

    >>> ms = moves(old_derivation, new_derivation, rows, removed, added)   # doctest: +SKIP
    >>> ms[0].what, ms[0].org, ms[0].old, ms[0].new, [f.loc for f in ms[0].rests_old]   # doctest: +SKIP
    ('value', 'acme', 3, 2, [Loc('w/a.facts', 12, 1)])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .proof import Explainer


@dataclass(frozen=True)
class Item:
    """A kind of row the diff reports: its relation, how many leading arguments key it, which
    argument names its org (None: found through the result it belongs to), where its policy is, and
    how its value reads."""

    relation: str
    keys: Tuple[int, ...]
    org: Optional[int]
    policy: Optional[int]
    shown: Callable[[Tuple], Any]


#: what the diff reports, in report order (docs/diff.md)
ITEMS: Dict[str, Item] = {
    "value": Item("value", (0, 1, 2), 0, 2, lambda r: r[3]),
    "conflict": Item("conflict", (0, 1, 2), 0, 2, lambda r: {"cap": r[3], "floor": r[4]}),
    "band": Item("band", (0, 1), 0, 1, lambda r: r[2]),
    "role": Item("org_role", (0,), 0, None, lambda r: r[1]),
    "hop": Item("hop_of", (0,), 0, None, lambda r: r[1]),
    "m3": Item("m3_result", (1, 0), 1, None, lambda r: r[2]),
    "contribution": Item("contribution", (0,), None, None, lambda r: r[1]),
}

#: the relations :func:`moves` reads the changes of
RELATIONS = tuple(i.relation for i in ITEMS.values())


@dataclass
class Move:
    """One reported row that differs: ``old``/``new`` are its rows (None where a side has none)."""

    what: str
    org: str
    key: Tuple
    old: Optional[Tuple]
    new: Optional[Tuple]
    old_rule: Optional[str] = None
    new_rule: Optional[str] = None
    rests_old: List[Any] = field(default_factory=list)  # edited statements in the old proof (old side's facts)
    rests_new: List[Any] = field(default_factory=list)  # edited statements in the new proof (new side's facts)

    @property
    def item(self) -> Item:
        return ITEMS[self.what]

    def shown(self, row: Optional[Tuple]) -> Any:
        return None if row is None else self.item.shown(row)

    @property
    def policy(self) -> Optional[str]:
        row = self.old or self.new
        return None if self.item.policy is None else row[self.item.policy]


class _Side:
    """One side's proofs: one explainer for every row asked (sub-proofs shared), and its fact leaves."""

    def __init__(self, derivation, edited: Sequence[Any]):
        self.d = derivation
        self.ex = Explainer(derivation)
        self.edited = {f.canon() for f in edited}

    def org_of_result(self, result: str) -> Optional[str]:
        got = self.d.program.match("result", 5, [(0, result)])
        return got[0][1] if got else None

    def prove(self, item: Item, row: Tuple) -> Tuple[Optional[str], str]:
        """The deciding rule of ``row`` and its proof's root node."""
        root = self.ex.prove_atom(item.relation, row)
        return (row[5] if item.relation == "value" else self.ex.graph.nodes[root].get("rule")), root

    def leaves(self, root: str, every: bool = False) -> Tuple[List[Any], List[Tuple[str, Tuple]]]:
        """The edited statements (``every``: all statements) at the fact leaves of ``root``'s proof, and
        the atoms it reads as absent."""
        g, found, absent = self.ex.graph, [], []
        by_fid = self.d.facts.by_fid
        for n in sorted({root} | g.descendants(root), key=str):
            a = g.nodes[n]
            if a.get("kind") == "fact" and str(n).startswith("fact ") and (self.edited or every):
                f = by_fid.get(str(n)[5:])
                if f is not None and (every or f.canon() in self.edited):
                    found.append(f)
            elif a.get("kind") == "absent" and a.get("atom"):
                absent.append(a["atom"])
        return found, absent

    def holding(self, atoms: Sequence[Tuple[str, Tuple]]) -> List[str]:
        """The proofs, on this side, of the atoms of ``atoms`` that hold here."""
        return [self.ex.prove_atom(name, tuple(row)) for name, row in atoms if self.ex.rows(name, list(row))]


def proof_leaves(derivation, what: str, row: Tuple) -> Tuple[Optional[str], List[Any]]:
    """The deciding rule of ``row`` (a row of :data:`ITEMS` kind ``what``) and the statements at the fact
    leaves of its proof, in file order (``provlog blame`` asks, of each, when it last changed).

        >>> rule, facts = proof_leaves(d, "value", ("acme", "F", "standard", 2, "sg1", "F.1"))  # doctest: +SKIP
    """
    side = _Side(derivation, ())
    rule, root = side.prove(ITEMS[what], row)
    found = side.leaves(root, every=True)[0]
    return rule, sorted({f.fid: f for f in found}.values(), key=lambda f: (f.loc.file, f.loc.line))


def _rests(sides: Tuple[_Side, _Side], roots: Tuple[Optional[str], Optional[str]]) -> Tuple[List[Any], List[Any]]:
    """The edited statements each side's proof rests on (old side's, new side's): its own fact leaves, and
    where a proof reads an atom as absent that holds on the other side (a hold lifted, a clause that no
    longer fires), the fact leaves of that atom's proof there, and, one step further, of the atoms that
    proof reads as absent which hold on this side (a hold that a cite added on this side lifts)."""
    found: Tuple[Dict, Dict] = ({}, {})
    todo = [(i, r, 2) for i, r in enumerate(roots) if r is not None]
    seen = set()
    while todo:
        i, root, depth = todo.pop()
        if (i, root) in seen:
            continue
        seen.add((i, root))
        facts, absent = sides[i].leaves(root)
        found[i].update((f.fid, f) for f in facts)
        if depth:
            todo += [(1 - i, r, depth - 1) for r in sides[1 - i].holding(absent)]
    return tuple(sorted(d.values(), key=lambda f: (f.loc.file, f.loc.line)) for d in found)


def moves(old, new, rows: Dict[str, Any], removed: Sequence[Any], added: Sequence[Any],
          policy: Optional[str] = None, org: Optional[str] = None, dim: Optional[str] = None) -> List[Move]:
    """Every reported row that differs between derivations ``old`` and ``new``, by org, then kind
    (:data:`ITEMS` order), then key. ``rows``: relation -> Change (logic/diff.py) of at least
    :data:`RELATIONS`; ``removed``/``added``: the statements only the old, only the new side has;
    ``policy``: only rows under it (rows that name no policy are always reported); ``org``: only that
    org's rows; ``dim``: only values and conflicts of that dimension (nothing is proved for the rest)."""
    sides = (_Side(old, removed), _Side(new, added))
    out: List[Move] = []
    for what, item in ITEMS.items():
        ch = rows.get(item.relation)
        if not ch or (dim is not None and what not in ("value", "conflict")):
            continue
        pairs: Dict[Tuple, List[Optional[Tuple]]] = {}
        for i, rs in enumerate((ch.removed, ch.added)):
            for r in rs:
                if policy is not None and item.policy is not None and r[item.policy] != policy:
                    continue
                if (org is not None and item.org is not None and r[item.org] != org) or \
                        (dim is not None and r[1] != dim):
                    continue
                pairs.setdefault(tuple(r[k] for k in item.keys), [None, None])[i] = r
        for key, (a, b) in pairs.items():
            if item.org is not None:
                found = (a or b)[item.org]
            else:  # a contribution: the org of its result
                found = sides[0].org_of_result(key[0]) if a else None
                found = found or sides[1].org_of_result(key[0])
                if org is not None and found != org:
                    continue
            m = Move(what, found or "", key, a, b)
            roots: List[Optional[str]] = [None, None]
            if a is not None:
                m.old_rule, roots[0] = sides[0].prove(item, a)
            if b is not None:
                m.new_rule, roots[1] = sides[1].prove(item, b)
            m.rests_old, m.rests_new = _rests(sides, (roots[0], roots[1]))
            out.append(m)
    order = list(ITEMS)
    return sorted(out, key=lambda m: (m.org, order.index(m.what), [str(k) for k in m.key]))
