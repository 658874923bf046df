"""Structural rules: ownership chains, lab investors and owners, derived signals, hops.

Put this file beside rules.txt sections 1, 2, 3, 8 and SEMANTICS.md
("Ownership chains", "Structural rules in v1", "Money matrix", "Fine print").
A structural rule derives ``derive(Rule, O, D, Dir, K, N, Key)``: an
against-signal on org O (one per Key, e.g. per holder), and
``uses(Rule, O, Key, Fs)``: fact ids of its proofs (a tuple; a proof may
come in several rows). The signal cites the ``src=`` (with ``span=``) of
every fact of every proof: the union of these rows, so no relation needs to
hold a whole proof.

Recursion is left-recursive and bounded (chains at most 6 links, lab-investor
look-through at most 6 levels, hops at most 4 ties), so cycles end.
Percentages are exact fractions; ``Fraction(1, 5)`` is 20%.
"""
from .clauses import CLAUSES
from .rules import RuleSet

#: F.5: money that is revenue (a disclosed base, lab or not), and the sales that earn it (a free tool earns none).
REVENUE_KINDS = ("grant", "revenue", "fee", "donation")
PAID_SALES = ("defense", "monitoring", "guardrails", "data", "tooling", "license", "deployment", "consulting")

STRUCTURE = RuleSet("structure", statements=CLAUSES)
r = STRUCTURE.add
D = "derive"

# --- Ownership chains (F.1, G.6): multiply along each simple chain, add across chains ---
r("F.1", "chain(A, T, P, Path, Fs, N) <= stake(A, T, P, F) & (Path == (A, T)) & (Fs == (F,)) & (N == 1)",
  "{A} holds {P} of {T} directly", D)
r("F.1", "chain(A, T, P, Path, Fs, N) <= chain(A, M, P1, Path1, Fs1, N1) & (N1 < 6) & stake(M, T, P2, F) & T._not_in(Path1) & (Path == Path1 + (T,)) & (Fs == Fs1 + (F,)) & (N == N1 + 1) & (P == P1 * P2)",
  "{A} holds {P} of {T} along the chain {Path}", D)
r("F.1", "(effective_stake[A, T] == sum_(P, for_each=Path)) <= chain(A, T, P, Path, Fs, N)",
  "{A}'s effective stake in {T}: the sum over its simple chains", D)
r("F.1", "stake_total(A, T, E) <= (effective_stake[A, T] == E)", "{A}'s effective stake in {T} is {E}", D)
r("F.1", "chain_fact(A, T, F) <= chain(A, T, P, Path, Fs, N) & F.in_(Fs)", "", D)  # the facts of every chain

# --- Lab investors and lab owners -------------------------------------------------
# lab_investor(X, N): X has a proof of look-through depth N. investor_fact(X, F, N): fact F is in
# one of those proofs. Proofs are never carried whole: in a circle of holdings there are
# exponentially many (one per walk of up to 6 steps, times the chains of each step), but
# only up to nodes x facts x 7 rows of investor_fact (issue 19).
r("def", "investor_node(X) <= entity(X, K)", "{X} is an entity", D)
r("def", "investor_node(X) <= person(X)", "{X} is a person", D)
r("F.4", "looks_through(X, Y) <= investor_node(X) & stake_total(X, Y, E) & (E >= Fraction(1, 2))",
  "{X} holds 50% or more of {Y}", D)
for how, body in (("holds a stake in", "stake(X, L, P, F)"), ("invested in", "invest(X, L, Lead, Priced, F)")):
    r("F.4", f"lab_investor(X, N) <= investor_node(X) & {body} & lab(L) & (N == 0)",
      f"{{X}} {how} lab {{L}}: a lab investor", D)
    r("F.4", f"investor_fact(X, F, N) <= investor_node(X) & {body} & lab(L) & (N == 0)", "", D)
r("F.4", "lab_investor(X, N) <= lab_investor(Y, N1) & (N1 < 6) & looks_through(X, Y) & (N == N1 + 1)",
  "{X} holds 50% or more of lab investor {Y}: a lab investor by look-through", D)
