"""What each statement of the fact language takes (docs/language.md is generated from it).

A statement is declared once, as data: its positional fields, its bare flags
and its ``key=value`` attributes, each with a parser and, for ids, the kinds
of thing it must name. The loader checks every statement against its
declaration. This module declares the independence RULES' statements
(:data:`STATEMENTS`); results.py and each rulebook's module (advice.py,
pilot.py) declare theirs in a :class:`Language` of their own, and
facts/language.py puts them together, once, as the language the loader reads.

    >>> STATEMENTS.decls["stake"].positional[2].name
    'pct'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, Iterable, Optional, Set, Tuple

from . import dates
from . import values as V

NODE = ("lab", "org", "entity", "person")


def _ident(text: str) -> str:
    if not V.IDENT.match(text):
        raise V.BadValue(f"expected an identifier [a-z0-9][a-z0-9_.-]*, got {text!r}")
    return text


def _rule_id(text: str) -> str:
    if not V.RULE_ID.match(text):
        raise V.BadValue(f"expected a rule id like F.4b, C15 or 9, got {text!r}")
    return text


def _dim(text: str) -> str:
    if len(text) != 1 or text not in V.DIMS:
        raise V.BadValue(f"expected a dimension, one of F G P A S R M X, got {text!r}")
    return text


def _recorded_signal(text: str) -> str:
    """A signal id as a world writes it; ``<rule>/<org>/<n>`` is a derived signal's (E140)."""
    if "/" in text:
        e = V.BadValue(f"{V.show(text)} is a derived signal id (<rule>/<org>/<n>); derived signals are "
                          "provlog's, state the facts they follow from")
        e.code = "E140"  # type: ignore[attr-defined]
        raise e
    return _ident(text)


def _hex64(text: str) -> str:
    if not V.HEX64.match(text):
        raise V.BadValue(f"expected a SHA-256 as 64 lowercase hex characters, got {text!r}")
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
            raise V.BadValue(f"expected one of {', '.join(choices)}, got {text!r}")
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


class ItemError(Exception):
    """What a declaration's own reader (``tail``, ``read``) finds wrong, at ``item``
    (a word, attribute or ``=`` of the statement; None: the statement itself)."""

    def __init__(self, item: Any, code: str, message: str):
        super().__init__(message)
        self.item, self.code, self.message = item, code, message


@dataclass(frozen=True)
class Decl:
    """The declaration of one statement keyword.

    The loader checks every statement the same way: the positional fields,
    then the words beyond them (at most ``tail_words``, read by ``tail``), the
    flags and attributes, then ``check`` over the values; ``unique`` and
    ``across`` once the whole world is read. A statement of a shape of its
    own (``expect``) has ``read`` instead, which takes the raw statement.
    """

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
    # words allowed beyond the positional fields, and their reader: (words) -> values; raises ItemError
    tail_words: int = 0
    tail: Optional[Callable[[list], Dict[str, Any]]] = None
    # a statement of a shape of its own: (raw statement) -> (values, references); raises ItemError
    read: Optional[Callable[[Any], Tuple[Dict[str, Any], list]]] = None

    @property
    def namespace(self) -> Optional[str]:
        """Where the id it declares must be unique: labs, orgs, entities and persons share
        ``node`` (a stake or money names any of them); every other kind is its own."""
        return "node" if self.declares in NODE else self.declares


def parse_at(arg: Any, parse: Callable[[str], Any], what: str, quoted: Optional[bool] = False) -> Any:
    """``parse(arg.value)``; or :class:`ItemError` at ``arg`` with the failure's code: E120 a
    percentage out of range, E121 a bound out of range, a parser's own ``code``, else E104."""
    if quoted is True and not arg.quoted:
        raise ItemError(arg, "E104", f"{what} is a quoted string, got bare word {arg.value!r}")
    if quoted is False and arg.quoted:
        raise ItemError(arg, "E104", f"{what} is a bare word, not a quoted string")
    try:
        return parse(arg.value)
    except V.BadValue as e:
        code = ("E120" if isinstance(e, V.PctRangeError) else "E121" if isinstance(e, V.BoundRangeError)
                else getattr(e, "code", "E104"))
        raise ItemError(arg, code, f"{what}: {e}") from None


# -- what some statements check beyond their fields ----------------------------------------

