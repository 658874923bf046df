"""The extensional database: a world's facts as Datalog rows.

Each predicate here is a plain projection of checked facts; every inference
lives in the rules (mechanics.py, structure.py). Fact ids (``Fact.fid``) ride
along where a derived signal must cite the fact.
"""
from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Dict, List, Optional, Tuple

from ..facts.dates import first_day, last_day, months_later
from ..facts.model import Fact, FactSet
from ..facts.outreach import citation_window
from ..facts.schema import POLICY_NAMES
from .clauses import clause_dims

#: predicate -> arity, so that rules over an empty predicate answer "none".
PREDICATES = {
    "signal": 4, "stated": 3, "status": 2, "signal_rule": 2, "negative": 1, "precedence": 2, "cites": 3,
    "signal_home": 2,
    "source": 4, "unusable": 1,
    "org": 2, "org_status": 2, "org_output": 2, "not_evaluated": 1, "statutory": 2, "org_fact": 2,
    "lab": 1, "entity": 2, "entity_fact": 2, "principal": 2, "donors": 2, "person": 1,
    "stake": 4, "unit": 3, "invest": 5, "diversified": 1,
    "money": 4, "money_src": 2, "money_flag": 2, "money_share": 3, "money_year": 2,
    "role": 5, "role_recusal": 2, "org_policy": 3, "policy_value": 3, "sells": 4,
    "undisclosed": 2, "lab_base": 2, "contractor": 3, "administers": 3,
    "member": 3, "coproduces": 3, "coauthors": 3,
    "policy_since": 3, "policy_from": 2, "policy_amended": 5, "policy_amendments": 2,
    "resolution": 4, "view": 2, "threshold": 1,
    # benchmark results (facts/results.py, logic/lanes.py)
    "result": 5, "result_flag": 2, "result_score": 3, "result_percentile": 2, "result_src": 2,
    "result_catalog": 2, "benchmark_source": 2, "result_layer": 2, "result_fingerprint": 1, "result_approved": 1,
    "result_age": 2, "result_ahead": 2, "decay": 2, "grade_ceiling": 2, "as_of": 1,
    # the candidates checked for inclusion (facts/outreach.py, logic/population.py)
    "candidate": 4, "candidate_org": 2, "source_day": 3,
}

#: each predicate's arguments by name (the stored model's column names, docs/store.md)
COLUMNS = {name: cols.split() for name, cols in {
    "signal": "signal org dim direction", "stated": "signal kind bound", "status": "signal status",
    "signal_rule": "signal rule", "signal_home": "signal dim", "negative": "signal", "precedence": "signal rank", "cites": "signal source span",
    "source": "source publisher status tier", "unusable": "source",
    "org": "org type", "org_status": "org status", "org_output": "org output", "not_evaluated": "org",
    "statutory": "org what", "org_fact": "org fact", "lab": "lab", "entity": "entity kind",
    "entity_fact": "entity fact", "principal": "entity principal", "donors": "entity donors", "person": "person",
    "stake": "holder subject pct fact", "unit": "org lab fact", "invest": "investor target lead priced fact",
    "diversified": "fact", "money": "money payer recipient kind", "money_src": "money source",
    "money_flag": "money flag", "money_share": "money share bound",
    "money_year": "money year", "role": "person role at recusal fact", "role_recusal": "role recusal",
    "org_policy": "org policy fact", "policy_value": "policy lo hi", "sells": "org customer what fact",
    "undisclosed": "org what", "lab_base": "org what", "contractor": "contractor lab fact", "administers": "org pool fact",
    "member": "member consortium fact", "coproduces": "org vendor fact", "coauthors": "org with fact",
    "policy_since": "policy since aged", "policy_from": "policy day", "policy_amended": "policy n written earliest until",
    "policy_amendments": "policy count",
    "resolution": "org dim value rule", "view": "policy view", "threshold": "share",
    "result": "result org benchmark lane fact", "result_flag": "result flag", "result_score": "result score unit",
    "result_percentile": "result percentile", "result_src": "result source", "result_catalog": "result catalog",
    "benchmark_source": "benchmark lane", "result_layer": "result layer", "result_fingerprint": "result",
    "result_approved": "result", "result_age": "result days", "result_ahead": "result days",
    "decay": "days freshness", "grade_ceiling": "grade ceiling", "as_of": "day",
    "candidate": "candidate criterion result source", "candidate_org": "candidate org",
    "source_day": "source day ends",
}.items()}