r("F.4", "investor_fact(X, F, N) <= lab_investor(Y, N1) & (N1 < 6) & looks_through(X, Y) & chain_fact(X, Y, F) & (N == N1 + 1)", "", D)
r("F.4", "investor_fact(X, F, N) <= investor_fact(Y, F, N1) & (N1 < 6) & looks_through(X, Y) & (N == N1 + 1)", "", D)
r("F.4", "is_lab_investor(X) <= lab_investor(X, N)", "{X} is a lab investor", D)
r("F.4b", "lab_owner(X, L) <= stake_total(X, L, E) & (E >= Fraction(1, 5)) & lab(L)",
  "{X} owns 20% or more of lab {L}: a lab owner", D)
r("F.4", "lab_linked(X) <= lab(X)", "{X} is a lab", D)
r("F.4", "lab_linked(X) <= lab_investor(X, N)", "{X} is a lab investor", D)

# --- F.1 / G.6 ownership at 20% or more; units ------------------------------------
r("F.1", "owned_by_lab_side(O, X) <= stake_total(X, O, E) & (E >= Fraction(1, 5)) & org(O, T) & lab_linked(X)",
  "{X}, a lab or lab investor, holds 20% or more of {O}", D)
for rule, dim in (("F.1", "F"), ("G.6", "G")):
    r(rule, f"derive('{rule}', O, '{dim}', 'against', 'cap', 0, X) <= owned_by_lab_side(O, X)",
      f"{rule}: {{X}} (a lab or lab investor) holds 20% or more of {{O}}: {dim} cap 0", D)
    r(rule, f"uses('{rule}', O, X, Fs) <= owned_by_lab_side(O, X) & chain_fact(X, O, F) & (Fs == (F,))", "", D)
    r(rule, f"uses('{rule}', O, X, Fs) <= owned_by_lab_side(O, X) & investor_fact(X, F, N) & (Fs == (F,))", "", D)
    r(rule, f"derive('{rule}', O, '{dim}', 'against', 'cap', 0, L) <= unit(O, L, F) & org(O, T)",
      f"{rule}: {{O}} is a business unit of lab {{L}}: {dim} cap 0", D)
    r(rule, f"uses('{rule}', O, L, Fs) <= unit(O, L, F) & org(O, T) & (Fs == (F,))", "", D)

# --- Money that counts (F.2, F.11): in-kind only when operating ---------------------
r("F.2", "counts(M) <= money(M, X, Y, K) & K.in_(('grant', 'investment', 'revenue', 'fee', 'donation'))",
  "money row {M} is {K}", D)
r("F.2", "counts(M) <= money(M, X, Y, K) & K.in_(('in-kind', 'credits', 'compute')) & money_flag(M, 'operating')",
  "in-kind row {M} is general operating support", D)
r("F.2", "share_over(M, T) <= money_share(M, Lo, Open) & threshold(T) & (Lo > T)", "{M}'s share exceeds {T}", D)
r("F.2", "share_over(M, T) <= money_share(M, Lo, 'open') & threshold(T) & (Lo == T)", "{M}'s share exceeds {T}", D)
r("F.2", "share_known(M) <= money_share(M, Lo, Open)", "{M} states a share", D)

# --- F.2 operating in-kind from a lab ------------------------------------------------
r("F.2", "derive('F.2', O, 'F', 'against', 'cap', 2, M) <= money(M, L, O, K) & lab(L) & org(O, T) & K.in_(('in-kind', 'credits', 'compute')) & money_flag(M, 'operating') & share_over(M, Fraction(1, 20))",
  "F.2: lab {L} gives {O} operating {K} over 5% of its operating cost: cap 2", D)
r("F.2", "derive('F.2', O, 'F', 'against', 'cap', 3, M) <= money(M, L, O, K) & lab(L) & org(O, T) & K.in_(('in-kind', 'credits', 'compute')) & money_flag(M, 'operating') & ~share_known(M) & money_flag(M, 'depends')",
  "F.2: lab {L} gives {O} undisclosed operating {K} that {O} says it depends on: cap 3", D)
r("F.2", "uses('F.2', O, M, Fs) <= derive('F.2', O, 'F', 'against', 'cap', N, M) & (Fs == (M,))", "", D)