def _signal_bound(words: list) -> Dict[str, Any]:
    """A signal's words after its direction: ``cap <n>``, ``floor <n>`` or ``info``."""
    if not words:
        raise ItemError(None, "E103", "signal needs a bound after the direction: cap <n>, floor <n> or info")
    head = words[0]
    if head.value == "info" and not head.quoted:
        if len(words) > 1:
            raise ItemError(words[1], "E103", f"unexpected {words[1].value!r} after info")
        return {"kind": "info", "bound": None}
    if head.value in ("cap", "floor") and not head.quoted:
        if len(words) < 2:
            raise ItemError(head, "E103", f"{head.value} needs a number 0-4")
        if len(words) > 2:
            raise ItemError(words[2], "E103", f"unexpected {words[2].value!r} after the bound")
        return {"kind": head.value, "bound": parse_at(words[1], V.parse_bound, head.value)}
    raise ItemError(head, "E104", f"expected cap <n>, floor <n> or info, got {head.value!r}")


def _check_signal(values: Dict[str, Any], flags) -> list:
    """RULES section 0, Bounds: "an against-signal sets a cap, a for-signal sets a floor" (either may be
    informational). ``for cap 2`` is a slip of one word that would otherwise bound the value the other way."""
    direction, kind = values.get("direction"), values.get("kind")
    if (direction, kind) not in (("for", "cap"), ("against", "floor")):
        return []
    sets, other = ("floor", "against") if direction == "for" else ("cap", "for")
    article = "an" if direction == "against" else "a"
    return [("direction", "E104", f"{article} {direction}-signal sets a {sets}, not a {kind} (RULES section 0, Bounds): "
                                  f"write `{other} {kind} {values.get('bound')}` or `{direction} {sets} "
                                  f"{values.get('bound')}`")]


def _cited_span(words: list) -> Dict[str, Any]:
    """A cite's optional span, after the source."""
    if not words:
        return {}
    if not words[0].quoted:
        raise ItemError(words[0], "E104", 'a cited span is a quoted string: cite <signal> <source> "<span>"')
    return {"span": words[0].value}


def _assessed_dim(words: list) -> Dict[str, Any]:
    """An assessment's dimension, after the org (a stored role has none)."""
    if not words:
        return {}
    try:
        return {"dim": _dim(words[0].value)}
    except V.BadValue as e:
        raise ItemError(words[0], "E104", str(e)) from None


def _check_assessment(values: Dict[str, Any], flags) -> list:
    has_value, has_role, has_dim = "value" in values, "role" in values, "dim" in values
    if has_role == has_value or (has_value and not has_dim) or (has_role and has_dim):
        return [(None, "E103", "assessment takes <org> <dim> value=<n|-> or <org> role=<role>")]
    return []


#: R.5's kinds of "published finding the evaluated lab did not welcome" (`adverse=` on a source).
ADVERSE = ("safety-failure", "disputed-result", "contested-grade")


def _adverse(text: str) -> str:
    """A source's ``adverse=``: one of R.5's findings; a ranking is refused by name (E174)."""
    if text in ("ranking", "leaderboard", "leaderboard-ranking", "low-rank"):
        e = V.BadValue(f"{V.show(text)}: a leaderboard ranking alone is not an adverse finding (R.5); "
                       f"write one of {', '.join(ADVERSE)}, or no adverse=")
        e.code = "E174"  # type: ignore[attr-defined]
        raise e
    return enum(*ADVERSE)(text)


_adverse.choices = ADVERSE  # type: ignore[attr-defined]


def _check_adverse(values: Dict[str, Any]) -> list:
    """R.5: an adverse finding names the lab that did not welcome it, and is not a benchmark row."""
    kind, lab = values.get("adverse"), values.get("adverse-to")
    if (kind is None) != (lab is None):
        have, need = ("adverse=", "adverse-to=<lab>") if lab is None else ("adverse-to=", "adverse=<finding>")
        return [(have[:-1], "E173", f"{have} needs {need}: an adverse finding (R.5) is a finding of one kind "
                                    f"({', '.join(ADVERSE)}) that a named lab did not welcome")]
    if kind is not None and values.get("lane") is not None:
        return [("adverse", "E174", f"adverse= on a source with lane={values['lane']}: a benchmark result is a "
                                    "score or a ranking, and a leaderboard ranking alone is not an adverse "
                                    "finding (R.5); state the finding on the source that publishes it")]
    return []


