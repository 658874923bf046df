"""The clauses of the independence RULES, one line each in provlog's words.

A clause id is what a rule, a signal's ``rule=`` or a held clamp names: an
item of the RULES (``F.4b``, ``M.3``), a section (``0``, ``9``, ``10``), a
contract clause (``C14``-``C17``), an item of the provenance-lane methodology
(``PL.1``, ``PL.3``), or ``def``/``hop`` for relations that only name a
concept. ``provlog rules`` prints these lines; docs/clauses.md is generated
from them. Clauses no rule implements (``G.2``, ``A.1``, ...) are here too:
recorded signals cite them.

    >>> CLAUSES["F.4b"]
    'Money from an owner of 20% or more of a lab, as a grant or investment of 5% or more of revenue, is lab money: F cap 1.'
"""
from __future__ import annotations

from dataclasses import dataclass

CLAUSES = {
    # --- helpers and mechanics (section 0 and the CONTRACT clauses it restates) ---
    "def": "A helper relation: it only names a concept the text uses (an active signal, a usable source, a lab investor node).",
    "0": "Section 0, mechanics: admissibility under each evidence policy, the smallest cap else the largest floor, conflicts and resolutions, bands.",
    "C14": "Evidence class clamps a bound: all sources confirmed, any bound; partly confirmed, caps at least 1 and floors at most 3; only weak sources, 2 and nothing else.",
    "C15": "A cap 0 counts only with a quoted span from a confirmed source (or the org's own page against it); otherwise it is held at 1.",
    "C16": "A floor 4 counts only with a quoted span and either a tier 1-2 source or sources from two publishers; otherwise it is held at 3.",
    "C17": "The org's own page cited against it is an admission against interest and counts as confirmed; against-interest drops its own pages cited in its favour.",
    "9": "Section 9: an org with no published evaluation gets A cap 0 and no floor above 2 on S, R or M, unless it is a public body with statutory powers; a signal naming a clause of another dimension is informational where it sits.",
    "10": "Section 10: the role is derived, first match: entrant, government, first-party, benchmark, vendor, referee, else unclassified; each role has its list on the site (a benchmark by its owner's type, a lab-funded consortium commercial), and only the referees, government and commercial lists are ranked: an entrant is watchlist only.",
    "11": "Section 11: an out-of-scope org is unranked, shown in its own section and in no statistic; a candidate is included if a system card or government report cited it in the 24 months before the as-of date, or a statute, code or standard names it, or it operates a cited safety benchmark.",
    "hop": "The money matrix: ties run from a node to what it holds, its principal and whoever pays it; its hop is the fewest ties to a lab (at most 4).",
    # --- 1. Funding ---
    "F.1": "A lab or a lab investor with an effective stake of 20% or more in the org, or the org being a unit of a lab: F cap 0.",
    "F.2": "In-kind support counts only as operating support: over 5% of operating cost, cap 2; undisclosed but depended on, cap 3.",
    "F.3": "Lab fees per engagement: F cap 2, or cap 3 with published policies capping lab revenue at 10%, charging market rates and keeping publication rights.",
    "F.4": "A material investment by a lab or lab investor (a led or co-led priced round, or a stake of 5% or more): F cap 1.",
    "F.4b": "Money from an owner of 20% or more of a lab, as a grant or investment of 5% or more of revenue, is lab money: F cap 1.",
    "F.5": "Labs as the principal revenue (50% or more of a year's revenue; or the only revenue disclosed, revenue=labs-only; or \"every major lab\" as the clients, clients=every-major-lab, with no other base disclosed): F cap 1.",
    "F.6": "Money through pooled or donor-advised funds with undisclosed donors, or from a funder whose principal is a lab investor: F cap 3.",
    "F.7": "Donations from lab employees: disclosed and at most 10% of revenue, cap 3; above 10%, cap 2; undisclosed, no bound, but a published policy that permits them (permits-lab-employee-donations) caps at 3.",
    "F.8": "While the org's no-lab-money rule is younger than 24 months at the as-of date, or was amended twice within 24 months, a floor 4 on F is held at 3.",
    "F.9": "Public funding floors F at 3 (a public body paid by a public body); an F.9 floor 4 needs a confirmed bounded negative (F.12) and no material lab in-kind (an F.2 cap), else it is held at 3; administering a grant pool that includes lab money caps F at 3.",
    "F.10": "A private company with undisclosed capital structure (capital=undisclosed): F cap 3; with an undisclosed client base too (clients=undisclosed), cap 2.",
    "F.11": "Credits or access used for the evaluation itself, and undisclosed non-operating in-kind, bound nothing: an F.11 signal is informational, on F or on A (the access mechanism).",
    "F.12": "A floor 4 on F needs a bounded negative, a tier-1 source, a quoted span and a second independent source.",
    # --- 2. Governance ---
    "G.1": "Legal form alone (nonprofit, academic, public body) without a published conflict policy floors G at 2, not 3.",
    "G.2": "A conflict policy floors G (3 nonprofit or public, 2 for-profit) only if it names two of: recusal, no contingent fees, no lab investments, lab-revenue disclosure.",
    "G.3": "A lab investor taking part in a round of the org: G cap 2.",
    "G.4": "A consortium governed by members that include the benchmarked labs (a lab stated `member` of a type=consortium org): G cap 2.",
    "G.5": "A public body whose leadership or mandate changed more than once in twelve months: G cap 3.",
    "G.6": "Ownership of 20% or more by a lab or lab investor, or the org being a unit of a lab: G cap 0.",
    "G.7": "A floor 4 on G needs tier-1 evidence of an independent board and of external review: a span quoted from a confirmed tier-1 source, else it is held at 3.",
    # --- 3. Personnel ---
    "P.1": "A leader of the org holding a board or committee seat at a lab: P cap 1 with a personal recusal, cap 0 without.",
    "P.2": "An executive or director of the org advising a lab: P cap 1.",
    "P.3": "Documented two-way hiring with labs and no cooling-off rule: P cap 2; a cooling-off policy (for a public body, a statutory post-employment rule) lifts the cap.",
    "P.4": "A board member or advisor who is a partner at a lab investor, a founder of a lab contractor or an employee of a lab: P cap 2, recusal or not.",
    "P.5": "A published mandatory recusal rule with disclosed individual lab ties floors P at 3.",
    "P.6": "\"No lab roles found\" floors P at 2; a 3 needs the policy of P.5.",
    "P.7": "Lab employees (a first-party team), or leaders who moved to a lab in an ownership deal: 0 or 1 by P.1.",
    "P.8": "A 4 on P needs a cooling-off rule, disclosed ties and no equity, on tier-1 evidence: a floor 4 on P without a span quoted from a confirmed tier-1 source is held at 3.",
    # --- 4. Access ---
    "A.1": "The deepest documented engagement sets the A floor; access is revocable unless A.2 applies.",
    "A.2": "Access resting on statute, regulation or an enforceable agreement floors A at 3.",
    "A.3": "A lab's power not to renew access is recorded as a mechanism, not a cap: an A.3 cap is informational.",
    "A.4": "Government agreements (memoranda, testing agreements, classified work): A 3.",
    "A.5": "Embedded, on-site or incident access: A 4.",
    "A.6": "No engagement yet: A 0.",
    # --- 5. Scope ---
    "S.1": "A lab-set window or excluded questions in the latest major engagement: S cap 3.",
    "S.2": "The evaluator cannot add questions: S cap 2.",
    "S.3": "A regulator as client setting scope by tender or contract: S 3.",
    "S.4": "A public body with the statutory power to define scope and compel participation floors S at 4; voluntary memoranda 3.",
    "S.5": "Self-directed research floors S at 3; a 4 needs documented incident-investigation or sign-off-refusal rights.",
    "S.6": "Co-authoring research with a lab while evaluating it (`coauthors <org> <lab>`): S cap 3.",
    # --- 6. Publication ---
    "R.1": "Security-only redactions with a public statement of what was redacted floor R at 3.",
    "R.2": "Lab editorial feedback the evaluator took in: R cap 3 if disclosed with what changed, cap 2 if not.",
    "R.3": "Findings public only through lab system cards: R cap 1; cap 2 if the org publishes its own reports elsewhere.",
    "R.4": "A public body is scored on what reaches the public: nothing per model 1, aggregated trends 2, reports to a regulator only 2.",
    "R.5": "A 4 on R needs no lab pre-publication review and a published finding the lab did not welcome.",
    "R.6": "A lab controlling whether the evaluator could disclose its funding: R cap 2 while it applied, cap 3 once a disclosure policy is published by the as-of date.",
    "R.7": "\"Publishes its results\" with nothing on who reviews them floors R at 2.",
    # --- 7. Methods ---
    "M.1": "A 4 on M needs open code, open tasks and third-party re-runs or per-evaluation factsheets; open code alone is 3.",
    "M.2": "Methods described in prose: M 2; summaries only: 1.",
    "M.3": "A public leaderboard with open tasks and logs: M floor 3; with documented third-party re-runs: 4 (derived from results, docs/lanes.md).",
    # --- 8. Role incompatibility ---
    "X.1": "Selling defense, monitoring or guardrail products to a lab: X cap 0; to parties that are not labs, cap 2 until a lab customer is documented, with a document request on the card.",
    "X.2": "Selling data, tooling, licensed products or deployment services to a lab: X cap 1.",
    "X.3": "Paid consulting for a lab: X cap 2.",
    "X.4": "Free or open tools used by labs: X 3 (labs using a free tool are not customers); a sells ... free-tool to a lab derives X floor 3.",
    "X.5": "Investing the org's own funds in labs (a stake or invest of the org itself in a lab): X cap 2; in a diversified portfolio that may hold listed labs (the holding flagged diversified), cap 3.",
    "X.6": "Co-producing a benchmark with a vendor owned by a lab (`coproduces`; a lab holding 20% or more of the vendor, or the vendor a lab's unit): X cap 3.",
    "X.7": "A floor 4 on X needs a bounded statement of no commercial products, a quoted span and a second source.",
    "X.8": "Earned revenue from undisclosed clients (clients=undisclosed, and revenue or a fee from a payer that is not a lab, stated with a source): X cap 3 until they are named; a named lab client (a paid sells to a lab) brings X.2 instead.",
    # --- provenance lanes of benchmark results (docs/lanes.md) ---
    "PL.1": "Who attests a result: one attested or published only by its own org is self-attested, rejected, and scores zero.",
    "PL.3": "A result's magnitude: normalized base x lane multiplier (verified 2, reported 1, else 0), capped at 1, x freshness (halving each year) x weight 1.4.",
}

