"""Which derived rows an edited signal or citation can reach: proved from the rules, rule by rule.

An edit of ``signal`` and ``cite`` statements changes only the EDB rows those
statements make (:data:`EDITED`: ``signal``, ``stated``, ``status``, ...). Every
such row belongs to one org: the org of its signal. :func:`analyse` reads the
rules (logic/syntax.py literals, never their text) and finds, for every
relation an edited row can reach (*affected*), the arguments that name its
row's org (*anchors*): an org itself, or a signal whose ``signal(S, O, ...)``
row names it. It proves, rule by rule:

* every affected literal of a body (positive, negated, or a function read) is
  anchored, and all of them name the same org: the same variable, or
  variables tied by a positive anchored literal such as ``signal(S, O, D,
  Dir)`` (where S and O name one org);
* the head names that org too (the anchors it keeps are the relation's, the
  positions every rule anchors the same way); an aggregate's group must name
  it by one of its keys (a ``min_`` whose winner names an org, over a group
  that does not, would compare the rows of every org);
* no affected relation is recursive, and none is read by the stratum that
  makes the derived signals (``derive``, ``uses``): those are unchanged.

Literals of relations no edited row reaches are the same before and after an
edit, whatever org they name. By induction over the strata, the rows of an
affected relation that one org's anchors name are then a function of that
org's edited rows and the unaffected relations alone; a negation or an
aggregate reads only that org's rows. So after an edit, re-deriving the
affected relations over the edited orgs' rows (and everything unaffected)
gives exactly their rows of a whole derivation, and every other org's rows
stay as they were: what logic/edit.py does. A rule that fails the proof
raises :class:`NotLocal` naming it, and the edit is derived whole.

    >>> from provlog.logic.program import RULES
    >>> loc = analyse(RULES.rules)
    >>> loc.anchors["value"], loc.key("effective")
    ({0: 'org'}, (0, 'signal'))
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from .rules import Rule
from .syntax import Aggregate, Atom, Const, FuncEq, Negated, Var

#: The statements an edit may change without a whole derivation.
EDITABLE = ("signal", "cite")
#: The EDB rows those statements (and derived signals) make, and which arguments name their row's org.
EDITED: Dict[str, Dict[int, str]] = {
    "signal": {0: "signal", 1: "org"}, "stated": {0: "signal"}, "status": {0: "signal"},
    "signal_rule": {0: "signal"}, "negative": {0: "signal"}, "precedence": {0: "signal"}, "cites": {0: "signal"},
    "signal_home": {0: "signal"},
}
#: What makes the derived signals: an edit must not reach it.
FIXED = ("derive", "uses")

_MIN = re.compile(r"min_\(\s*([A-Z]\w*)")


class NotLocal(Exception):
    """A rule whose rows an edit could change for another org than the edited one's."""

    def __init__(self, rule: Optional[Rule], why: str):
        super().__init__(f"{rule.text if rule else '(rules)'}: {why}")
        self.rule = rule


@dataclass(frozen=True)
class Locality:
    affected: FrozenSet[str]  # relations and functions an edited row can reach (the EDITED ones too)
    anchors: Dict[str, Dict[int, str]]  # per affected relation: argument -> 'org' or 'signal'

    def key(self, name: str) -> Tuple[int, str]:
        """The argument a row's org is read from: an org's if the relation has one, else a signal's."""
        anchors = self.anchors[name]
        return min(anchors.items(), key=lambda a: (a[1] != "org", a[0]))


def _reads(rule: Rule) -> List[Tuple[str, Tuple, bool]]:
    """(relation, arguments, positive) of each body literal that reads a relation; a function read
    ``f[K] == V`` reads f's rows (K.., V)."""
    out = []
    for lit in rule.body_literals:
        if isinstance(lit, Atom):
            out.append((lit.name, lit.args, True))
        elif isinstance(lit, Negated):
            out.append((lit.name, lit.args, False))
        elif isinstance(lit, FuncEq):
            out.append((lit.name, tuple(lit.args) + (lit.value,), True))
    return out