def _check_source(values: Dict[str, Any], flags) -> list:
    """What each lane needs (docs/lanes.md; E133 counts only under --strict), and what an adverse
    finding needs (R.5)."""
    said = _check_adverse(values)
    if said:
        return said
    lane = values.get("lane")
    if lane == "verified":
        missing = [k + "=" for k in ("dataset-hash", "input-hash") if values.get(k) is None]
        if missing:
            return [("lane", "E131", f"lane=verified needs {' and '.join(missing)} as 64 lowercase hex (SHA-256); "
                                     "verified rows are reproducible or not verified")]
    elif lane == "reported":
        missing = [k + "=" for k in ("attestor", "approved-by") if not (values.get(k) or "").strip()]
        if missing:
            return [("lane", "E132", f"lane=reported needs {' and '.join(missing)} (not empty): a reported claim "
                                     "counts only with a public attestor and the human gate's approval")]
    elif lane == "pending":
        return [("lane", "E133", "lane=pending is a legacy no-scoring alias and an error under --strict: "
                                 "use reported (approved) or rejected")]
    return []


def _amendment(text: str):
    """One item of a policy's ``amended=``: the number of amendments (``2``, their dates unknown) or
    the date of one, with its month (``2025-03``, ``2025-03-14``): F.8 places them in 24-month windows."""
    if text.isascii() and text.isdigit():
        if len(text) == 4:
            raise V.BadValue(f"{V.show(text)} could be a year or a number of amendments: write an amendment's "
                             "date with its month (2025-03) or the number of amendments (2)")
        return V.parse_int(text)
    if len(text) < 7:
        raise V.BadValue(f"expected the number of amendments (2) or an amendment's date with its month "
                         f"(2025-03, 2025-03-14), got {V.show(text)}")
    return _on_calendar(V.parse_date(text))


def _on_calendar(text: str) -> str:
    """A date whose days exist (year 1 to 9999): F.8 counts months from it."""
    try:
        dates.first_day(text)
    except ValueError:
        raise V.BadValue(f"{V.show(text)} is not on the calendar (years 1 to 9999)") from None
    return text


def _check_policy(values: Dict[str, Any], flags) -> list:
    """``since=`` is on the calendar, ``amended=`` is a count or a list of dates (never both), and no
    amendment precedes ``since=``."""
    since = values.get("since")
    try:
        since and _on_calendar(since)
    except V.BadValue as e:
        return [("since", "E104", f"since=: {e}")]
    amended = values.get("amended") or ()
    if len(amended) > 1 and any(isinstance(a, int) for a in amended):
        return [("amended", "E104", "amended= takes the number of amendments (amended=2) or the date of each "
                                    "(amended=2024-03,2025-11), not a mix")]
    early = [a for a in amended if isinstance(a, str) and since and dates.last_day(a) < dates.first_day(since)]
    if early:
        return [("amended", "E104", f"amendment {early[0]} precedes since={since}: a rule is amended after it is "
                                    "adopted (check both dates)")]
    return []


def _policies_across(policies: list, lookup) -> list:
    """E175: ``civil-service`` (statutory civil-service conflict rules, which G.2 counts "for a public
    body") stated for an org that is not one (``type=gov``)."""
    out = []
    for f in policies:
        org = lookup("node", f["org"]) or lookup("org", f["org"])
        if f["policy"] == "civil-service" and org is not None and org["type"] != "gov":
            out.append((f, "E175", f"policy {f['org']} civil-service: statutory civil-service conflict rules are a "
                                   f"public body's (type=gov), and {f['org']} is type={org['type']} (G.2); state its "
                                   "own conflict policy's elements (recusal, no-contingent-fees, ...)"))
    return out


def _members_across(members: list, lookup) -> list:
    """E177: a ``member`` of an org that is not a consortium (``type=consortium``): G.4 reads the
    members of a member-governed consortium, and no other form is governed by members."""
    out = []
    for f in members:
        org = lookup("node", f["consortium"]) or lookup("org", f["consortium"])
        if org is not None and org["type"] != "consortium":
            out.append((f, "E177", f"member {f['member']} {f['consortium']}: {f['consortium']} is type={org['type']}, "
                                   "and a member is stated of a member-governed consortium (type=consortium, G.4); "
                                   "state the tie as a stake, a role or money instead"))
    return out


