"""What a rulebook holds, for people: its clauses and its relations (`provlog rules`, `provlog relations`).

    >>> [c.id for c in clauses(clause="F.4b")]
    ['F.4b']
    >>> r = next(r for r in relations() if r.name == "lab_owner"); (r.signature, r.derived, r.clauses)
    ('lab_owner(X, L)', True, ('F.4b',))

docs/gen_reference.py builds docs/clauses.md and docs/relations.md from the same lists.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from ..logic.syntax import Atom, FuncEq, Negated, Var, parse_rule
from ..facts.language import LANGUAGE
from ..logic import RULES
from ..logic.clauses import RELATIONS, SIGNATURES, gives
from ..logic.policies import NEEDS
from ..logic.program import CORE as CORE_BOOK
from ..logic.registry import RULEBOOKS
from ..logic.rules import Rule, RuleSet
from ..errors import UnknownName

CORE = CORE_BOOK.name  # "independence": a command's rulebook when --rulebook is left out


@dataclass(frozen=True)
class Clause:
    id: str
    statement: str  # one line in provlog's words ('' if the rulebook has none: a test forbids that)
    rules: Tuple[Rule, ...]  # the rules that implement it (none for a clause only recorded signals cite)
    gives: str = ""  # the bounds it gives a signal, in words (logic/clauses.py BOUNDS; '' outside the core)
    needs: str = ""  # what the org states that checks a floor naming it (logic/policies.py NEEDS; '' for none)

    def to_json(self) -> Dict[str, object]:
        return {"id": self.id, "statement": self.statement, "gives": self.gives, "needs": self.needs,
                "rules": [{"template": r.template, "text": r.text} for r in self.rules]}


@dataclass(frozen=True)
class Relation:
    name: str
    arity: int
    signature: str  # e.g. "lab_owner(X, L)", or "effective_stake[A, T] == E" for a function
    derived: bool  # False: rows of facts (the EDB)
    meaning: str
    clauses: Tuple[str, ...] = ()  # the clauses of the rules that derive it

    def to_json(self) -> Dict[str, object]:
        return {"name": self.name, "arity": self.arity, "signature": self.signature, "derived": self.derived,
                "meaning": self.meaning, "clauses": list(self.clauses)}


def rulebook_names() -> List[str]:
    return list(RULEBOOKS)


def _parts(rulebook) -> Tuple[RuleSet, Dict[str, int], Dict]:
    """(rules, EDB predicates -> arity, relation -> meaning) of a rulebook: its name (None: the
    independence RULES), or its record (a rulebook a World was given, logic/rulebooks.py)."""
    b = RULEBOOKS.get(rulebook or CORE) if rulebook is None or isinstance(rulebook, str) else rulebook
    if b is None:
        raise UnknownName(f"unknown rulebook {rulebook!r}; rulebooks: {', '.join(rulebook_names())}")
    # the core's relations are described for people (docs/relations.md); the others' by their meanings
    return b.rules, b.predicates, RELATIONS if b is CORE_BOOK else b.meanings


def clauses(rulebook: Optional[str] = None, clause: Optional[str] = None) -> List[Clause]:
    """Every clause of a rulebook with its statement and rules, in the order the statements are written
    (then any clause only the rules name); ``clause`` picks one (UnknownName if the rulebook lacks it)."""
    book, _, _ = _parts(rulebook)
    by = book.clauses()
    ids = list(book.statements) + [c for c in by if c not in book.statements]
    if clause is not None:
        if clause not in ids:
            other = next((b for b in rulebook_names() if b != (rulebook or CORE) and clause in _parts(b)[0].statements),
                         None)
            if other is not None:
                raise UnknownName(f"clause {clause!r} is in rulebook {other}: "
                                  + ("leave out --rulebook" if other == CORE else f"add --rulebook {other}"))
            hint = _near(clause, ids)
            raise UnknownName(f"unknown clause {clause!r} in rulebook {rulebook or CORE}{hint}; "
                              f"`provlog rules{rulebook_flag(rulebook)}` lists them")
        ids = [clause]
    core = book is RULES
    return [Clause(c, book.statements.get(c, ""), tuple(by.get(c, ())), gives(c) if core else "",
                   _needs(c) if core else "") for c in ids]


def _needs(clause: str) -> str:
    """The statements that check a floor naming ``clause`` (W121), in words, a public body's
    included; '' if its floors need none.

    >>> _needs("P.5")
    '`policy ORG mandatory-recusal` and `policy ORG disclose-ties`'
    """
    needs = NEEDS.get(clause)
    return needs.statements("ORG", "gov") if needs else ""


def relations(rulebook=None) -> List[Relation]:
    """Every relation a goal of the rulebook may name: its facts (EDB) and what its rules derive, by name."""
    book, predicates, meanings = _parts(rulebook)
    heads: Dict[str, List[Rule]] = {}
    for r in book.rules:
        heads.setdefault(r.head_name, []).append(r)
    names = _arg_names(book)
    if book is RULES:
        names.update((n, list(a)) for n, a in SIGNATURES.items())
    out = []
    for name in sorted(set(predicates) | set(heads)):
        rules = heads.get(name, [])
        function = any(isinstance(parse_rule(r.text)[0], FuncEq) for r in rules)
        args = names.get(name) or [f"X{i + 1}" for i in range(predicates.get(name, 0))]
        sig = (f"{name}[{', '.join(args[:-1])}] == {args[-1]}" if function
               else f"{name}({', '.join(args)})")
        out.append(Relation(name, len(args), sig, bool(rules), _meaning(name, args, rules, meanings),
                            tuple(dict.fromkeys(r.clause for r in rules))))
    return out


def _arg_names(book: RuleSet) -> Dict[str, List[str]]:
    """relation -> a variable name per argument, taken from the rules (heads first, then bodies)."""
    seen: Dict[str, List[Optional[str]]] = {}

    def note(name: str, args) -> None:
        slots = seen.setdefault(name, [None] * len(args))
        if len(slots) != len(args):
            return
        for i, a in enumerate(args):
            if slots[i] is None and isinstance(a, Var) and a.name not in slots:
                slots[i] = a.name

    parsed = [parse_rule(r.text) for r in book.rules]
    for head, _ in parsed:
        note(head.name, head.args + ((head.value,) if isinstance(head, FuncEq) else ()))
    for _, body in parsed:
        for lit in body:
            lit = lit.atom if isinstance(lit, Negated) else lit
            if isinstance(lit, Atom):
                note(lit.name, lit.args)
            elif isinstance(lit, FuncEq):
                note(lit.name, lit.args + (lit.value,))
    return {n: [a or f"X{i + 1}" for i, a in enumerate(slots)] for n, slots in seen.items()}


def _meaning(name: str, args: List[str], rules: List[Rule], meanings: Dict) -> str:
    said = meanings.get(name)
    if said is not None:
        text = said[0] if isinstance(said, tuple) else said
        return text(*args) if callable(text) else text.format(*args)
    # a rule's display line, its {placeholders} read as the variables they name; best one naming only the head's
    shown = [r for r in rules if r.template]
    fits = [r for r in shown if set(_PLACE.findall(r.template)) <= set(_head_args(r))]
    if shown:
        return (fits or shown)[0].template.replace("{", "").replace("}", "")
    if rules:
        return f"a step of {', '.join(dict.fromkeys(r.clause for r in rules))}"
    word = name.replace("_", "-")  # application_date: from the `application` statements
    decls = LANGUAGE.decls
    kw = max((k for k in decls if word == k or word.startswith(k + "-")), key=len, default=None)
    return f"from the `{kw}` statements: {decls[kw].summary}" if kw else "rows of the rulebook's tables"


_PLACE = re.compile(r"\{([A-Za-z0-9_]+)\}")


def _head_args(rule: Rule) -> Tuple[str, ...]:
    head = parse_rule(rule.text)[0]
    args = head.args + ((head.value,) if isinstance(head, FuncEq) else ())
    return tuple(a.name for a in args if isinstance(a, Var))


def rulebook_flag(rulebook: Optional[str]) -> str:
    return f" --rulebook {rulebook}" if rulebook not in (None, CORE) else ""


def _near(name: str, candidates) -> str:
    import difflib

    near = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(near)}?" if near else ""