# --- F.3 fees per engagement ---------------------------------------------------------
r("F.3", "fee_policies(O, Fs) <= org_policy(O, 'lab-revenue-cap', F1) & policy_value(F1, Lo, Hi) & (Hi <= Fraction(1, 10)) & org_policy(O, 'market-rates', F2) & org_policy(O, 'publication-rights', F3) & (Fs == (F1, F2, F3))",
  "F.3: {O} caps lab revenue at 10% or less, charges market rates and keeps publication rights", D)
r("F.3", "fee_lifted(O) <= fee_policies(O, Fs)", "", D)
r("F.3", "derive('F.3', O, 'F', 'against', 'cap', 2, M) <= money(M, L, O, 'fee') & lab(L) & org(O, T) & ~fee_lifted(O)",
  "F.3: lab {L} pays {O} per engagement: cap 2", D)
r("F.3", "derive('F.3', O, 'F', 'against', 'cap', 3, M) <= money(M, L, O, 'fee') & lab(L) & org(O, T) & fee_lifted(O)",
  "F.3: lab {L} pays {O} per engagement under its published fee policies: cap 3", D)
r("F.3", "uses('F.3', O, M, Fs) <= money(M, L, O, 'fee') & lab(L) & org(O, T) & (Fs == (M,))", "", D)
r("F.3", "uses('F.3', O, M, Fs) <= money(M, L, O, 'fee') & lab(L) & fee_policies(O, Fs)", "", D)

# --- F.4 material investment by a lab or lab investor ----------------------------------
r("F.4", "material_investor(O, X) <= invest(X, O, Lead, 'priced', F) & org(O, T) & Lead.in_(('led', 'co-led')) & lab_linked(X)",
  "F.4: {X}, a lab or lab investor, {Lead} a priced round of {O}", D)
r("F.4", "material_investor(O, X) <= stake_total(X, O, E) & (E >= Fraction(1, 20)) & org(O, T) & lab_linked(X)",
  "F.4: {X}, a lab or lab investor, holds 5% or more of {O}", D)
r("F.4", "derive('F.4', O, 'F', 'against', 'cap', 1, X) <= material_investor(O, X)",
  "F.4: material investment in {O} by {X}: cap 1", D)
r("F.4", "uses('F.4', O, X, Fs) <= material_investor(O, X) & invest(X, O, Lead, 'priced', F) & Lead.in_(('led', 'co-led')) & (Fs == (F,))", "", D)
r("F.4", "uses('F.4', O, X, Fs) <= material_investor(O, X) & stake_total(X, O, E) & (E >= Fraction(1, 20)) & chain_fact(X, O, F) & (Fs == (F,))", "", D)
r("F.4", "uses('F.4', O, X, Fs) <= material_investor(O, X) & investor_fact(X, F, N) & (Fs == (F,))", "", D)

# --- F.4b money from an owner of a lab ---------------------------------------------------
r("F.4b", "owner_money(O, M, X) <= money(M, X, O, K) & org(O, T) & K.in_(('grant', 'investment')) & lab_owner(X, L) & money_share(M, Lo, Open) & (Lo >= Fraction(1, 20))",
  "F.4b: {X} owns a lab and gives {O} a {K} of 5% or more of its revenue", D)
r("F.4b", "derive('F.4b', O, 'F', 'against', 'cap', 1, M) <= owner_money(O, M, X)",
  "F.4b: lab-linked money from lab owner {X}: cap 1", D)
r("F.4b", "uses('F.4b', O, M, Fs) <= owner_money(O, M, X) & (Fs == (M,))", "", D)
r("F.4b", "uses('F.4b', O, M, Fs) <= owner_money(O, M, X) & lab_owner(X, L) & chain_fact(X, L, F) & (Fs == (F,))", "", D)

# --- F.5 principal revenue from labs ---------------------------------------------------------
r("F.5", "lab_revenue(O, Y, M, Lo) <= money(M, L, O, K) & lab(L) & org(O, T) & K.in_(('revenue', 'fee')) & money_share(M, Lo, Open) & money_year(M, Y)",
  "F.5: {M} is lab revenue of {O} in {Y}: share {Lo}", D)