#: What a relation of the independence rulebook says, over its arguments {0}, {1}, ... (``provlog
#: relations``, docs/relations.md): every fact relation (logic/edb.py) and the derived relations a
#: goal most often names. A derived relation not here reads as the template of a rule deriving it.
RELATIONS = {
    # facts (logic/edb.py): each a projection of one statement
    "signal": "signal {0} (recorded or derived) is about org {1} on dimension {2}, direction {3} (for/against)",
    "stated": "signal {0} states a {1} (cap/floor) of {2}",
    "status": "signal {0} has status {1} (active, superseded, differs, quarantined)",
    "signal_rule": "signal {0} names rule {1}",
    "signal_home": "signal {0} names a clause of dimension {1} (section 9: the letter of its id; F.11 also A)",
    "negative": "signal {0} is a bounded negative (the `negative` flag)",
    "precedence": "signal {0} ranks {1} among equal bounds: 0 recorded, 1 derived",
    "cites": "signal {0} cites source {1} with span {2} ('' for none)",
    "source": "source {0} is published by {1}, status {2}, tier {3} (0 if not given)",
    "unusable": "source {0} is quarantined or in lane rejected or pending",
    "org": "{0} is an org of type {1}",
    "org_status": "org {0} has status= {1}",
    "org_output": "org {0} has output= {1}",
    "not_evaluated": "org {0} states evaluated=no",
    "statutory": "org {0} has the statutory power {1} (access, scope)",
    "org_fact": "org {0} is declared by fact {1}",
    "lab": "{0} is a lab (a frontier developer)",
    "entity": "{0} is an entity of kind {1} (other if not given)",
    "entity_fact": "entity {0} is declared by fact {1}",
    "principal": "entity {0}'s principal is {1}",
    "donors": "entity {0}'s donors are {1} (public, undisclosed)",
    "person": "{0} is a person",
    "stake": "{0} holds {2} (the lower bound) of {1}, by fact {3} (a stake whose until= has passed is left out)",
    "unit": "org {0} is a business unit of lab {1}, by fact {2}",
    "invest": "{0} invested in {1}: lead {2} (led, co-led or ''), {3} (priced or ''), by fact {4}",
    "money": "money row {0}: {1} pays {2}, kind {3}",
    "money_flag": "money row {0} carries the flag {1} (restricted, operating, depends)",
    "money_share": "money row {0}'s share of the recipient's revenue is at least {1} ({2}: open if strictly above)",
    "money_year": "money row {0} is of year {1} (0 if not given)",
    "role": "person {0} is {1} at {2}, recusal {3} ('' if not given), by fact {4}",
    "role_recusal": "role fact {0} states recusal={1}",
    "org_policy": "org {0} publishes the policy {1}, by fact {2}",
    "policy_value": "policy fact {0} states value= between {1} and {2}",
    "policy_since": "policy fact {0} states since={1}; the rule is 24 months old from day {2} on (F.8)",
    "policy_amended": "policy fact {0}'s amendment {1} (written {2}) is on day {3} at the earliest; 24 months after it "
                      "at the latest is day {4} (F.8)",
    "policy_amendments": "policy fact {0} states amended={1}: a number of amendments, without their dates (F.8)",
    "sells": "org {0} sells {2} to {1}, by fact {3}",
    "diversified": "stake or invest fact {0} is a holding of a diversified portfolio (X.5)",
    "money_src": "money row {0} is stated in source {1} (X.8: the filing)",
    "undisclosed": "org {0} does not disclose its {1} (capital structure, client base: F.10)",
    "lab_base": "org {0} names labs as its only base: {1} (revenue=labs-only: the only revenue it discloses; "
                "clients=every-major-lab: \"every major lab\"; F.5)",
    "contractor": "{0} is a contractor of lab {1}, by fact {2} (P.4)",
    "administers": "org {0} administers the grant pool {1}, by fact {2} (F.9)",
    "member": "{0} is a member of the consortium {1}, by fact {2} (G.4)",
    "coproduces": "org {0} co-produces a benchmark with {1}, by fact {2} (X.6)",
    "coauthors": "org {0} co-authors research with {1}, by fact {2} (S.6)",
    "policy_from": "policy fact {0} is published by day {1} (the last day its since= can mean: R.6)",
    "resolution": "the written resolution of org {0} on {1}: value {2}, by rule {3}",
    "view": "policy {0} reads citations in view {1} (ai for against-interest, else all)",
    "threshold": "{0} is a share threshold a rule tests (5%, 10%)",
    "result": "benchmark result {0} of org {1} on benchmark {2}, lane {3}, by fact {4}",
    "result_flag": "result {0} carries the flag {1} (own-tasks)",
    "result_score": "result {0} scores {1} in unit {2} (pct, fraction)",
    "result_percentile": "result {0} states the percentile {1}",
    "result_run": "result {0} ran on day {1} (a day number, for subtraction)",
    "result_src": "result {0} cites source {1}",
    "result_attestor": "result {0}'s attestor is {1} (case-folded)",
    "org_name": "org {0}'s name is {1} (case-folded)",
    "as_of": "the world is read at day {0} (the as-of date as a day number: freshness, F.8's ages)",
    "candidate": "candidate {0} was checked by criterion {1} (system-card, statute, benchmark), recorded result {2}, citing source {3} (section 11)",
    "candidate_org": "candidate {0} is the org {1} of the directory",
    "source_day": "source {0} counts as a citation from day {1} until day {2} (24 months on, section 11)",
    # derived relations a goal most often names
    "value": "org {0}'s value on {1} under policy {2} is {3}, decided by signal {4} ('' for a resolution) under rule {5}",
    "band": "org {0} is in band {2} under policy {1}",
    "org_role": "org {0}'s role is {1} (section 10)",
    "placed": "org {0} is listed on the site in {1} (referees, government, commercial, watchlist, out-of-scope, unclassified; sections 10-11)",
    "ranked": "org {0} is in a ranked list: referees, government or commercial (section 10)",
    "counted": "org {0} is in scope: every statistic counts it (section 11)",
    "candidate_result": "candidate {0}'s result at the as-of date is {1} (included, excluded, out-of-scope; section 11)",
    "conflict": "on org {0} {1} under {2}, the largest floor {4} exceeds the smallest cap {3}",
    "admissible": "signal {0} is admissible under policy {1}",
    "effective": "signal {0} is admissible under policy {1} with effective {2} {3} (after every clamp)",
    "evclass": "signal {0}'s evidence class in view {1} is {2} (confirmed, partial, weak; C14)",
    "has_confirmed": "signal {0} cites a usable confirmed source in view {1}",
    "has_unaudited": "signal {0} cites a usable unaudited source in view {1}",
    "has_unconfirmed": "signal {0} cites a usable source that is not confirmed in view {1}",
    "four_held": "signal {0}'s floor 4 is held at 3 in view {1} (C16, F.8, F.9, F.12, G.7, P.8 or X.7)",
    "tier_one_span": "signal {0} quotes a span from a confirmed tier-1 source in view {1} (G.7, P.8)",
    "young_rule": "org {0}'s no-lab-money rule (policy fact {1}) is younger than 24 months at the as-of date, "
                  "or states no since= (F.8)",
    "amended_often": "org {0}'s no-lab-money rule (policy fact {1}) was amended twice within 24 months, or states "
                     "amended=2 or more without dates (F.8)",
    "unsettled_rule": "org {0}'s no-lab-money rule is young or amended more than once in 24 months: F.8 holds "
                      "every floor 4 on its F at 3",
    "dated_policy": "policy fact {0} states since=",
    "lab_inkind": "org {0} has material lab in-kind under F.2: an active F.2 cap on its F with a usable citation (F.9)",
    "unbound": "signal {0}'s stated bound is not read as stated: informational (section 9, F.11, A.3; lifted by P.3), or raised (R.6)",
    "held": "clause {2} held signal {0}'s bound in view {1}",
    "informational": "clause {1} makes signal {0} informational: the bound it states bounds nothing (section 9, F.11, A.3; P.3's lift)",
    "derive": "a derived signal: rule {0} puts a {4} {5} on org {1} dimension {2} ({3}), once per key {6} (numbered {0}/{1}/n)",
    "uses": "the derived signal of rule {0} on org {1} with key {2} rests on the facts {3} (one proof)",
    "chain": "{0} holds {2} of {1} along the simple chain {3} of stake facts {4}, {5} links",
    "effective_stake": "{0}'s effective stake in {1} is {2}: the sum over its simple chains",
    "stake_total": "{0}'s effective stake in {1} is {2}",
    "lab_investor": "{0} is a lab investor, {1} look-through levels deep",
    "investor_fact": "fact {1} is in a proof that {0} is a lab investor, {2} look-through levels deep",
    "chain_fact": "fact {2} is a link of a simple chain by which {0} holds part of {1}",
    "looks_through": "{0} holds 50% or more of {1}: the lab investor's look-through",
    "is_lab_investor": "{0} is a lab investor",
    "lab_owner": "{0} owns 20% or more of lab {1} (F.4b)",
    "lab_member": "lab {1} is a member of {0}, a member-governed consortium, by fact {2} (G.4)",
    "vendor_owned": "{0} is owned by lab {1}: {1} holds 20% or more of it, or it is {1}'s unit (X.6)",
    "hop_within": "{0} is within {1} ties of a lab",
    "hop": "{0}'s hop is {1}: the fewest ties to a lab",
    "hop_of": "{0} is {1} ties from a lab (at most 4)",
    "tie": "{0} is tied to {1}: it holds it, it is its principal, or {1} pays {0}",
    "freshness": "result {0}'s freshness at the as-of date is {1}",
    "magnitude": "result {0}'s magnitude is {1}",
    "lane_multiplier": "result {0}'s lane multiplier is {1}",
}