def _sources_across(sources: list, lookup) -> list:
    """E176: an adverse finding (R.5's "published finding") on a source no org publishes: it is the
    finding of the evaluator that publishes it."""
    out = []
    for f in sources:
        pub = lookup("node", f["publisher"]) if f["adverse"] else None
        if pub is not None and pub.kind != "org":
            out.append((f, "E176", f"source {f['id']} states adverse={f['adverse']}, but its publisher "
                                   f"{f['publisher']} is not an org (it is declared {pub.kind}): R.5 reads the "
                                   "findings an evaluator publishes; state adverse= on the org's own report"))
    return out


def _check_preset(values: Dict[str, Any], flags) -> list:
    if all(values[d] == 0 for d in V.DIMS):
        return [(None, "E104", "a preset needs at least one weight above 0")]
    return []


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
    "disclosure-policy", "no-lab-review", "security-only-redactions", "civil-service", "post-employment",
    # what a Four needs (S.5's rights, M.1's openness and re-runs)
    "incident-investigation", "refuse-sign-off", "open-code", "open-tasks", "third-party-reruns", "factsheets",
    "permits-lab-employee-donations",
)
SELLS = enum("defense", "monitoring", "guardrails", "data", "tooling", "license", "deployment", "consulting",
             "free-tool")
MONEY_KINDS = enum("grant", "investment", "revenue", "fee", "donation", "in-kind", "credits", "compute")
STATUSES = enum("confirmed", "unaudited", "imported", "unverifiable")
LANES = enum("verified", "reported", "rejected", "pending")  # self-attested is refused by name (E130)
POLICY_NAMES = ("leads-included", "standard", "against-interest", "verified-spans", "primary-only")
ROLE_NAMES = ("entrant", "government", "first-party", "benchmark", "vendor", "referee", "unclassified")
BANDS = ("disqualifying", "conditional", "clear")

class Language:
    """Statements a world may write: each keyword's declaration (``decls``), the rulebook that
    declares it (``rulebook_of``, docs/language.md), and the names no statement or attribute may
    set (``derived``: the rulebooks' conclusions, E140). Each module declares its part; the loader
    reads their :meth:`union` (facts/language.py), or any language a caller builds.

        >>> toy = Language("toy", derived={"value"})
        >>> _ = toy.declare(Decl("lab", (Field("id"),), declares="lab"))
        >>> both = Language.union(STATEMENTS, toy)
        Traceback (most recent call last):
        ValueError: statement 'lab' is declared twice (independence, toy)
    """

    def __init__(self, rulebook: str = "", derived: Iterable[str] = ()):
        self.rulebook = rulebook
        self.decls: Dict[str, Decl] = {}
        self.rulebook_of: Dict[str, str] = {}
        self.derived: Set[str] = set(derived)

    def declare(self, decl: Decl) -> Decl:
        """Add a statement's declaration to this language."""
        return self._add(decl, self.rulebook)

    def _add(self, decl: Decl, rulebook: str) -> Decl:
        if decl.keyword in self.decls:
            raise ValueError(f"statement {decl.keyword!r} is declared twice ({self.rulebook_of[decl.keyword]}, "
                             f"{rulebook})")
        self.decls[decl.keyword] = decl
        self.rulebook_of[decl.keyword] = rulebook
        return decl

    @classmethod
    def union(cls, *parts: "Language") -> "Language":
        """One language of every part's statements, in order (a keyword declared twice is an error)."""
        out = cls()
        for part in parts:
            for decl in part.decls.values():
                out._add(decl, part.rulebook_of[decl.keyword])
            out.derived |= part.derived
        return out


#: The independence RULES' statements (results.py declares the benchmark results' in a part of its own).
STATEMENTS = Language("independence")
declare = STATEMENTS.declare


declare(Decl("lab", (Field("id"), Field("name", _text, quoted=True)), declares="lab",
             summary="a frontier developer"))