r("F.5", "(lab_revenue_share[O, Y] == sum_(Lo, for_each=M)) <= lab_revenue(O, Y, M, Lo)",
  "F.5: {O}'s lab revenue share in {Y}", D)
r("F.5", "derive('F.5', O, 'F', 'against', 'cap', 1, Y) <= (lab_revenue_share[O, Y] == Sh) & (Sh >= Fraction(1, 2))",
  "F.5: labs are {O}'s principal revenue in {Y} (50% or more): cap 1", D)
r("F.5", "uses('F.5', O, Y, Fs) <= (lab_revenue_share[O, Y] == Sh) & (Sh >= Fraction(1, 2)) & lab_revenue(O, Y, M, Lo) & (Fs == (M,))", "", D)
# ... or lab revenue as the only revenue disclosed (`revenue=labs-only`), or "every major lab" named as
# the clients (`clients=every-major-lab`), while no other base is disclosed: no money of REVENUE_KINDS from
# a payer that is not a lab, no sale (but a free tool) to a customer that is not a lab. Beside such a
# base the lab fees are F.3's (cap 2). The signal cites the org statement, as F.10's does.
r("F.5", f"other_base(O, F) <= money(F, X, O, K) & K.in_({REVENUE_KINDS!r}) & ~lab(X)",
  "F.5: {X}, not a lab, pays {O} ({K}): a base other than labs is disclosed", D)
r("F.5", f"other_base(O, F) <= sells(O, C, W, F) & W.in_({PAID_SALES!r}) & ~lab(C)",
  "F.5: {O} sells {W} to {C}, not a lab: a base other than labs is named", D)
r("F.5", "non_lab_base(O) <= other_base(O, F)", "F.5: {O} has a disclosed base other than labs", D)
r("F.5", "derive('F.5', O, 'F', 'against', 'cap', 1, W) <= lab_base(O, W) & org(O, T) & ~non_lab_base(O)",
  "F.5: {O} names labs as its only base ({W}), and no other base is disclosed: cap 1", D)
r("F.5", "uses('F.5', O, W, Fs) <= lab_base(O, W) & org_fact(O, F) & ~non_lab_base(O) & (Fs == (F,))", "", D)

# --- F.6 pooled and donor-advised money; funders whose principal is a lab investor ----------
r("F.6", "pooled_money(O, M, E, Fs) <= money(M, E, O, K) & counts(M) & org(O, T) & entity(E, EK) & EK.in_(('pooled-fund', 'daf')) & donors(E, 'undisclosed') & entity_fact(E, F) & (Fs == (M, F))",
  "F.6: {E} is a {EK} whose donors are undisclosed, and pays {O}", D)
r("F.6", "pooled_money(O, M, E, Fs) <= money(M, E, O, K) & counts(M) & org(O, T) & principal(E, X) & lab_investor(X, N) & entity_fact(E, F) & (Fs == (M, F))",
  "F.6: {E}, whose principal {X} is a lab investor, pays {O}", D)
r("F.6", "derive('F.6', O, 'F', 'against', 'cap', 3, M) <= pooled_money(O, M, E, Fs)",
  "F.6: pooled or lab-linked philanthropic money: cap 3", D)
r("F.6", "uses('F.6', O, M, Fs) <= pooled_money(O, M, E, Fs)", "", D)
r("F.6", "uses('F.6', O, M, Fs) <= pooled_money(O, M, E, Fs1) & principal(E, X) & investor_fact(X, F, N) & (Fs == (F,))", "", D)

# --- F.7 personal donations from lab employees -----------------------------------------------
r("F.7", "lab_employee(P, F) <= role(P, 'employee', L, Rec, F) & lab(L)", "{P} is an employee of lab {L}", D)
r("F.7", "derive('F.7', O, 'F', 'against', 'cap', 3, M) <= money(M, P, O, 'donation') & org(O, T) & lab_employee(P, F) & share_known(M) & ~share_over(M, Fraction(1, 10))",
  "F.7: lab employee {P} gives {O} a disclosed donation of at most 10% of revenue: cap 3", D)