#: Argument names where the rules write a constant in that place (the rest come from the rules' variables).
SIGNATURES = {
    "status": ("S", "Status"), "org_status": ("O", "Status"), "org_output": ("O", "Output"),
    "donors": ("E", "Donors"), "money_flag": ("M", "Flag"), "result_flag": ("R", "Flag"),
    "role": ("P", "Role", "At", "Rec", "F"), "role_recusal": ("F", "Recusal"), "org_policy": ("O", "Policy", "F"),
    "result_score": ("R", "S", "Unit"), "band": ("O", "P", "Band"), "org_role": ("O", "Role"),
    "placed": ("O", "List"), "candidate_result": ("C", "Result"), "candidate": ("C", "Cr", "R", "Src"),
    "money": ("M", "Payer", "Recipient", "K"),
    "derive": ("Rule", "O", "D", "Dir", "K", "N", "Key"), "uses": ("Rule", "O", "Key", "Fs"),
    "b2": ("S", "V", "K", "B"),
}


#: What the rules' variable names stand for where a condition tests them (logic/mechanics.py's
#: docstring names them): a failing ``(T <= 2)`` reads "tier 3 is at most 2".
WORDS = {"T": "tier", "TA": "tier", "TB": "tier", "Sp": "span", "Sa": "span", "Sb": "span",
         "St": "status", "Pub": "publisher", "PA": "publisher", "PB": "publisher", "Lo": "share",
         "Hi": "share", "Sh": "share", "E": "effective stake", "B": "bound",
         "Pubs": "publishers cited", "Srcs": "sources cited", "Now": "the as-of date",
         "Aged": "the day it is 24 months old", "From1": "the amendment of", "From2": "the amendment of",
         "Until1": "the day 24 months after the other amendment,", "Until2": "the day 24 months after the other amendment,",
         "Ends": "the day the citation is 24 months old"}

