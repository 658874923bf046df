"""Who is listed where, who is ranked, who is counted, and who is included (RULES sections 10-11).

Put this file beside rules.txt sections 10 and 11. Roles are derived in
logic/mechanics.py (``org_role``); here each org gets one list on the site
(``placed``), whether it is ranked (``ranked``), whether it enters any
statistic (``counted``), and each candidate checked for inclusion gets the
result section 11 gives it at the world's as-of date (``candidate_result``).
queries/ only shows these relations (queries/placement.py, queries/candidates.py).

* section 10: "List placement on the site: independent referees; government
  institutes; commercial and first-party (vendors, lab units, lab-funded
  consortia)"; a benchmark "is placed in a list by its owner's type (academic
  and nonprofit with referees; consortia funded by member labs with commercial
  and first-party)"; an expected entrant is "watchlist only, never ranked";
* section 11: out-of-scope orgs are "unranked, shown in their own section, and
  excluded from every statistic"; inclusion is a citation "in the last 24
  months" (a system card), a statute or standard, or a cited safety benchmark.

docs/readings.md ("Sections 10-11") says the readings taken: a benchmark's owner
is a holder of more than half of it (``stake``), else the org itself; "funded
by member labs" is money from a lab to a consortium.

    >>> sorted({r.head_name for r in POPULATION.rules if r.head_name in ("placed", "ranked", "counted")})
    ['counted', 'placed', 'ranked']
"""
from .clauses import CLAUSES
from .rules import RuleSet

POPULATION = RuleSet("population", statements=CLAUSES)
r = POPULATION.add

#: the three ranked lists in the RULES' order, then the sections shown apart
RANKED = ("referees", "government", "commercial")
APART = ("unclassified", "watchlist", "out-of-scope")

# --- Section 11: scope, before any list -----------------------------------------------------
r("11", "out_of_scope(O) <= org_status(O, 'out-of-scope')",
  "11: {O} is status=out-of-scope: unranked, shown in its own section, excluded from every statistic")
r("11", "counted(O) <= org(O, T) & ~out_of_scope(O)", "11: {O} is in scope, so statistics count it")

# --- Section 10: a benchmark's list, by its owner's type ------------------------------------
# The owner: a holder of more than half (at most one, where stakes add up); with none, the org itself.
# These read statements only, not the role (which reads values): an edit of a signal never reaches them,
# and a stake edit reaches an org only where its owner moved (logic/spread.py routes).
r("10", "majority_owner(O, H) <= stake(H, O, Pct, F) & org(O, Ty) & (Pct > Fraction(1, 2))",
  "10: {H} holds {Pct} of {O}, more than half: it is its owner")
r("10", "owned(O) <= majority_owner(O, H)", "{O} has an owner holding more than half of it")
r("10", "owner_type(O, T) <= majority_owner(O, H) & org(H, T)", "10: {O}'s owner {H} is of type {T}")
r("10", "owner_type(O, 'lab') <= majority_owner(O, H) & lab(H)", "10: {O}'s owner {H} is a lab")
r("10", "owner_type(O, T) <= org(O, T) & ~owned(O)",
  "10: no one holds more than half of {O}: it is its own owner, of type {T}")
r("10", "lab_funded(O, L) <= org(O, 'consortium') & money(M, L, O, K) & lab(L)",
  "10: {O} is a consortium funded by the lab {L} ({K}, {M}): lab-funded")
r("10", "lab_funded_any(O) <= lab_funded(O, L)", "{O} is a consortium funded by a lab")
r("10", "bench_list(O, 'commercial') <= lab_funded_any(O)",
  "10: {O} is a lab-funded consortium: a benchmark of it is listed with commercial and first-party")
r("10", "bench_list(O, 'referees') <= owner_type(O, T) & T.in_(('academic', 'nonprofit', 'pbc')) & ~lab_funded_any(O)",
  "10: {O}'s owner is of type {T}: a benchmark of it is listed with the independent referees")
r("10", "bench_list(O, 'government') <= owner_type(O, 'gov') & ~lab_funded_any(O)",
  "10: {O}'s owner is a public body: a benchmark of it is listed with the government institutes")
r("10", "bench_list(O, 'commercial') <= owner_type(O, T) & T.in_(('vc', 'private', 'bigtech', 'lab'))",
  "10: {O}'s owner is of type {T}: a benchmark of it is listed with commercial and first-party")
r("10", "bench_listed(O) <= bench_list(O, G)", "{O}'s owner's type names a list")