r("F.7", "derive('F.7', O, 'F', 'against', 'cap', 2, M) <= money(M, P, O, 'donation') & org(O, T) & lab_employee(P, F) & share_over(M, Fraction(1, 10))",
  "F.7: lab employee {P} gives {O} a donation above 10% of revenue: cap 2", D)
r("F.7", "uses('F.7', O, M, Fs) <= money(M, P, O, 'donation') & org(O, T) & lab_employee(P, F) & share_known(M) & (Fs == (M, F))", "", D)
# "Undisclosed: no bound (nothing to score), but a policy that permits them caps at 3": the policy caps
# whether or not a donation is stated (a disclosed share above 10% still caps at 2, the smaller).
r("F.7", "derive('F.7', O, 'F', 'against', 'cap', 3, F) <= org_policy(O, 'permits-lab-employee-donations', F)",
  "F.7: {O}'s published policy permits personal donations from lab employees: cap 3", D)
r("F.7", "uses('F.7', O, F, Fs) <= org_policy(O, 'permits-lab-employee-donations', F) & (Fs == (F,))", "", D)

# --- F.9 public bodies: public funding floors at 3; a grant pool with lab money caps at 3 ------
# Public funding: a public body (type gov) paid by a public body (an entity of kind public or a gov
# org), in money that counts (F.2). One signal per org, citing every such row.
r("F.9", "public_payer(X) <= entity(X, 'public')", "{X} is a public body (kind public)", D)
r("F.9", "public_payer(X) <= org(X, 'gov')", "{X} is a public body (type gov)", D)
r("F.9", "public_funding(O, M) <= org(O, 'gov') & money(M, X, O, K) & counts(M) & public_payer(X)",
  "F.9: {O}, a public body, is funded by {X}, a public body ({K})", D)
r("F.9", "derive('F.9', O, 'F', 'for', 'floor', 3, O) <= public_funding(O, M)",
  "F.9: public funding floors {O}'s F at 3", D)
r("F.9", "uses('F.9', O, O, Fs) <= public_funding(O, M) & (Fs == (M,))", "", D)
r("F.9", "pool_lab_money(O, E, Fs) <= administers(O, E, F) & money(M, L, E, K) & lab(L) & counts(M) & (Fs == (F, M))",
  "F.9: {O} administers {E}, a grant pool that includes money from lab {L}", D)
r("F.9", "derive('F.9', O, 'F', 'against', 'cap', 3, E) <= pool_lab_money(O, E, Fs)",
  "F.9: {O} administers a grant pool that includes lab money: cap 3", D)
r("F.9", "uses('F.9', O, E, Fs) <= pool_lab_money(O, E, Fs)", "", D)

# --- F.10 a private company's undisclosed capital structure (and client base) ---------------------
r("F.10", "derive('F.10', O, 'F', 'against', 'cap', 3, O) <= org(O, 'private') & undisclosed(O, 'capital') & ~undisclosed(O, 'clients')",
  "F.10: {O}, a private company, does not disclose its capital structure: cap 3", D)
r("F.10", "derive('F.10', O, 'F', 'against', 'cap', 2, O) <= org(O, 'private') & undisclosed(O, 'capital') & undisclosed(O, 'clients')",
  "F.10: {O}, a private company, discloses neither its capital structure nor its client base: cap 2", D)
r("F.10", "uses('F.10', O, O, Fs) <= org(O, 'private') & undisclosed(O, 'capital') & org_fact(O, F) & (Fs == (F,))", "", D)

# --- G.3 lab-investor money in a round -----------------------------------------------------------
r("G.3", "derive('G.3', O, 'G', 'against', 'cap', 2, X) <= invest(X, O, Lead, Priced, F) & org(O, T) & is_lab_investor(X)",
  "G.3: lab investor {X} took part in a round of {O}: cap 2", D)
r("G.3", "uses('G.3', O, X, Fs) <= invest(X, O, Lead, Priced, F) & org(O, T) & is_lab_investor(X) & (Fs == (F,))", "", D)
r("G.3", "uses('G.3', O, X, Fs) <= derive('G.3', O, 'G', 'against', 'cap', 2, X) & investor_fact(X, F, N) & (Fs == (F,))", "", D)