#: Variables of the core rules that hold a day (``date.toordinal``): proofs show them as ISO dates.
DATE_VARS = frozenset({"A", "Day", "Now", "Aged", "From1", "From2", "Until1", "Until2", "Ends"})

#: Clauses the RULES place on a dimension besides their own: F.11's evaluation credits are
#: "recorded on the access mechanism instead" (section 9 reads the rest by the id's letter).
ALSO_ON = {"F.11": ("A",)}


def clause_dims(clause: str):
    """The dimensions a signal naming ``clause`` belongs on (section 9, "mis-dimensioned facts"): the
    letter of its id and any other the RULES name; none for a section, a contract or a lane clause.

        >>> clause_dims("F.10"), clause_dims("F.11"), clause_dims("9"), clause_dims("PL.1")
        (('F',), ('F', 'A'), (), ())
    """
    if len(clause) > 2 and clause[0] in "FGPASRMX" and clause[1] == ".":
        return (clause[0],) + ALSO_ON.get(clause, ())
    return ()


#: What the absence of a relation says of its first argument, where a proof or a refutation meets it
#: (a failed negation, a missing row): "{0} quotes no span from a confirmed source (C15)".
ABSENT = {
    "span_confirmed": "{0} quotes no span from a confirmed source (C15)",
    "c16_ok": "{0} fails C16: it needs a quoted span, and a tier 1-2 source or two publishers",
    "f12_ok": "{0} is not a negative with a tier-1 source and an independent second source (F.12)",
    "x7_ok": "{0} is not a negative with a span and a second source (X.7)",
    "has_unconfirmed": "{0} cites no source that is not confirmed",
    "self_favour": "{0} cites none of its org's own pages in its favour (C17: against-interest drops nothing)",
    "has_confirmed": "{0} cites no confirmed source",
    "has_unaudited": "{0} cites no unaudited source",
    "admission": "{0} is not an admission against interest",
    "org_page": "{0} is not published by an org",
    "four_held": "{0} has no clause holding its floor 4",
    "held9": "{0} is not held by section 9",
    "tier_one_span": "{0} quotes no span from a confirmed tier-1 source (G.7, P.8)",
    "signal_home": "{0} names no clause of dimension {1}",
    "unbound": "{0} is not made informational by section 9, F.11 or A.3, nor lifted by P.3 or raised by R.6",
    "dated_policy": "{0} states no since= date",
    "is_resolved": "{0} has no resolution in range",
    "has_cap": "{0} has no admissible cap",
    "statutory_gov": "{0} is not a public body with statutory powers",
    "seat_recused": "{0} has no personal recusal",
    "fee_lifted": "{0} lacks the three fee policies of F.3",
    "sold_to_lab": "{0} documents no lab customer of {1} (X.1)",
    "diversified": "{0} is not flagged diversified: the org's own funds (X.5)",
    "lab_client": "{0} names no lab among its clients (no paid sale to a lab: X.8)",
    "money_src": "{0} states no source (X.8 reads revenue in a filing)",
    "undisclosed": "{0} states no undisclosed {1} (F.10)",
    "non_lab_base": "{0} discloses no base other than labs (no revenue from a payer that is not a lab, no paid sale to "
                    "a customer that is not a lab: F.5)",
    "lab_base": "{0} names no lab base of {1} (revenue=labs-only, clients=every-major-lab: F.5)",
    "share_known": "{0} states no share",
    "share_over": "{0} has no share above the threshold",
    "unusable": "{0} is not quarantined, and its lane is neither rejected nor pending",
    "band_zero": "{0} has no evidenced 0 on F G P X S R",
    "band_one": "{0} has no evidenced 1 on F G P X S R",
    "third_party_cited": "{0} cites no usable source published by someone other than the org (PL.1)",
    "has_percentile": "{0} states no percentile",
    "in_scoring_lane": "{0} is not in a scoring lane (verified with its fingerprint, or reported and approved)",
    "catalogued": "{0} names no catalog source",
    "catalog_scores": "{0} has no catalog source in the verified or reported lane",
    "usable_cited": "{0} cites no usable source",
    "unusable_only": "{0} cites a usable source, or none at all",
    "scoring_valid": "{0} is not scoring-valid (PL.3, Phase 2B)",
    "dated": "{0} has no run-at date",
}