def _affected(rules: Sequence[Rule], edited: Iterable[str]) -> Set[str]:
    reached = set(edited)
    grew = True
    while grew:
        grew = False
        for r in rules:
            if r.head_name not in reached and any(name in reached for name, _, _ in _reads(r)):
                reached.add(r.head_name)
                grew = True
    return reached


def _order(rules: Sequence[Rule], names: Set[str]) -> List[str]:
    """``names`` dependencies first; NotLocal if some depend on each other (recursion)."""
    deps: Dict[str, Set[str]] = {n: set() for n in names}
    for r in rules:
        if r.head_name in names:
            deps[r.head_name] |= {name for name, _, _ in _reads(r) if name in names}
    out: List[str] = []
    while deps:
        ready = sorted(n for n, d in deps.items() if d <= set(out))  # a relation reading itself never is
        if not ready:
            rule = next(r for r in rules if r.head_name in deps)
            raise NotLocal(rule, "an affected relation is recursive")
        out.extend(ready)
        for n in ready:
            del deps[n]
    return out


def _rule_anchors(rule: Rule, anchors: Dict[str, Dict[int, str]]) -> Optional[Dict[int, str]]:
    """The head arguments that name the org of the rule's row (None: the body reads nothing affected)."""
    parent: Dict[str, str] = {}

    def find(v: str) -> str:
        while parent.setdefault(v, v) != v:
            v = parent[v]
        return v

    kind: Dict[str, str] = {}
    uses: List[str] = []  # every anchored variable of an affected literal
    for name, args, positive in _reads(rule):
        if name not in anchors:
            continue
        mine = []
        for i, how in anchors[name].items():
            t = args[i]
            if not isinstance(t, Var):
                raise NotLocal(rule, f"{name} names its org by a constant ({t})")
            if kind.setdefault(t.name, how) != how:
                raise NotLocal(rule, f"{t.name} names an org as an {kind[t.name]} and as a {how}")
            mine.append(t.name)
        if not mine:
            raise NotLocal(rule, f"{name} names no org")
        uses.extend(mine)
        if positive:  # a row that exists ties its anchors to one org; a negated one ties nothing
            for v in mine[1:]:
                parent[find(v)] = find(mine[0])
    if not uses:
        return None
    if len({find(v) for v in uses}) > 1:
        raise NotLocal(rule, "the body reads the rows of more than one org")
    org = find(uses[0])
    head = rule.head_literal
    terms = list(head.args)
    if isinstance(head, FuncEq):  # an aggregate: grouped by its keys; min_ picks one row's variable
        m = _MIN.match(str(head.value)) if isinstance(head.value, Aggregate) else None
        terms.append(Var(m.group(1)) if m else Const(None))
    out = {i: kind[t.name] for i, t in enumerate(terms) if isinstance(t, Var) and t.name in kind
           and find(t.name) == org}
    if not out:
        raise NotLocal(rule, "the head names no org of the rows it reads")
    if isinstance(head, FuncEq) and not any(i < len(head.args) for i in out):
        # the group is what the aggregate ranges over: a min_ whose winner names an org, over a group
        # that does not, compares the rows of every org
        raise NotLocal(rule, "the aggregate's group names no org (it would range over every org's rows)")
    return out


def analyse(rules: Sequence[Rule], edited: Optional[Dict[str, Dict[int, str]]] = None,
            fixed: Sequence[str] = FIXED) -> Locality:
    """The affected relations of ``rules`` and their anchors; NotLocal if an edit is not local."""
    edited = EDITED if edited is None else edited
    affected = _affected(rules, edited)
    by_head: Dict[str, List[Rule]] = {}
    for r in rules:
        by_head.setdefault(r.head_name, []).append(r)
    for name in fixed:
        if name in affected:
            raise NotLocal(by_head.get(name, [None])[0], f"{name} (what makes derived signals) reads an edited row")
    # everything the fixed stratum reads is unaffected too (else it would be affected itself)
    anchors: Dict[str, Dict[int, str]] = dict(edited)
    for name in _order(rules, affected - set(edited)):
        agreed: Optional[Dict[int, str]] = None
        for r in by_head[name]:
            got = _rule_anchors(r, anchors)
            if got is None:  # its rows are the same before and after any edit: any anchors fit them
                continue
            agreed = got if agreed is None else {i: h for i, h in agreed.items() if got.get(i) == h}
            if not agreed:
                raise NotLocal(r, f"the rules of {name} name their org in different arguments")
        anchors[name] = agreed or {}
    return Locality(frozenset(affected), anchors)