# --- G.4 member-governed consortia, X.6 benchmarks co-produced with a lab-owned vendor (issue 40) ---
# "the labs being benchmarked": no fact states which labs an org benchmarks, so a lab is read as one of
# them, as X.1-X.3 and P.1 read "evaluated lab" (docs/readings.md, G.4). "Owned by a lab": 20% or more,
# the RULES' one threshold of owning (F.1, F.4b, G.6), by effective stake; or the vendor is a lab's unit.
r("G.4", "lab_member(O, L, F) <= member(L, O, F) & org(O, 'consortium') & lab(L)",
  "G.4: lab {L} is a member of {O}, a member-governed consortium", D)
r("G.4", "derive('G.4', O, 'G', 'against', 'cap', 2, L) <= lab_member(O, L, F)",
  "G.4: {O} is a consortium governed by members that include lab {L}: cap 2", D)
r("G.4", "uses('G.4', O, L, Fs) <= lab_member(O, L, F) & (Fs == (F,))", "", D)
r("X.6", "vendor_owned(V, L) <= stake_total(L, V, E) & (E >= Fraction(1, 5)) & lab(L)",
  "X.6: lab {L} holds 20% or more of {V}", D)
r("X.6", "vendor_owned(V, L) <= unit(V, L, F)", "X.6: {V} is a business unit of lab {L}", D)
r("X.6", "derive('X.6', O, 'X', 'against', 'cap', 3, V) <= coproduces(O, V, F) & vendor_owned(V, L)",
  "X.6: {O} co-produces a benchmark with {V}, a vendor owned by lab {L}: cap 3", D)
r("X.6", "uses('X.6', O, V, Fs) <= coproduces(O, V, F) & vendor_owned(V, L) & (Fs == (F,))", "", D)
r("X.6", "uses('X.6', O, V, Fs) <= coproduces(O, V, F1) & stake_total(L, V, E) & (E >= Fraction(1, 5)) & lab(L) & chain_fact(L, V, F) & (Fs == (F,))", "", D)
r("X.6", "uses('X.6', O, V, Fs) <= coproduces(O, V, F1) & unit(V, L, F) & (Fs == (F,))", "", D)
# S.6: "while evaluating it" is read as G.4 reads the labs being benchmarked: any lab co-author.
r("S.6", "derive('S.6', O, 'S', 'against', 'cap', 3, L) <= coauthors(O, L, F) & org(O, T) & lab(L)",
  "S.6: {O} co-authors research with lab {L}: cap 3", D)
r("S.6", "uses('S.6', O, L, Fs) <= coauthors(O, L, F) & org(O, T) & lab(L) & (Fs == (F,))", "", D)

# --- P.1 P.2 P.4 personnel ------------------------------------------------------------------------
r("P.1", "lab_seat(O, P, F1, F2) <= role(P, R1, O, Rc1, F1) & org(O, T) & R1.in_(('founder', 'executive', 'director')) & role(P, R2, L, Rc2, F2) & lab(L) & R2.in_(('board', 'committee'))",
  "P.1: {P} leads {O} and holds a {R2} seat at lab {L}", D)
r("P.1", "seat_recused(F1, F2) <= lab_seat(O, P, F1, F2) & role_recusal(F1, 'personal')", "{P} recuses personally", D)
r("P.1", "seat_recused(F1, F2) <= lab_seat(O, P, F1, F2) & role_recusal(F2, 'personal')", "{P} recuses personally", D)
r("P.1", "derive('P.1', O, 'P', 'against', 'cap', 1, P) <= lab_seat(O, P, F1, F2) & seat_recused(F1, F2)",
  "P.1: {P} holds a lab seat with a personal recusal: cap 1", D)
r("P.1", "derive('P.1', O, 'P', 'against', 'cap', 0, P) <= lab_seat(O, P, F1, F2) & ~seat_recused(F1, F2)",
  "P.1: {P} holds a lab seat with no recusal: cap 0", D)
r("P.1", "uses('P.1', O, P, Fs) <= lab_seat(O, P, F1, F2) & (Fs == (F1, F2))", "", D)
r("P.2", "lab_adviser(O, P, F1, F2) <= role(P, R1, O, Rc1, F1) & org(O, T) & R1.in_(('executive', 'director')) & role(P, 'advisor', L, Rc2, F2) & lab(L)",
  "P.2: {P} leads {O} and advises lab {L}", D)