declare(Decl("org", (Field("id"), Field("name", _text, quoted=True)), declares="org", attrs=_attrs(
    Field("type", ORG_TYPES),
    opt("status", enum("in-scope", "out-of-scope", "entrant")),
    opt("output", enum("engagements", "leaderboard", "standard")),
    opt("evaluated", enum("yes", "no")),
    opt("statutory", enum("access", "scope"), many=True),
    opt("capital", enum("disclosed", "undisclosed")),  # its capital structure (F.10)
    opt("clients", enum("disclosed", "undisclosed", "every-major-lab")),  # its client base (F.10; F.5)
    opt("revenue", enum("labs-only")),  # lab revenue is the only revenue it discloses (F.5)
), summary="an organization that evaluates frontier models"))
declare(Decl("entity", (Field("id"), Field("name", _text, quoted=True)), declares="entity", attrs=_attrs(
    opt("kind", enum("fund", "company", "foundation", "pooled-fund", "daf", "public", "other")),
    opt("principal", ref=NODE),
    opt("donors", enum("public", "undisclosed")),
), summary="a fund, company, foundation or other body"))
declare(Decl("person", (Field("id"), Field("name", _text, quoted=True)), declares="person",
             summary="a named individual"))
declare(Decl("stake", (Field("holder", ref=NODE), Field("subject", ref=NODE), Field("pct", V.parse_pct)),
             unique=("holder", "subject"),
             flags=frozenset({"voting", "diversified"}), attrs=_attrs(opt("since", DATE), opt("until", DATE)),
             summary="holder owns pct of subject (`diversified`: held in a diversified portfolio, X.5)"))
declare(Decl("unit", (Field("org", ref=("org", "entity")), Field("lab", ref=("lab",))),
             summary="a business unit of a developer"))
declare(Decl("invest", (Field("investor", ref=NODE), Field("target", ref=NODE)),
             flags=frozenset({"led", "co-led", "priced", "diversified"}), attrs=_attrs(opt("date", DATE)),
             summary="investor put money into target in a round (`diversified`: through a diversified portfolio, "
                     "X.5)"))
declare(Decl("money", (Field("payer", ref=NODE), Field("recipient", ref=NODE), Field("kind", MONEY_KINDS)),
             flags=frozenset({"restricted", "operating", "depends", "firewall", "disclosed"}), attrs=_attrs(
                 opt("amount", V.parse_amount), opt("currency", enum("USD", "EUR", "GBP")),
                 opt("share", V.parse_pct), opt("year", V.parse_year)),
             summary="a flow of money or in-kind support"))
declare(Decl("role", (Field("person", ref=("person",)), Field("role", ROLES), Field("at", ref=("org", "lab", "entity"))),
             attrs=_attrs(opt("recusal", enum("personal", "none")), opt("since", DATE), opt("until", DATE)),
             summary="a person's role at an org, lab or entity"))
declare(Decl("policy", (Field("org", ref=("org",)), Field("policy", POLICIES)),
             attrs=_attrs(opt("since", DATE), opt("amended", _amendment, many=True), opt("value", V.parse_pct)),
             check=_check_policy, across=_policies_across,
             summary="a published policy of an org (`civil-service`: a public body's statutory conflict rules, "
                     "G.2; `permits-lab-employee-donations`: it accepts personal donations from lab employees, F.7); "
                     "`amended=` says how many times it was amended (`amended=2`) "
                     "or when (`amended=2024-03,2025-11-20`), which F.8 reads for a no-lab-money rule"))
declare(Decl("sells", (Field("org", ref=("org",)), Field("customer", ref=NODE), Field("what", SELLS)),
             summary="an org sells something to a customer"))
#: A tie that holds from since= until until= (a passed until= is a former tie, as a stake's or a role's).
_TIE = _attrs(opt("since", DATE), opt("until", DATE))
declare(Decl("contractor", (Field("contractor", ref=("org", "entity")), Field("lab", ref=("lab",))),
             unique=("contractor", "lab"), attrs=_TIE,
             summary="a contractor of a lab: it does paid work for the lab (P.4 reads its founders)"))
declare(Decl("administers", (Field("org", ref=("org",)), Field("pool", ref=("entity",))),
             unique=("org", "pool"), attrs=_TIE,
             summary="an org administers a grant pool (F.9 reads the money paid into the pool)"))
declare(Decl("member", (Field("member", ref=("lab", "entity", "org")), Field("consortium", ref=("org",))),
             unique=("member", "consortium"), across=_members_across, attrs=_TIE,
             summary="a member of a consortium that its members govern (type=consortium; G.4 reads its lab members)"))
