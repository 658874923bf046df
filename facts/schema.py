"""What each statement of the fact language takes (docs/language.md is generated from it).

A statement is declared once, as data: its positional fields, its bare flags
and its ``key=value`` attributes, each with a parser and, for ids, the kinds
of thing it must name. The loader checks every statement against its
declaration; rulebooks (issue 8) declare theirs the same way.

    >>> DECLS["stake"].positional[2].name
    'pct'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, Optional, Tuple

from . import values as V

NODE = ("lab", "org", "entity", "person")


def _ident(text: str) -> str:
    if not V.IDENT.match(text):
        raise V.ValueError_(f"expected an identifier [a-z0-9][a-z0-9_.-]*, got {text!r}")
    return text


def _rule_id(text: str) -> str:
    if not V.RULE_ID.match(text):
        raise V.ValueError_(f"expected a rule id like F.4b, C15 or 9, got {text!r}")
    return text


def _dim(text: str) -> str:
    if len(text) != 1 or text not in V.DIMS:
        raise V.ValueError_(f"expected a dimension, one of F G P A S R M X, got {text!r}")
    return text


def _hex64(text: str) -> str:
    if not V.HEX64.match(text):
        raise V.ValueError_(f"expected a SHA-256 as 64 lowercase hex characters, got {text!r}")
    return text


def _text(text: str) -> str:
    return text


def _weight(text: str) -> V.Fraction:
    return V.parse_number(text)


def _value_or_dash(text: str):
    return None if text == "-" else V.parse_bound(text)


def enum(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise V.ValueError_(f"expected one of {', '.join(choices)}, got {text!r}")
        return text

    parse.choices = choices  # type: ignore[attr-defined]
    return parse


@dataclass(frozen=True)
class Field:
    """One positional argument or attribute of a statement."""

    name: str
    parse: Callable[[str], Any] = _ident
    ref: Tuple[str, ...] = ()  # kinds an id must have been declared as
    quoted: Optional[bool] = False  # True: a "string"; False: a bare word; None: either
    required: bool = True  # attributes only
    many: bool = False  # attributes only: a comma list


@dataclass(frozen=True)
class Decl:
    """The declaration of one statement keyword."""

    keyword: str
    positional: Tuple[Field, ...] = ()
    flags: FrozenSet[str] = frozenset()
    attrs: Dict[str, Field] = field(default_factory=dict)
    declares: Optional[str] = None  # the kind the first positional declares
    evidence: bool = True  # may carry src= and span=
    summary: str = ""
    # checks over more than one field: (values, flags) -> [(field or None, code, message)]; may normalize values
    check: Optional[Callable[[Dict[str, Any], FrozenSet[str]], list]] = None
    # one statement per world for each value of these fields (() = one per world); a second is E112
    unique: Optional[Tuple[str, ...]] = None
    # checks against other statements, run once every reference resolves:
    # (this keyword's facts, lookup(kind, id) -> Fact or None) -> [(fact, code, message)]
    across: Optional[Callable[[list, Callable[[str, str], Any]], list]] = None


def _attrs(*fields: Field) -> Dict[str, Field]:
    return {f.name: f for f in fields}


def opt(name: str, parse=_ident, **kw) -> Field:
    return Field(name, parse, required=False, **kw)


DATE = V.parse_date
ORG_TYPES = enum("nonprofit", "academic", "gov", "pbc", "vc", "private", "bigtech", "consortium")
ROLES = enum("founder", "executive", "director", "board", "committee", "advisor", "employee", "partner")
POLICIES = enum(
    "recusal", "no-contingent-fees", "no-lab-investments", "disclose-lab-revenue", "mandatory-recusal",
    "disclose-ties", "cooling-off", "no-lab-money", "lab-revenue-cap", "market-rates", "publication-rights",
    "disclosure-policy", "no-lab-review", "security-only-redactions",
)
SELLS = enum("defense", "monitoring", "guardrails", "data", "tooling", "license", "deployment", "consulting",
             "free-tool")
MONEY_KINDS = enum("grant", "investment", "revenue", "fee", "donation", "in-kind", "credits", "compute")
STATUSES = enum("confirmed", "unaudited", "imported", "unverifiable")
LANES = enum("verified", "reported", "rejected", "pending")  # self-attested is refused by name (E130)
POLICY_NAMES = ("leads-included", "standard", "against-interest", "verified-spans", "primary-only")
ROLE_NAMES = ("entrant", "government", "first-party", "benchmark", "vendor", "referee", "unclassified")
BANDS = ("disqualifying", "conditional", "clear")

DECLS: Dict[str, Decl] = {}
#: keyword -> the rulebook that declares it (docs/language.md)
RULEBOOK_OF: Dict[str, str] = {}


def declare(decl: Decl, rulebook: str = "independence") -> Decl:
    """Register a statement declaration (rulebooks call this for their own, naming themselves)."""
    if decl.keyword in DECLS:
        raise ValueError(f"statement {decl.keyword!r} is declared twice")
    DECLS[decl.keyword] = decl
    RULEBOOK_OF[decl.keyword] = rulebook
    return decl


declare(Decl("lab", (Field("id"), Field("name", _text, quoted=True)), declares="lab",
             summary="a frontier developer"))
declare(Decl("org", (Field("id"), Field("name", _text, quoted=True)), declares="org", attrs=_attrs(
    Field("type", ORG_TYPES),
    opt("status", enum("in-scope", "out-of-scope", "entrant")),
    opt("output", enum("engagements", "leaderboard", "standard")),
    opt("evaluated", enum("yes", "no")),
    opt("statutory", enum("access", "scope"), many=True),
), summary="an organization that evaluates frontier models"))
declare(Decl("entity", (Field("id"), Field("name", _text, quoted=True)), declares="entity", attrs=_attrs(
    opt("kind", enum("fund", "company", "foundation", "pooled-fund", "daf", "public", "other")),
    opt("principal", ref=NODE),
    opt("donors", enum("public", "undisclosed")),
), summary="a fund, company, foundation or other body"))
declare(Decl("person", (Field("id"), Field("name", _text, quoted=True)), declares="person",
             summary="a named individual"))
declare(Decl("stake", (Field("holder", ref=NODE), Field("subject", ref=NODE), Field("pct", V.parse_pct)),
             flags=frozenset({"voting"}), attrs=_attrs(opt("since", DATE), opt("until", DATE)),
             summary="holder owns pct of subject"))
declare(Decl("unit", (Field("org", ref=("org", "entity")), Field("lab", ref=("lab",))),
             summary="a business unit of a developer"))
declare(Decl("invest", (Field("investor", ref=NODE), Field("target", ref=NODE)),
             flags=frozenset({"led", "co-led", "priced"}), attrs=_attrs(opt("date", DATE)),
             summary="investor put money into target in a round"))
declare(Decl("money", (Field("payer", ref=NODE), Field("recipient", ref=NODE), Field("kind", MONEY_KINDS)),
             flags=frozenset({"restricted", "operating", "depends"}), attrs=_attrs(
                 opt("amount", V.parse_amount), opt("currency", enum("USD", "EUR", "GBP")),
                 opt("share", V.parse_pct), opt("year", V.parse_year)),
             summary="a flow of money or in-kind support"))
declare(Decl("role", (Field("person", ref=("person",)), Field("role", ROLES), Field("at", ref=("org", "lab", "entity"))),
             attrs=_attrs(opt("recusal", enum("personal", "none")), opt("since", DATE), opt("until", DATE)),
             summary="a person's role at an org, lab or entity"))
declare(Decl("policy", (Field("org", ref=("org",)), Field("policy", POLICIES)),
             attrs=_attrs(opt("since", DATE), opt("amended", V.parse_int), opt("value", V.parse_pct)),
             summary="a published policy of an org"))
declare(Decl("sells", (Field("org", ref=("org",)), Field("customer", ref=NODE), Field("what", SELLS)),
             summary="an org sells something to a customer"))
declare(Decl("source", (Field("id"), Field("title", _text, quoted=True)), declares="source", evidence=False,
             flags=frozenset({"quarantined"}), attrs=_attrs(
                 Field("publisher", ref=NODE), Field("status", STATUSES),
                 opt("tier", enum("1", "2", "3", "4")), opt("date", DATE), opt("lane", LANES),
                 opt("dataset-hash", _hex64), opt("input-hash", _hex64),
                 opt("attestor", _text, quoted=True), opt("approved-by", _text, quoted=True)),
             summary="a document that evidence cites"))
# `signal` positional shape is irregular (`cap 2` / `info`); the loader reads it with read_bound.
declare(Decl("signal", (Field("id"), Field("org", ref=("org",)), Field("dim", _dim),
                        Field("direction", enum("for", "against"))), declares="signal",
             flags=frozenset({"negative"}), attrs=_attrs(
                 Field("rule", _rule_id), opt("status", enum("active", "superseded", "differs", "quarantined")),
                 opt("note", _text, quoted=True)),
             summary="evidence for or against an org on a dimension"))
declare(Decl("cite", (Field("signal", ref=("signal",)), Field("source", ref=("source",))), evidence=False,
             summary="a signal cites a source, optionally with a quoted span"))
declare(Decl("resolution", (Field("org", ref=("org",)), Field("dim", _dim)), attrs=_attrs(
    Field("value", V.parse_bound), Field("rule", _rule_id), opt("note", _text, quoted=True)),
    summary="the written resolution of a floor/cap conflict"))
declare(Decl("assessment", (Field("org", ref=("org",)),), attrs=_attrs(
    opt("value", _value_or_dash), opt("role", enum(*ROLE_NAMES))),
    summary="a stored value or role, checked by verify"))
declare(Decl("preset", (Field("id"), Field("persona", _text, quoted=True)), declares="preset",
             attrs=_attrs(*(Field(d, _weight) for d in V.DIMS)), evidence=False,
             summary="a persona's weights for the weighted number"))
declare(Decl("expect", (), evidence=False, summary="a golden test beside the facts"))
declare(Decl("include", (Field("path", _text, quoted=True),), evidence=False, summary="pull in another file"))


def _day(text: str) -> str:
    """A whole calendar date, YYYY-MM-DD."""
    if len(text) != 10 or V.parse_date(text) != text:
        raise V.ValueError_(f"expected a calendar date YYYY-MM-DD, got {V.show(text)}")
    return text


# The date the world is read at (ages, freshness, ended stakes and roles); --as-of overrides it.
declare(Decl("as-of", (Field("date", _day),), evidence=False, unique=(),
             summary="the date a world is read at, unless --as-of says otherwise"))

#: Relations provlog derives; stating one as a fact is refused (E140).
DERIVED = {
    "value", "band", "bound", "effective", "admissible", "derived", "derived-signal", "hop", "clamp",
    "conflict", "lab-investor", "lab_investor", "lab-owner", "lab_owner", "chain", "effective-stake",
    "magnitude", "verified", "multiplier", "card",
    # benchmark results (logic/lanes.py): conclusions no statement or attribute may set
    "freshness", "lane-multiplier", "lane_multiplier", "final-score", "finalscore", "derive", "uses",
    "capped", "fresh", "weighted", "contribution", "scoring-valid", "scoring_valid",
}