r("P.2", "derive('P.2', O, 'P', 'against', 'cap', 1, P) <= lab_adviser(O, P, F1, F2)", "P.2: {P} advises a lab: cap 1", D)
r("P.2", "uses('P.2', O, P, Fs) <= lab_adviser(O, P, F1, F2) & (Fs == (F1, F2))", "", D)
r("P.4", "one_hop_seat(O, P, X, Fs) <= role(P, R1, O, Rc1, F1) & org(O, T) & R1.in_(('board', 'advisor')) & role(P, 'partner', X, Rc2, F2) & lab_investor(X, N) & (Fs == (F1, F2))",
  "P.4: {P} sits on {O}'s board or advises it and is a partner at lab investor {X}", D)
r("P.4", "one_hop_seat(O, P, L, Fs) <= role(P, R1, O, Rc1, F1) & org(O, T) & R1.in_(('board', 'advisor')) & role(P, 'employee', L, Rc2, F2) & lab(L) & (Fs == (F1, F2))",
  "P.4: {P} sits on {O}'s board or advises it and is an employee of lab {L}", D)
r("P.4", "one_hop_seat(O, P, X, Fs) <= role(P, R1, O, Rc1, F1) & org(O, T) & R1.in_(('board', 'advisor')) & role(P, 'founder', X, Rc2, F2) & contractor(X, L, F3) & (Fs == (F1, F2, F3))",
  "P.4: {P} sits on {O}'s board or advises it and founded {X}, a contractor of lab {L}", D)
r("P.4", "derive('P.4', O, 'P', 'against', 'cap', 2, P) <= one_hop_seat(O, P, X, Fs)", "P.4: a seat one hop from a lab: cap 2", D)
r("P.4", "uses('P.4', O, P, Fs) <= one_hop_seat(O, P, X, Fs)", "", D)
r("P.4", "uses('P.4', O, P, Fs) <= one_hop_seat(O, P, X, Fs1) & investor_fact(X, F, N) & (Fs == (F,))", "", D)  # none for a lab

# --- X.1 X.2 X.3 selling to labs ---------------------------------------------------------------------
for rule, bound, kinds, words in (
    ("X.1", 0, "('defense', 'monitoring', 'guardrails')", "sells the fix"),
    ("X.2", 1, "('data', 'tooling', 'license', 'deployment')", "sells products or services"),
    ("X.3", 2, "('consulting',)", "consults"),
):
    r(rule, f"derive('{rule}', O, 'X', 'against', 'cap', {bound}, F) <= sells(O, L, W, F) & lab(L) & W.in_({kinds})",
      f"{rule}: {{O}} {words} to lab {{L}} ({{W}}): cap {bound}", D)
    r(rule, f"uses('{rule}', O, F, Fs) <= sells(O, L, W, F) & lab(L) & W.in_({kinds}) & (Fs == (F,))", "", D)

# X.1's product sold to parties that are not labs: cap 2 until a lab customer of it is documented
# (the card carries a document request, queries/cardfields.py).
r("X.1", "sold_to_lab(O, W) <= sells(O, L, W, F) & lab(L)", "{O} sells {W} to lab {L}", D)
r("X.1", "derive('X.1', O, 'X', 'against', 'cap', 2, F) <= sells(O, C, W, F) & W.in_(('defense', 'monitoring', 'guardrails')) & ~lab(C) & ~sold_to_lab(O, W)",
  "X.1: {O} sells {W} to {C}, not a lab, and no lab customer of it is documented: cap 2", D)
r("X.1", "uses('X.1', O, F, Fs) <= sells(O, C, W, F) & W.in_(('defense', 'monitoring', 'guardrails')) & ~lab(C) & ~sold_to_lab(O, W) & (Fs == (F,))", "", D)