#: Rows the program asserts itself (no statement of the world states them), as people read them.
GIVEN = {
    ("view", ("leads-included", "all")): "leads-included reads every usable citation (view all)",
    ("view", ("standard", "all")): "standard reads every usable citation (view all)",
    ("view", ("verified-spans", "all")): "verified-spans reads every usable citation (view all)",
    ("view", ("primary-only", "all")): "primary-only reads every usable citation (view all)",
    ("view", ("against-interest", "ai")): "against-interest drops the org's own sources from for-signals (view ai)",
}


# --- what each clause gives a signal (issue 40: the curator's bound, checked) --------------------------

@dataclass(frozen=True)
class Bound:
    """One bound a clause gives a signal: a ``cap``, a ``floor``, or a ``value`` (the clause sets the
    value, so a cap or a floor of it), of ``lo`` to ``hi`` ("at most 3" is 0-3), on ``dims`` (empty: the
    clause's own dimension), ``when`` the clause names a condition for it (a condition is what the
    cited span says; logic/policies.py checks those a stated policy can).

        >>> str(Bound("cap", 2, 2, "if the org also publishes its own reports"))
        'cap 2 if the org also publishes its own reports'
        >>> Bound("floor", 0, 2, dims="SRM").allows("floor", 3, "S"), Bound("value", 2, 2).allows("cap", 2, "M")
        (False, True)
    """

    kind: str
    lo: int
    hi: int
    when: str = ""
    dims: str = ""

    def allows(self, kind: str, bound: int, dim: str) -> bool:
        """A signal's ``kind`` (cap or floor) of ``bound`` on ``dim`` is this bound."""
        return (kind == self.kind or self.kind == "value") and self.lo <= bound <= self.hi \
            and (not self.dims or dim in self.dims)

    def __str__(self) -> str:
        kind = "cap or floor" if self.kind == "value" else self.kind
        n = str(self.lo) if self.lo == self.hi else f"at most {self.hi}"
        on = f" on {', '.join(self.dims)}" if self.dims else ""
        return f"{kind} {n}{on}" + (f" {self.when}" if self.when else "")