class Origins:
    """Each EDB row's facts, by predicate: ``get((pred, row))`` is a tuple of facts (empty if none).

    A world has a row per statement and more; one fact is held bare, not in a list of its own.

        >>> o = Origins(); o.add("lab", ("acme",), "lab:acme"); o.get(("lab", ("acme",)))
        ('lab:acme',)
    """

    __slots__ = ("_by",)

    def __init__(self):
        self._by: Dict[str, Dict[Tuple, object]] = {}

    def add(self, pred: str, row: Tuple, fact) -> None:
        rows = self._by.get(pred)
        if rows is None:
            rows = self._by[pred] = {}
        had = rows.get(row)
        rows[row] = fact if had is None else (had + (fact,) if type(had) is tuple else (had, fact))

    def get(self, key: Tuple[str, Tuple], default: Tuple = ()) -> Tuple:
        had = self._by.get(key[0], {}).get(key[1])
        if had is None:
            return default
        return had if type(had) is tuple else (had,)

    def __len__(self) -> int:
        return sum(map(len, self._by.values()))


#: the share thresholds the rules test (F.2 over 5%, F.7 over 10%).
SHARE_THRESHOLDS = (Fraction(1, 20), Fraction(1, 10))

#: each policy reads the citations in one view (SEMANTICS "Policies").
VIEWS = {p: ("ai" if p == "against-interest" else "all") for p in POLICY_NAMES}


def _ended(fact: Fact, as_of: str) -> bool:
    """A stake, role or other tie (facts/schema.py ``_TIE``) whose ``until=`` has passed is a former
    tie, not a present one; a statement without ``until=`` never ends."""
    until = fact["until"]
    if not until:
        return False
    end = until + "-12-31"[len(until) - 4:] if len(until) < 10 else until
    return end < as_of


def world_as_of(facts: FactSet, as_of: Optional[str] = None) -> str:
    """The date a world is read at: ``as_of`` (``--as-of``) if given, else the world's own
    ``as-of`` statement, else today."""
    stated = facts.of("as-of")
    return as_of or (stated[0]["date"] if stated else date.today().isoformat())


def rows(facts: FactSet, as_of: Optional[str] = None,
         origins: Optional[Origins] = None) -> Dict[str, List[Tuple]]:
    """All EDB rows of a world, by predicate; ``origins`` (if given) maps each row to its facts."""
    as_of = world_as_of(facts, as_of)
    out: Dict[str, List[Tuple]] = {p: [] for p in PREDICATES}
    current: List[Optional[Fact]] = [None]

    def add(p: str, *row) -> None:
        out[p].append(row)
        if origins is not None and current[0] is not None:
            origins.add(p, row, current[0])

    for p, v in VIEWS.items():
        add("view", p, v)
    for t in SHARE_THRESHOLDS:
        add("threshold", t)
    _node_rows(facts, add, current)
    _evidence_rows(facts, add, current)
    _tie_rows(facts, as_of, add, current)
    _policy_rows(facts, as_of, add, current)
    _result_rows(facts, as_of, add, current)
    _candidate_rows(facts, add, current)
    return out


def _node_rows(facts: FactSet, add, current) -> None:
    """Labs, people, orgs and entities, with what each states of itself."""
    for f in facts.of("lab"):
        current[0] = f
        add("lab", f["id"])
    for f in facts.of("person"):
        current[0] = f
        add("person", f["id"])
    for f in facts.of("org"):
        current[0] = f
        o = f["id"]
        add("org", o, f["type"])
        add("org_fact", o, f.fid)
        if f["status"]:
            add("org_status", o, f["status"])
        if f["output"]:
            add("org_output", o, f["output"])
        if f["evaluated"] == "no":
            add("not_evaluated", o)
        for w in f["statutory"] or ():
            add("statutory", o, w)
        for what in ("capital", "clients"):  # F.10
            if f[what] == "undisclosed":
                add("undisclosed", o, what)
        if f["revenue"] == "labs-only":  # F.5: lab revenue is the only revenue it discloses
            add("lab_base", o, "labs-only")
        if f["clients"] == "every-major-lab":  # F.5: "every major lab" is the client base it names
            add("lab_base", o, "every-major-lab")
    for f in facts.of("entity"):
        current[0] = f
        e = f["id"]
        add("entity", e, f["kind"] or "other")
        add("entity_fact", e, f.fid)
        if f["principal"]:
            add("principal", e, f["principal"])
        if f["donors"]:
            add("donors", e, f["donors"])