# --- X.4 X.5 X.8 (issue 40) ----------------------------------------------------------------------------
# An "evaluated lab" is any declared lab, as X.1-X.3 and P.1 read it: no fact states which labs an org
# evaluates (docs/readings.md, R.5). X.4's "3" is a floor (logic/clauses.py BOUNDS; anchor 3 "tools are
# open or free to the ecosystem"): a free tool is no commercial product, so it keeps X.7's 4 open.
r("X.4", "derive('X.4', O, 'X', 'for', 'floor', 3, F) <= sells(O, L, 'free-tool', F) & lab(L)",
  "X.4: {O}'s free or open tool is used by lab {L}: floor 3", D)
r("X.4", "uses('X.4', O, F, Fs) <= sells(O, L, 'free-tool', F) & lab(L) & (Fs == (F,))", "", D)
# X.5: the org itself holds a stake in, or invested in, a lab: its own funds. `diversified` on the
# holding says it is held in a diversified portfolio (one that may include listed labs): cap 3.
r("X.5", "own_lab_holding(O, L, F) <= stake(O, L, P, F) & org(O, T) & lab(L)",
  "X.5: {O} holds {P} of lab {L}", D)
r("X.5", "own_lab_holding(O, L, F) <= invest(O, L, Lead, Priced, F) & org(O, T) & lab(L)",
  "X.5: {O} invested its own funds in lab {L}", D)
r("X.5", "derive('X.5', O, 'X', 'against', 'cap', 2, F) <= own_lab_holding(O, L, F) & ~diversified(F)",
  "X.5: {O} invests its own funds in lab {L}: cap 2", D)
r("X.5", "derive('X.5', O, 'X', 'against', 'cap', 3, F) <= own_lab_holding(O, L, F) & diversified(F)",
  "X.5: {O} holds lab {L} in a diversified portfolio: cap 3", D)
r("X.5", "uses('X.5', O, F, Fs) <= own_lab_holding(O, L, F) & (Fs == (F,))", "", D)
# X.8: earned revenue (kind revenue or fee) from a payer that is not a lab, stated with a source (the
# filing), of an org whose client base is undisclosed (clients=undisclosed), while no lab is named among
# its clients (a paid `sells` to a lab: X.1-X.3 bound it instead). A lab's fee is F.3's, not a client here.
r("X.8", f"lab_client(O) <= sells(O, L, W, F) & lab(L) & W.in_({PAID_SALES!r})",
  "X.8: {O} names lab {L} among its clients ({W})", D)
r("X.8", "undisclosed_revenue(O, M) <= undisclosed(O, 'clients') & money(M, X, O, K) & K.in_(('revenue', 'fee')) & ~lab(X) & money_src(M, S) & ~lab_client(O)",
  "X.8: {O} states earned revenue ({K}, in {S}) and does not disclose its clients", D)
r("X.8", "derive('X.8', O, 'X', 'against', 'cap', 3, M) <= undisclosed_revenue(O, M)",
  "X.8: {O}'s earned revenue comes from clients it does not name: cap 3", D)
r("X.8", "uses('X.8', O, M, Fs) <= undisclosed_revenue(O, M) & org_fact(O, F) & (Fs == (M, F))", "", D)

# --- Money matrix: ties and hops (SEMANTICS "Money matrix") -----------------------------------------
r("hop", "tie(X, Y) <= stake(X, Y, P, F)", "{X} holds {Y}", D)
r("hop", "tie(X, Y) <= invest(X, Y, Lead, Priced, F)", "{X} invested in {Y}", D)
r("hop", "tie(X, Y) <= principal(X, Y)", "{X}'s principal is {Y}", D)
r("hop", "tie(X, Y) <= money(M, Y, X, K) & counts(M)", "{Y} pays {X}", D)
r("hop", "hop_within(X, N) <= lab(X) & (N == 0)", "{X} is a lab: hop 0", D)
r("hop", "hop_within(X, N) <= hop_within(Y, N1) & (N1 < 4) & tie(X, Y) & (N == N1 + 1)",
  "{X} is tied to {Y} (hop {N1})", D)
r("hop", "(hop[X] == min_(N, order_by=N)) <= hop_within(X, N)", "{X}'s hop: the fewest ties to a lab", D)
r("hop", "hop_of(X, N) <= (hop[X] == N)", "{X} is at hop {N}: the fewest ties to a lab", D)