declare(Decl("coproduces", (Field("org", ref=("org",)), Field("vendor", ref=("entity", "org"))),
             unique=("org", "vendor"), attrs=_TIE,
             summary="an org co-produces a benchmark with a company (X.6 reads a vendor a lab owns 20% or more of, "
                     "or a lab's business unit)"))
declare(Decl("coauthors", (Field("org", ref=("org",)), Field("with", ref=("lab", "entity", "org"))),
             unique=("org", "with"), attrs=_TIE,
             summary="an org co-authors research with another party (S.6 reads a lab co-author)"))
declare(Decl("source", (Field("id"), Field("title", _text, quoted=True)), declares="source", evidence=False,
             check=_check_source, across=_sources_across,
             flags=frozenset({"quarantined"}), attrs=_attrs(
                 Field("publisher", ref=NODE), Field("status", STATUSES),
                 opt("tier", enum("1", "2", "3", "4")), opt("date", DATE), opt("lane", LANES),
                 opt("dataset-hash", _hex64), opt("input-hash", _hex64),
                 opt("attestor", _text, quoted=True), opt("approved-by", _text, quoted=True),
                 opt("adverse", _adverse), opt("adverse-to", ref=("lab",))),
             summary="a document that evidence cites (`adverse=` with `adverse-to=<lab>`: the publishing org's "
                     "finding that lab did not welcome, R.5)"))
declare(Decl("signal", (Field("id", _recorded_signal), Field("org", ref=("org",)), Field("dim", _dim),
                        Field("direction", enum("for", "against"))), declares="signal",
             tail_words=3, tail=_signal_bound, check=_check_signal,  # `cap 2`, `floor 3` or `info`
             flags=frozenset({"negative"}), attrs=_attrs(
                 Field("rule", _rule_id), opt("status", enum("active", "superseded", "differs", "quarantined")),
                 opt("note", _text, quoted=True)),
             summary="evidence for or against an org on a dimension"))
declare(Decl("cite", (Field("signal", _recorded_signal, ref=("signal",)), Field("source", ref=("source",))),
             evidence=False, tail_words=1, tail=_cited_span,
             summary="a signal cites a source, optionally with a quoted span"))
declare(Decl("resolution", (Field("org", ref=("org",)), Field("dim", _dim)), unique=("org", "dim"), attrs=_attrs(
    Field("value", V.parse_bound), Field("rule", _rule_id), opt("note", _text, quoted=True)),
    summary="the written resolution of a floor/cap conflict"))
declare(Decl("assessment", (Field("org", ref=("org",)),), attrs=_attrs(
    opt("value", _value_or_dash), opt("role", enum(*ROLE_NAMES))),
    tail_words=1, tail=_assessed_dim, check=_check_assessment, unique=("org", "dim"),  # dim None: the role
    summary="a stored value or role, checked by verify"))
declare(Decl("preset", (Field("id"), Field("persona", _text, quoted=True)), declares="preset",
             attrs=_attrs(*(Field(d, _weight) for d in V.DIMS)), evidence=False, check=_check_preset,
             summary="a persona's weights for the weighted number"))
declare(Decl("include", (Field("path", _text, quoted=True),), evidence=False, summary="pull in another file"))


def _day(text: str) -> str:
    """A whole calendar date, YYYY-MM-DD."""
    if len(text) != 10 or V.parse_date(text) != text:
        raise V.BadValue(f"expected a calendar date YYYY-MM-DD, got {V.show(text)}")
    return text


# The date the world is read at (ages, freshness, ended stakes and roles); --as-of overrides it.
declare(Decl("as-of", (Field("date", _day),), evidence=False, unique=(),
             summary="the date a world is read at, unless --as-of says otherwise"))

#: Relations provlog derives; stating one as a fact is refused (E140).
STATEMENTS.derived |= {
    "value", "band", "bound", "effective", "admissible", "derived", "derived-signal", "hop", "clamp",
    "conflict", "lab-investor", "lab_investor", "lab-owner", "lab_owner", "chain", "effective-stake",
    "magnitude", "verified", "multiplier", "card",
    # benchmark results (logic/lanes.py): conclusions no statement or attribute may set
    "freshness", "lane-multiplier", "lane_multiplier", "final-score", "finalscore", "derive", "uses",
    "capped", "fresh", "weighted", "contribution", "scoring-valid", "scoring_valid",
}