# --- Section 10: the list of every org --------------------------------------------------------
r("11", "placed(O, 'out-of-scope') <= out_of_scope(O)", "11: {O} is out of scope: shown in its own section")
r("10", "placed(O, 'referees') <= org_role(O, 'referee') & ~out_of_scope(O)",
  "10: {O} is an independent referee: listed with the independent referees")
r("10", "placed(O, 'government') <= org_role(O, 'government') & ~out_of_scope(O)",
  "10: {O} is government: listed with the government institutes")
r("10", "placed(O, 'commercial') <= org_role(O, R) & R.in_(('vendor', 'first-party')) & ~out_of_scope(O)",
  "10: {O} is {R}: listed with commercial and first-party")
r("10", "placed(O, 'watchlist') <= org_role(O, 'entrant') & ~out_of_scope(O)",
  "10: {O} is an expected entrant: watchlist only")
r("10", "placed(O, 'unclassified') <= org_role(O, 'unclassified') & ~out_of_scope(O)",
  "10: {O} matches no role: shown apart, unclassified")
r("10", "placed(O, G) <= org_role(O, 'benchmark') & bench_list(O, G) & ~out_of_scope(O)",
  "10: the benchmark {O} is listed with {G}, by its owner's type")
r("10", "placed(O, 'unclassified') <= org_role(O, 'benchmark') & ~bench_listed(O) & ~out_of_scope(O)",
  "10: {O} is a benchmark whose owner's type names no list: shown apart, unclassified")
r("10", "ranked(O) <= placed(O, G) & G.in_(('referees', 'government', 'commercial'))",
  "10: {O} is in the ranked list {G}")

# --- Section 11: inclusion at the world's as-of date -------------------------------------------
r("11", "candidate_out(C) <= candidate_org(C, O) & out_of_scope(O)",
  "11: candidate {C} is the org {O}, which is out of scope")
r("11", "candidate_known(C) <= candidate_org(C, O)", "candidate {C} is the org {O} of the directory")
r("11", "candidate_out(C) <= candidate(C, Cr, 'out-of-scope', Src) & ~candidate_known(C)",
  "11: candidate {C}, a body outside the directory, was found out of scope")
# A system card counts from the last day its date can mean, for 24 months (facts/outreach.py citation_window).
r("11", "cited_recent(C, Src) <= candidate(C, 'system-card', R, Src) & source_day(Src, Day, Ends) & as_of(Now) & (Day <= Now) & (Now < Ends)",
  "11: candidate {C} is cited by {Src}, dated {Day}, within the 24 months before the as-of date {Now} (until {Ends})")
r("11", "cited_recently(C) <= cited_recent(C, Src)", "{C} is cited within 24 months")
r("11", "candidate_result(C, 'out-of-scope') <= candidate_out(C)", "11: candidate {C} is out of scope")
r("11", "candidate_result(C, 'included') <= cited_recent(C, Src) & ~candidate_out(C)",
  "11: candidate {C} is cited by a system card or government report of the last 24 months ({Src}): included")
r("11", "candidate_result(C, 'excluded') <= candidate(C, 'system-card', R, Src) & ~cited_recently(C) & ~candidate_out(C)",
  "11: candidate {C}'s system-card citation {Src} is not of the last 24 months: excluded")
r("11", "candidate_result(C, 'included') <= candidate(C, Cr, R, Src) & Cr.in_(('statute', 'benchmark')) & ~candidate_out(C)",
  "11: candidate {C} meets the criterion {Cr} by {Src} (a statute or standard, or a cited safety benchmark): included")

def counted_orgs(facts) -> list:
    """The orgs rule 11 ``counted`` derives, read from the statements alone: ``provlog check`` counts
    them without deriving the world (a check costs a load, docs/store.md). The rule is the reading;
    this is its one-line twin, and tests/test_population.py asserts the two agree.

        >>> from provlog.facts import load_text
        >>> counted_orgs(load_text('org a "A" type=nonprofit\\norg b "B" type=vc status=out-of-scope\\n', "w.facts"))
        ['a']
    """
    return [f["id"] for f in facts.of("org") if f["status"] != "out-of-scope"]


#: What the absence of these relations says (a proof or a refutation that meets it).
ABSENT = {
    "out_of_scope": "{0} is not status=out-of-scope (section 11)",
    "owned": "no one holds more than half of {0} (section 10: it is its own owner)",
    "lab_funded_any": "{0} is not a consortium funded by a lab (section 10)",
    "bench_listed": "{0}'s owner's type names none of the three lists (section 10)",
    "candidate_out": "candidate {0} is not out of scope (section 11)",
    "candidate_known": "candidate {0} names no org of the directory (org=)",
    "cited_recently": "candidate {0}'s citation is not dated within the 24 months before the as-of date (section 11)",
}