def _b(kind: str):
    return lambda n, when="", dims="": Bound(kind, n, n, when, dims)


cap, floor, value = _b("cap"), _b("floor"), _b("value")


def floor_upto(n: int, when: str = "", dims: str = "") -> Bound:
    """A floor of at most ``n`` (F.8's "floors at most 3", section 9's "no floor above 2")."""
    return Bound("floor", 0, n, when, dims)


#: A clause that leaves its bound to the anchor table (A.1's "deepest documented engagement sets the
#: floor"): any bound of the signal's own direction, checked against nothing.
ANCHOR_TABLE = "anchor-table"
#: A clause whose signals are informational (F.11 "bound: null", A.3 "a mechanism, not a cap").
INFORMATIONAL = "informational"
#: A clause of the mechanics (a section, a CONTRACT or lane clause): a signal names the clause whose
#: anchor it supports, not one of these.
NO_BOUND = "no bound"

#: clause -> the bounds it gives a signal (each a :class:`Bound`), or one of the three words above.
#: ``provlog rules`` and docs/clauses.md show them; logic/bounds.py checks every recorded signal (W120).
BOUNDS = {
    **{c: NO_BOUND for c in ("def", "0", "C14", "C15", "C16", "C17", "10", "11", "hop", "PL.1", "PL.3")},
    "9": (cap(0, "(no published evaluation)", "A"), floor_upto(2, "(no published evaluation)", "SRM")),
    # --- 1. Funding ---
    "F.1": (cap(0),),
    "F.2": (cap(2, "if disclosed and over 5% of operating cost"), cap(3, "if undisclosed and depended on")),
    "F.3": (cap(2), cap(3, "with published policies capping lab revenue at 10%, market rates, publication rights")),
    "F.4": (cap(1),),
    "F.4b": (cap(1),),
    "F.5": (cap(1), cap(2, "for per-engagement lab fees beside a disclosed non-lab base (F.3)")),
    "F.6": (cap(3),),
    "F.7": (cap(3, "if disclosed and at most 10% of revenue, or a policy permits them"), cap(2, "if above 10%")),
    "F.8": (floor_upto(3),),
    "F.9": (floor(3, "for public funding"), floor(4, "with a confirmed bounded negative and no material lab in-kind"),
            cap(3, "for administering a grant pool that includes lab money")),
    "F.10": (cap(3, "for an undisclosed capital structure"), cap(2, "with an undisclosed client base too")),
    "F.11": INFORMATIONAL,
    "F.12": (floor(4),),
    # --- 2. Governance ---
    "G.1": (floor(2, "(legal form alone, no published conflict policy: a 3 needs G.2's)"),),
    "G.2": (floor(3, "for a nonprofit, academic group or public body"), floor(2, "for a for-profit or PBC")),
    "G.3": (cap(2),),
    "G.4": (cap(2),),
    "G.5": (cap(3),),
    "G.6": (cap(0),),
    "G.7": (floor(4),),
    # --- 3. Personnel ---
    "P.1": (cap(1, "with a personal recusal"), cap(0, "without one")),
    "P.2": (cap(1),),
    "P.3": (cap(2),),
    "P.4": (cap(2),),
    "P.5": (floor(3),),
    "P.6": (floor(2), floor(3, "with the policy of P.5")),
    "P.7": (cap(0), cap(1, "by P.1")),
    "P.8": (floor(4),),
    # --- 4. Access ---
    "A.1": ANCHOR_TABLE,
    "A.2": (floor(3),),
    "A.3": INFORMATIONAL,
    "A.4": (value(3),),
    "A.5": (floor(4),),
    "A.6": (value(0),),
    # --- 5. Scope ---
    "S.1": (cap(3),),
    "S.2": (cap(2),),
    "S.3": (value(3),),
    "S.4": (floor(4, "for statutory powers to define scope and compel participation"),
            floor(3, "for voluntary memoranda")),
    "S.5": (floor(3), floor(4, "with incident-investigation or sign-off-refusal rights")),
    "S.6": (cap(3),),
    # --- 6. Publication ---
    "R.1": (floor(3),),
    "R.2": (cap(3, "if disclosed with what changed"), cap(2, "if not")),
    "R.3": (cap(1), cap(2, "if the org also publishes its own reports")),
    "R.4": (value(1, "for nothing per model"), value(2, "for aggregated trends or reports to a regulator only")),
    "R.5": (floor(4),),
    "R.6": (cap(2, "while it applied"), cap(3, "after a disclosure policy")),
    "R.7": (floor(2), floor(3, "with no lab review or security-only redactions disclosed")),
    # --- 7. Methods ---
    "M.1": (floor(3, "for open code alone"), floor(4, "with open tasks and re-runs or factsheets")),
    "M.2": (value(2, "for methods in prose"), value(1, "for summaries only")),
    "M.3": (floor(3), floor(4, "with documented third-party re-runs")),
    # --- 8. Role incompatibility ---
    "X.1": (cap(0), cap(2, "for a product sold to unspecified parties, until a lab customer is documented")),
    "X.2": (cap(1),),
    "X.3": (cap(2),),
    "X.4": (floor(3),),
    "X.5": (cap(2), cap(3, "in a diversified portfolio")),
    "X.6": (cap(3),),
    "X.7": (floor(4),),
    "X.8": (cap(3),),
}


def gives(clause: str) -> str:
    """What ``clause`` gives a signal, in words (``provlog rules``, docs/clauses.md, W120's message).

        >>> gives("R.3"), gives("A.1")
        ('cap 1, or cap 2 if the org also publishes its own reports', "the anchor table's (checked against nothing)")
    """
    got = BOUNDS.get(clause)
    if got is None:
        return ""
    if got == ANCHOR_TABLE:
        return "the anchor table's (checked against nothing)"
    if got == INFORMATIONAL:
        return "no bound: its signals are informational (write `info`)"
    if got == NO_BOUND:
        return "no bound of its own: a signal names the clause whose anchor it supports"
    return ", or ".join(str(b) for b in got)