# -- how a change to an unaffected relation reaches the affected rows (issue 27) ---------------------------
@dataclass(frozen=True)
class Route:
    """How a changed row of an unaffected relation names the orgs whose affected rows it can change: its
    argument ``at`` names an org or a signal (``kind``) directly; or, with ``via`` = (relation, b, a),
    it equals argument b of an edited relation's row whose argument a (of ``kind``) names the org."""

    at: int
    kind: str
    via: Optional[Tuple[str, int, int]] = None


def _var(t) -> Optional[str]:
    return t.name if isinstance(t, Var) and not t.name.startswith("_") else None


def _anchored_vars(rule: Rule, loc: Locality) -> Dict[str, str]:
    """The rule's variables that name the org of its row (as an org or a signal): those at an anchor of an
    affected literal; a rule that reads none (its rows made of unaffected relations) names it in its head."""
    kind: Dict[str, str] = {}
    for name, args, _ in _reads(rule):
        for i, how in loc.anchors.get(name, {}).items():
            if _var(args[i]):
                kind[_var(args[i])] = how
    if not any(name in loc.affected for name, _, _ in _reads(rule)):
        head = rule.head_literal
        terms = list(head.args)
        if isinstance(head, FuncEq):
            m = _MIN.match(str(head.value)) if isinstance(head.value, Aggregate) else None
            terms.append(Var(m.group(1)) if m else Const(None))
        for i, how in loc.anchors.get(rule.head_name, {}).items():
            if i < len(terms) and _var(terms[i]):
                kind[_var(terms[i])] = how
    return kind


def _route(rule: Rule, args: Sequence, kind: Dict[str, str]) -> Optional[Route]:
    for p, t in enumerate(args):
        if _var(t) in kind:
            return Route(p, kind[_var(t)])
    for name, eargs, positive in _reads(rule):  # joined to an edited row (a citation) that names the org
        if not positive or name not in EDITED:
            continue
        for a, how in EDITED[name].items():
            if _var(eargs[a]) not in kind:
                continue
            for c, t in enumerate(args):
                for b, e in enumerate(eargs):
                    if _var(t) and _var(t) == _var(e):
                        return Route(c, how, (name, b, a))
    return None


def routes(rules: Sequence[Rule], loc: Locality) -> Dict[str, List[Optional[Route]]]:
    """For each unaffected relation an affected rule reads: how a changed row of it names the orgs whose
    affected rows can change (None: no argument does, so a change reaches every org).

    Sound by the proof of :func:`analyse`: an affected rule's rows of org X join only rows whose
    anchored variables are X (or X's signals), so a row of another relation that holds one of those
    variables at argument ``at`` can change X's rows only if it holds X there; a row joined to a
    citation of X's signal by a shared variable, only through that citation.

        >>> from provlog.logic.program import RULES
        >>> routes(RULES.rules, analyse(RULES.rules))["resolution"]
        [Route(at=0, kind='org', via=None)]
    """
    out: Dict[str, List[Optional[Route]]] = {}
    for rule in rules:
        if rule.head_name not in loc.affected or rule.head_name in EDITED:
            continue
        kind = _anchored_vars(rule, loc)
        for name, args, _ in _reads(rule):
            got = _route(rule, args, kind) if name not in loc.affected else False
            if got is not False and got not in out.setdefault(name, []):
                out[name].append(got)
    return out