def _evidence_rows(facts: FactSet, add, current) -> None:
    """Sources, recorded signals and their citations (``src=`` and ``cite``)."""
    for f in facts.of("source"):
        current[0] = f
        add("source", f["id"], f["publisher"], f["status"], int(f["tier"] or 0))
        if "quarantined" in f.flags or f["lane"] in ("rejected", "pending"):
            add("unusable", f["id"])
    for f in facts.of("signal"):
        current[0] = f
        s = f["id"]
        add("signal", s, f["org"], f["dim"], f["direction"])
        if f["kind"] != "info":
            add("stated", s, f["kind"], f["bound"])
        add("status", s, f["status"] or "active")
        add("signal_rule", s, f["rule"])
        for home in clause_dims(f["rule"]):  # where its clause's facts belong (section 9)
            add("signal_home", s, home)
        add("precedence", s, 0)  # recorded before derived (tie-break)
        if "negative" in f.flags:
            add("negative", s)
        for src in f.src:  # src= on a recorded signal adds citations without spans
            add("cites", s, src, "")
    for f in facts.of("cite"):
        current[0] = f
        add("cites", f["signal"], f["source"], f["span"] or "")


def _tie_rows(facts: FactSet, as_of: str, add, current) -> None:
    """Stakes, units, investments, money and roles (an ended stake or role is no tie at ``as_of``)."""
    for f in facts.of("stake"):
        current[0] = f
        if not _ended(f, as_of):
            add("stake", f["holder"], f["subject"], f["pct"].lo, f.fid)
            if "diversified" in f.flags:  # X.5: a holding of a diversified portfolio
                add("diversified", f.fid)
    for f in facts.of("unit"):
        current[0] = f
        add("unit", f["org"], f["lab"], f.fid)
    for f in facts.of("invest"):
        current[0] = f
        lead = "led" if "led" in f.flags else ("co-led" if "co-led" in f.flags else "")
        add("invest", f["investor"], f["target"], lead, "priced" if "priced" in f.flags else "", f.fid)
        if "diversified" in f.flags:  # X.5
            add("diversified", f.fid)
    for f in facts.of("money"):
        current[0] = f
        m = f.fid
        add("money", m, f["payer"], f["recipient"], f["kind"])
        for flag in sorted(f.flags):
            add("money_flag", m, flag)
        if f["share"] is not None:
            add("money_share", m, f["share"].lo, "open" if f["share"].lo_open else "closed")
        add("money_year", m, f["year"] or 0)  # rows without a year form one group (F.5)
        for src in f.src:  # X.8: the document that states the revenue
            add("money_src", m, src)
    for f in facts.of("role"):
        current[0] = f
        if not _ended(f, as_of):
            add("role", f["person"], f["role"], f["at"], f["recusal"] or "", f.fid)
            if f["recusal"]:
                add("role_recusal", f.fid, f["recusal"])


#: statements whose row is their positional fields and fact id: what an org sells, P.4's lab contractors,
#: F.9's grant pools, G.4's members, X.6's co-produced benchmarks, S.6's co-authors
FIELD_ROWS = ("sells", "contractor", "administers", "member", "coproduces", "coauthors")


def _policy_rows(facts: FactSet, as_of: str, add, current) -> None:
    """Org policies (with F.8's dates), the :data:`FIELD_ROWS` statements, and resolutions of conflicts."""
    for f in facts.of("policy"):
        current[0] = f
        add("org_policy", f["org"], f["policy"], f.fid)
        if f["value"] is not None:
            add("policy_value", f.fid, f["value"].lo, f["value"].hi)
        _policy_dates(f, as_of, add)
    for kw in FIELD_ROWS:  # a row of the statement's positional fields (COLUMNS' names), then its fact id
        for f in facts.of(kw):
            if _ended(f, as_of):
                continue  # a former tie (until= passed, facts/schema.py _TIE) derives nothing, as a stake or role
            current[0] = f
            add(kw, *(f[c] for c in COLUMNS[kw][:-1]), f.fid)
    for f in facts.of("resolution"):
        current[0] = f
        add("resolution", f["org"], f["dim"], f["value"], f["rule"])


