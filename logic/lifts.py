"""Lifts: a clause that lifts or raises a recorded cap once the org states what the clause names.

Put this file beside rules.txt P.3 and R.6. A curator's signal records the cap
(P.3's documented hiring, R.6's period of lab control over disclosure); the
statement that lifts it is a fact of the world, so provlog applies it:

* P.3: "An organizational cooling-off policy or a statutory post-employment rule
  for the body's staff lifts the cap": ``informational(S, 'P.3')``, so the
  signal bounds nothing (``unbound``) and the card's notes say why;
* R.6: "caps at 2 for the period it applied and at 3 after the evaluator
  published a disclosure policy": ``raised(S, 'R.6', 3)``, and the signal's
  cap is read as 3 (``unbound`` and ``b0``, logic/mechanics.py).

Either stays on the card (its notes, its lifts), with the policy it rests on.

    >>> sorted({r.head_name for r in LIFTS.rules})
    ['disclosed_funding', 'informational', 'p3_lift', 'raised']
"""
from .clauses import CLAUSES
from .rules import RuleSet

LIFTS = RuleSet("lifts", statements=CLAUSES)
r = LIFTS.add

# --- P.3: a cooling-off rule lifts the cap of documented two-way hiring --------------------
r("P.3", "p3_lift(O, F) <= org_policy(O, 'cooling-off', F)", "P.3: {O} publishes a cooling-off policy")
r("P.3", "p3_lift(O, F) <= org_policy(O, 'post-employment', F) & org(O, 'gov')",
  "P.3: {O}, a public body, has a statutory post-employment rule for its staff")
r("P.3", "informational(S, 'P.3') <= signal_rule(S, 'P.3') & stated(S, 'cap', N) & active(S) & signal(S, O, 'P', Dir) & p3_lift(O, F)",
  "P.3: {O}'s cooling-off rule lifts {S}'s cap {N}: it bounds nothing")

# --- R.6: after the evaluator published a disclosure policy, the cap is 3 ---------------------
# A policy dated since= is published on the last day its date can mean; an undated one is
# published at the as-of date (the statement says the org publishes it).
r("R.6", "disclosed_funding(O, F) <= org_policy(O, 'disclosure-policy', F) & policy_from(F, Day) & as_of(Now) & (Day <= Now)",
  "R.6: {O} published its disclosure policy by the as-of date")
r("R.6", "disclosed_funding(O, F) <= org_policy(O, 'disclosure-policy', F) & ~dated_policy(F)",
  "R.6: {O} publishes a disclosure policy (no since= date)")
r("R.6", "raised(S, 'R.6', 3) <= signal_rule(S, 'R.6') & stated(S, 'cap', N) & (N < 3) & active(S) & signal(S, O, 'R', Dir) & disclosed_funding(O, F)",
  "R.6: {O} published a disclosure policy: the period of {S}'s cap {N} is over, and after it R.6 caps at 3")

#: What the absence of a lift's relation says (a proof or a refutation that meets it).
ABSENT = {
    "p3_lift": "{0} states no cooling-off policy (`policy {0} cooling-off`), nor, as a public body, a statutory "
               "post-employment rule (`policy {0} post-employment`) (P.3)",
    "disclosed_funding": "{0} has published no disclosure policy by the as-of date (`policy {0} disclosure-policy`, R.6)",
}

#: What would lift a recorded cap of each clause (why-not's "would lift"), over the org's id.
WOULD_LIFT = {
    "P.3": "P.3: `policy {org} cooling-off` (for a public body, `policy {org} post-employment`: a statutory "
           "post-employment rule for its staff) lifts the cap",
    "R.6": "R.6: `policy {org} disclosure-policy` published by the as-of date raises the cap to 3",
}