#: F.8's window: a no-lab-money rule is settled once this many months old
RULE_AGE_MONTHS = 24


def _policy_dates(f: Fact, as_of: str, add) -> None:
    """A policy's dates as F.8 reads them, in days (``date.toordinal``): the rule is adopted on the
    last day its ``since=`` can mean and 24 months old from the same day 24 months on; each dated
    amendment made by the as-of date falls between the first and the last day its date can mean.
    A partial date is read at the end that keeps a floor 4 unproved (docs/readings.md, F.8)."""
    def aged(text: str) -> int:
        return months_later(last_day(text), RULE_AGE_MONTHS).toordinal()

    if f["since"]:
        add("policy_since", f.fid, f["since"], aged(f["since"]))
        add("policy_from", f.fid, last_day(f["since"]).toordinal())  # in force for certain (R.6)
    amended = f["amended"] or ()
    if amended and isinstance(amended[0], int):
        add("policy_amendments", f.fid, amended[0])
        return
    today = first_day(as_of)
    for n, on in enumerate(amended, 1):
        if first_day(on) <= today:  # a later amendment has not been made at the as-of date
            add("policy_amended", f.fid, n, on, first_day(on).toordinal(), aged(on))


def _result_rows(facts: FactSet, as_of: str, add, current) -> None:
    """Benchmark results and the catalog (logic/lanes.py). A run's age is counted here, in days
    from its ``run-at`` to the as-of date (``result_ahead`` when the run is dated after it), and
    ``decay`` holds ``2^(-N/365.25)`` (facts/halflife.py) for each age N the world's results have."""
    from ..facts.halflife import freshness
    from ..facts.dates import first_day
    from ..facts.results import GRADE_CEILING

    current[0] = None
    today = first_day(as_of).toordinal()
    add("as_of", today)
    add("grade_ceiling", *GRADE_CEILING)
    for f in facts.of("benchmark-source"):
        current[0] = f
        add("benchmark_source", f["id"], f["lane"])
    ages = set()
    for f in facts.of("result"):
        current[0] = f
        r = f["id"]
        add("result", r, f["org"], f["benchmark"], f["lane"], f.fid)
        add("result_layer", r, f["layer"] or "named")
        for flag in sorted(f.flags):
            add("result_flag", r, flag)
        if f["score"] is not None:
            add("result_score", r, f["score"], f["unit"])
        if f["percentile"] is not None:
            add("result_percentile", r, f["percentile"])
        for src in f.src:
            add("result_src", r, src)
        if f["catalog"]:
            add("result_catalog", r, f["catalog"])
        if f["dataset-hash"] and f["input-hash"] and f["run-at"]:
            add("result_fingerprint", r)
        if f["attestor"] and f["approved-by"]:
            add("result_approved", r)
        if f["run-at"]:
            days = today - first_day(f["run-at"]).toordinal()
            add("result_age", r, max(days, 0))
            ages.add(max(days, 0))
            if days < 0:
                add("result_ahead", r, -days)
    current[0] = None
    for n in sorted(ages):
        add("decay", n, freshness(n))


def _candidate_rows(facts: FactSet, add, current) -> None:
    """Section 11's candidates, and each dated source's 24-month citation window in days (the first
    day it counts and the day it no longer does: facts/outreach.py ``citation_window``)."""
    for f in facts.of("candidate"):
        current[0] = f
        add("candidate", f["id"], f["criterion"], f["result"], f["cited"])
        if f["org"]:
            add("candidate_org", f["id"], f["org"])
    for f in facts.of("source"):
        if f["date"]:
            current[0] = f
            day, ends = citation_window(f["date"])
            add("source_day", f["id"], day.toordinal(), ends.toordinal())
    current[0] = None
