"""Section 0 (mechanics), section 9 (track record), bands and roles, as Datalog.

Put this file beside rules.txt section 0 and SEMANTICS.md. Each rule names
the clause it implements. Variables: S signal, O org, D dimension, V view
('all' sees every usable citation; 'ai' is against-interest's view, which
drops self-published citations of for-signals), P policy, K bound kind
('cap'/'floor'), N stated bound, B bound, Src source, Sp span ('' for none).

The bound of a signal goes through four stages, each a relation:
b0 stated (none where a clause makes the signal informational: 9, F.11, A.3, a P.3 lift; R.6 raised)
-> b1 class clamp (C14) -> b2 extremes (C15, C16, F.8, F.9, F.12, G.7, P.8, X.7)
-> b3 section 9; ``held(S, V, Clause)`` records each clause that held it.
"""
from .clauses import CLAUSES
from .rules import RuleSet

MECHANICS = RuleSet("mechanics", statements=CLAUSES)
r = MECHANICS.add

# --- Signals and usable citations (SEMANTICS "Signals") ---------------------
r("def", "active(S) <= status(S, 'active')",
  "{S} is active (not differs, superseded or quarantined)")
r("def", "usable(Src) <= source(Src, Pub, St, T) & ~unusable(Src)",
  "{Src} is usable: not quarantined, lane not rejected or pending")
# C17: citations of the org's own pages. Start from the sources an org publishes (few), not from every citation.
r("C17", "own_page(S, Src, Dir) <= source(Src, O, St, T) & org(O, Ty) & cites(S, Src, Sp) & signal(S, O, D, Dir)",
  "{S} ({Dir}) cites {Src}, a page of {O} itself")
r("C17", "self_favour(S) <= own_page(S, Src, 'for')",
  "{S} is a for-signal citing its org's own page {Src}: against-interest drops it")
r("C17", "admission(S, Src) <= own_page(S, Src, 'against')",
  "C17: {Src} is the org's own page cited against it: an admission against interest")
# vcite(S, V, Src, Sp, St, T, Pub): a usable citation in view V, with what its source counts as
# (St: confirmed for an admission, C17), its tier and its publisher; every evidence test reads it.
r("C17", "vcite(S, 'all', Src, Sp, 'confirmed', T, Pub) <= admission(S, Src) & cites(S, Src, Sp) & usable(Src) & source(Src, Pub, St, T)",
  "C17: {S} cites {Src}, its org's own page, against it: it counts as confirmed")
# Only a page an org publishes can be an admission: other citations need no test per citation.
# Each rule starts from the sources (few) and joins their citations last: fewer partial joins to carry.
r("C17", "org_page(Src) <= source(Src, O, St, T) & org(O, Ty)", "{Src} is published by {O}, an org")
r("def", "vcite(S, 'all', Src, Sp, St, T, Pub) <= usable(Src) & ~org_page(Src) & source(Src, Pub, St, T) & cites(S, Src, Sp)",
  "{S} cites usable source {Src} ({St}, tier {T}, published by {Pub})")
r("C17", "vcite(S, 'all', Src, Sp, St, T, Pub) <= org_page(Src) & usable(Src) & source(Src, Pub, St, T) & cites(S, Src, Sp) & ~admission(S, Src)",
  "{S} cites usable source {Src} ({St}, tier {T}, published by the org {Pub}, not an admission)")
# View 'ai' exists only for the signals it changes: for-signals citing the org's own pages.
r("C17", "vcite(S, 'ai', Src, Sp, St, T, Pub) <= self_favour(S) & cites(S, Src, Sp) & usable(Src) & source(Src, Pub, St, T) & signal(S, O, D, Dir) & (Pub != O)",
  "against-interest keeps {Src} on for-signal {S}: {Pub} is not {O} itself")

# --- Evidence class (C14) -----------------------------------------------------
r("def", "has_confirmed(S, V) <= vcite(S, V, Src, Sp, 'confirmed', T, Pub)", "{S} cites confirmed source {Src}")
r("def", "has_unaudited(S, V) <= vcite(S, V, Src, Sp, 'unaudited', T, Pub)", "{S} cites unaudited source {Src}")
r("def", "has_unconfirmed(S, V) <= vcite(S, V, Src, Sp, St, T, Pub) & (St != 'confirmed')",
  "{S} cites {Src}, which is {St}")
r("C14", "evclass(S, V, 'confirmed') <= has_confirmed(S, V) & ~has_unconfirmed(S, V)",
  "C14: every usable source of {S} is confirmed")
r("C14", "evclass(S, V, 'partial') <= has_confirmed(S, V) & has_unconfirmed(S, V)",
  "C14: {S} has a confirmed source but not all are confirmed")
r("C14", "evclass(S, V, 'partial') <= has_unaudited(S, V) & ~has_confirmed(S, V)",
  "C14: {S} has an unaudited source and no confirmed one")
r("C14", "evclass(S, V, 'weak') <= has_unconfirmed(S, V) & ~has_confirmed(S, V) & ~has_unaudited(S, V)",
  "C14: {S} rests only on imported or unverifiable sources")

# A signal is informational (bound: null) where its clause says so: section 9's mis-dimensioned facts,
# F.11's evaluation credits, A.3's power not to renew. It stays on the card with the clause's note.
r("9", "informational(S, '9') <= stated(S, K, N) & active(S) & signal(S, O, D, Dir) & signal_rule(S, Rule) & signal_home(S, H) & ~signal_home(S, D)",
  "9: {S} names {Rule}, a clause of {H}, but sits on {D}: by section 9 it is informational on {D} (bound null); record it on {H} as a new signal")
r("F.11", "informational(S, 'F.11') <= stated(S, K, N) & active(S) & signal_rule(S, 'F.11')",
  "F.11: {S} records evaluation credits or undisclosed in-kind: informational (bound null), recorded on the access mechanism, not a {K} {N}")
r("A.3", "informational(S, 'A.3') <= stated(S, 'cap', N) & active(S) & signal_rule(S, 'A.3')",
  "A.3: {S} records that the lab can decline to renew: a mechanism, not a cap, so its cap {N} bounds nothing")
r("def", "unbound(S) <= informational(S, C)", "{S} is informational under {C}")
r("def", "b0(S, K, N) <= stated(S, K, N) & active(S) & ~unbound(S)", "{S} states {K} {N}")
# R.6's cap after a disclosure policy is read as 3 (logic/lifts.py: raised; an R.6 signal on R is never
# informational); P.3's lift is informational there.
r("R.6", "unbound(S) <= raised(S, C, B)", "{C} reads {S}'s cap as {B}, not as stated")
r("R.6", "b0(S, 'cap', B) <= raised(S, C, B)", "{C}: {S}'s cap is read as {B}")
r("C14", "b1(S, V, K, N) <= evclass(S, V, 'confirmed') & b0(S, K, N)",
  "C14: {S} is confirmed, so its {K} {N} stands")
r("C14", "b1(S, V, 'cap', N) <= evclass(S, V, 'partial') & b0(S, 'cap', N) & (N >= 1)",
  "C14: {S} is partly confirmed; cap {N} is at least 1 and stands")
r("C14", "b1(S, V, 'cap', 1) <= evclass(S, V, 'partial') & b0(S, 'cap', N) & (N < 1)",
  "C14: {S} is partly confirmed, so its cap {N} becomes 1")
r("C14", "b1(S, V, 'floor', N) <= evclass(S, V, 'partial') & b0(S, 'floor', N) & (N <= 3)",
  "C14: {S} is partly confirmed; floor {N} is at most 3 and stands")
r("C14", "b1(S, V, 'floor', 3) <= evclass(S, V, 'partial') & b0(S, 'floor', N) & (N > 3)",
  "C14: {S} is partly confirmed, so its floor {N} becomes 3")
r("C14", "b1(S, V, 'cap', N) <= evclass(S, V, 'weak') & b0(S, 'cap', N) & (N >= 2)",
  "C14: {S} rests on weak sources; cap {N} is at least 2 and stands")
r("C14", "b1(S, V, 'cap', 2) <= evclass(S, V, 'weak') & b0(S, 'cap', N) & (N < 2)",
  "C14: {S} rests on weak sources, which support 2 and nothing else: cap {N} becomes 2")
r("C14", "b1(S, V, 'floor', N) <= evclass(S, V, 'weak') & b0(S, 'floor', N) & (N <= 2)",
  "C14: {S} rests on weak sources; floor {N} is at most 2 and stands")
r("C14", "b1(S, V, 'floor', 2) <= evclass(S, V, 'weak') & b0(S, 'floor', N) & (N > 2)",
  "C14: {S} rests on weak sources, which support 2 and nothing else: floor {N} becomes 2")
r("C14", "held(S, V, 'C14') <= b0(S, K, N) & b1(S, V, K, B) & (B != N)",
  "C14 held {S}'s {K} {N} at {B}")

# --- Extremes (C15, C16, F.8, F.9, F.12, G.7, P.8, X.7) ------------------------------
r("C15", "span_confirmed(S, V) <= vcite(S, V, Src, Sp, 'confirmed', T, Pub) & (Sp != '')",
  "C15: {S} quotes a span from confirmed source {Src}")
r("C15", "b2(S, V, 'cap', B) <= b1(S, V, 'cap', B) & (B > 0)", "{S}'s cap {B} is not an extreme")
r("C15", "b2(S, V, 'cap', 0) <= b1(S, V, 'cap', 0) & span_confirmed(S, V)",
  "C15: {S}'s cap 0 is effective: it quotes a confirmed span")
r("C15", "b2(S, V, 'cap', 1) <= b1(S, V, 'cap', 0) & ~span_confirmed(S, V)",
  "C15: {S} quotes no span from a confirmed source, so its cap 0 is held at 1")
# A held clamp lists every clause that failed (SEMANTICS), even where C14 already raised the bound.
r("C15", "held(S, V, 'C15') <= b0(S, 'cap', 0) & evclass(S, V, Cl) & ~span_confirmed(S, V)",
  "C15: {S}'s cap 0 quotes no span from a confirmed source")
# The floor-4 tests (C16, F.12, X.7) are asked only of signals that state a floor 4.
r("C16", "has_span(S, V) <= stated(S, 'floor', 4) & vcite(S, V, Src, Sp, St, T, Pub) & (Sp != '')", "{S} quotes a span from {Src}")
r("C16", "tier12(S, V) <= stated(S, 'floor', 4) & vcite(S, V, Src, Sp, St, T, Pub) & (T >= 1) & (T <= 2)",
  "C16: {S} cites {Src}, a tier-{T} source")
# "A second publisher (source)" is a count of distinct publishers (sources), read once into a plain relation:
# linear in a signal's citations, where joining citations pairwise was quadratic.
r("C16", "(publishers[S, V] == len_(Pub)) <= stated(S, 'floor', 4) & vcite(S, V, Src, Sp, St, T, Pub)",
  "the number of publishers {S} cites")
r("C16", "n_publishers(S, V, Pubs) <= (publishers[S, V] == Pubs)", "{S} cites sources of {Pubs} publishers")
r("C16", "two_publishers(S, V) <= n_publishers(S, V, Pubs) & (Pubs >= 2)", "C16: {S} cites sources of {Pubs} publishers")
r("X.7", "(sources[S, V] == len_(Src)) <= stated(S, 'floor', 4) & vcite(S, V, Src, Sp, St, T, Pub)",
  "the number of sources {S} cites")
r("X.7", "n_sources(S, V, Srcs) <= (sources[S, V] == Srcs)", "{S} cites {Srcs} sources")
r("X.7", "two_sources(S, V) <= n_sources(S, V, Srcs) & (Srcs >= 2)", "X.7: {S} cites {Srcs} sources")
# Not "tier1": pyDatalog looks a relation r/n up as a Python resolver "r<n>/n" too, which would read tier12.
r("F.12", "tier_one(S, V) <= stated(S, 'floor', 4) & vcite(S, V, Src, Sp, St, 1, Pub)", "F.12: {S} cites {Src}, a tier-1 source")
r("C16", "c16_ok(S, V) <= has_span(S, V) & tier12(S, V)", "C16: {S} has a span and a tier 1-2 source")
r("C16", "c16_ok(S, V) <= has_span(S, V) & two_publishers(S, V)",
  "C16: {S} has a span and sources from two publishers")
# F.12's second source has another publisher than the tier-1 one: with a tier-1 source cited, that is
# the same as citing two publishers (one of them differs from the tier-1 source's).
r("F.12", "f12_ok(S, V) <= negative(S) & tier_one(S, V) & two_publishers(S, V)",
  "F.12: {S} is a bounded negative with a tier-1 source and a source of another publisher")
r("X.7", "x7_ok(S, V) <= negative(S) & has_span(S, V) & two_sources(S, V)",
  "X.7: {S} is a bounded negative with a span and a second source")
# G.7 and P.8 ask for tier-1 evidence: a span quoted from a confirmed tier-1 source.
r("G.7", "tier_one_span(S, V) <= stated(S, 'floor', 4) & vcite(S, V, Src, Sp, 'confirmed', 1, Pub) & (Sp != '')",
  "{S} quotes a span from {Src}, a confirmed tier-1 source")
# F.8: the org's no-lab-money rule is young at the as-of date, or amended twice within 24 months.
# A rule with no since= is not shown to be 24 months old; dates partial to the month or year are
# read at the end that keeps the floor 4 unproved (logic/edb.py: policy_since, policy_amended).
r("F.8", "young_rule(O, F) <= org_policy(O, 'no-lab-money', F) & policy_since(F, Since, Aged) & as_of(Now) & (Now < Aged)",
  "F.8: {O}'s no-lab-money rule, adopted {Since}, is younger than 24 months at the as-of date {Now} (24 months old on {Aged})")
r("F.8", "dated_policy(F) <= policy_since(F, Since, Aged)", "{F} states since={Since}")
r("F.8", "young_rule(O, F) <= org_policy(O, 'no-lab-money', F) & ~dated_policy(F)",
  "F.8: {O}'s no-lab-money rule states no since= date: it is not shown to be 24 months old")
r("F.8", "amended_often(O, F) <= org_policy(O, 'no-lab-money', F) & policy_amended(F, I, On1, From1, Until1) & policy_amended(F, J, On2, From2, Until2) & (I < J) & (From2 < Until1) & (From1 < Until2)",
  "F.8: {O}'s no-lab-money rule was amended {On1} and {On2}, twice within 24 months")
r("F.8", "amended_often(O, F) <= org_policy(O, 'no-lab-money', F) & policy_amendments(F, N) & (N >= 2)",
  "F.8: {O}'s no-lab-money rule was amended {N} times on dates not stated: two may fall within 24 months")
r("F.8", "unsettled_rule(O) <= young_rule(O, F)", "{O}'s no-lab-money rule is younger than 24 months")
r("F.8", "unsettled_rule(O) <= amended_often(O, F)", "{O}'s no-lab-money rule was amended more than once in 24 months")
# F.9: material lab in-kind under F.2 is an F.2 cap on the org's F with a usable citation, recorded or derived.
r("F.9", "lab_inkind(O) <= signal(S, O, 'F', 'against') & signal_rule(S, 'F.2') & b0(S, 'cap', N) & evclass(S, 'all', Cl)",
  "{S} records material lab in-kind of {O} under F.2 (cap {N})")
r("C16", "four_fails(S, V, 'C16') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & ~c16_ok(S, V)",
  "C16: {S}'s floor 4 needs a quoted span and either a tier 1-2 source or sources from two publishers")
r("F.12", "four_fails(S, V, 'F.12') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & signal(S, O, 'F', Dir) & ~f12_ok(S, V)",
  "F.12: {S}'s floor 4 on F needs a bounded negative, a tier-1 source and a second independent source")
r("X.7", "four_fails(S, V, 'X.7') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & signal(S, O, 'X', Dir) & ~x7_ok(S, V)",
  "X.7: {S}'s floor 4 on X needs a bounded negative, a quoted span and a second source")
r("G.7", "four_fails(S, V, 'G.7') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & signal(S, O, 'G', Dir) & ~tier_one_span(S, V)",
  "G.7: {S}'s floor 4 on G needs tier-1 evidence of an independent board and of external review: a span quoted from a confirmed tier-1 source")
r("P.8", "four_fails(S, V, 'P.8') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & signal(S, O, 'P', Dir) & ~tier_one_span(S, V)",
  "P.8: {S}'s floor 4 on P needs tier-1 evidence: a span quoted from a confirmed tier-1 source")
r("F.8", "four_fails(S, V, 'F.8') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & signal(S, O, 'F', Dir) & unsettled_rule(O)",
  "F.8: {S}'s floor 4 on F floors at most 3: {O}'s no-lab-money rule is younger than 24 months or was amended more than once in 24 months")
r("F.9", "four_fails(S, V, 'F.9') <= b0(S, 'floor', 4) & evclass(S, V, Cl) & signal_rule(S, 'F.9') & signal(S, O, 'F', Dir) & lab_inkind(O)",
  "F.9: {S}'s floor 4 from public funding needs no material lab in-kind under F.2, and {O} has some: public funding floors at 3")
r("C16", "four_held(S, V) <= b1(S, V, 'floor', 4) & four_fails(S, V, C)", "{C} holds {S}'s floor 4 at 3")
r("C16", "b2(S, V, 'floor', B) <= b1(S, V, 'floor', B) & (B < 4)", "{S}'s floor {B} is not an extreme")
r("C16", "b2(S, V, 'floor', 4) <= b1(S, V, 'floor', 4) & ~four_held(S, V)",
  "C16: {S}'s floor 4 is effective")
r("C16", "b2(S, V, 'floor', 3) <= four_held(S, V)", "{S}'s floor 4 is held at 3")
r("0", "held(S, V, C) <= four_fails(S, V, C)", "{C} held {S}'s floor 4 at 3 (C16, F.8, F.9, F.12, G.7, P.8 or X.7: the failing clause is {C})")

# --- Section 9: a pledge to evaluate is not an evaluation ---------------------
r("9", "statutory_gov(O) <= org(O, 'gov') & statutory(O, W)",
  "9: {O} is a public body with statutory {W}: a legal power is not a pledge")
r("9", "track_record_missing(O) <= not_evaluated(O) & ~statutory_gov(O)",
  "9: {O} has no published evaluation of a frontier model")
r("9", "held9(S, V) <= b2(S, V, 'floor', B) & (B > 2) & signal(S, O, D, Dir) & track_record_missing(O) & D.in_(('S', 'R', 'M'))",
  "9: {O} has no track record, so {S}'s floor {B} on {D} is held at 2")
# Section 9 holds floors above 2 only: caps and lower floors pass without a test.
r("9", "b3(S, V, 'cap', B) <= b2(S, V, 'cap', B)", "{S}'s bound cap {B}")
r("9", "b3(S, V, 'floor', B) <= b2(S, V, 'floor', B) & (B <= 2)", "{S}'s bound floor {B}")
r("9", "b3(S, V, 'floor', B) <= b2(S, V, 'floor', B) & (B > 2) & ~held9(S, V)", "{S}'s bound floor {B}")
r("9", "b3(S, V, 'floor', 2) <= held9(S, V)", "9: {S}'s floor is held at 2")
r("9", "held(S, V, '9') <= held9(S, V)", "9 held {S}'s floor at 2")

# --- Policies (admissibility) ---------------------------------------------------
r("0", "admissible(S, 'leads-included') <= evclass(S, 'all', Cl) & active(S)",
  "leads included: {S} is active with a usable citation")
r("0", "admissible(S, 'standard') <= has_confirmed(S, 'all') & active(S)",
  "standard: {S} cites a confirmed source")
r("0", "admissible(S, 'against-interest') <= has_confirmed(S, 'all') & active(S) & ~self_favour(S)",
  "against interest: {S} cites a confirmed source (none of its own pages in its favour)")
r("0", "admissible(S, 'against-interest') <= has_confirmed(S, 'ai') & active(S) & self_favour(S)",
  "against interest: {S} cites a confirmed source that is not its own page in its favour")
r("0", "admissible(S, 'verified-spans') <= span_confirmed(S, 'all') & active(S)",
  "verified spans: {S} quotes a span from a confirmed source")
r("0", "primary(S, V) <= vcite(S, V, Src, Sp, 'confirmed', T, Pub) & (Sp != '') & (T >= 1) & (T <= 2)",
  "primary only: {S} quotes a span from {Src}, confirmed and tier {T}")
r("0", "admissible(S, 'primary-only') <= primary(S, 'all') & active(S)",
  "primary only: {S} has a confirmed tier 1-2 source with a span")
r("0", "effective(S, P, K, B) <= admissible(S, P) & view(P, 'all') & b3(S, 'all', K, B)",
  "{S} is admissible under {P} with effective {K} {B}")
r("0", "effective(S, 'against-interest', K, B) <= admissible(S, 'against-interest') & ~self_favour(S) & b3(S, 'all', K, B)",
  "{S} is admissible under against-interest with effective {K} {B}")
r("0", "effective(S, 'against-interest', K, B) <= admissible(S, 'against-interest') & self_favour(S) & b3(S, 'ai', K, B)",
  "{S} is admissible under against-interest with effective {K} {B}, its own pages dropped")
# The deciding bound in one pass: smallest cap (largest floor), recorded before derived, then the smallest id.
r("0", "(cap_decider[O, D, P] == min_(S, order_by=(B, R, S))) <= effective(S, P, 'cap', B) & signal(S, O, D, Dir) & precedence(S, R)",
  "the deciding cap on {O} {D} under {P}: the smallest admissible cap, recorded before derived, then the smallest id")
r("0", "(floor_decider[O, D, P] == min_(S, order_by=(-B, R, S))) <= effective(S, P, 'floor', B) & signal(S, O, D, Dir) & precedence(S, R)",
  "the deciding floor on {O} {D} under {P}: the largest admissible floor, recorded before derived, then the smallest id")
# Each aggregate is read into a plain relation once, so later rules join facts.
r("0", "cap_decided(O, D, P, S) <= (cap_decider[O, D, P] == S)", "{S} decides the cap on {O} {D} under {P}")
r("0", "floor_decided(O, D, P, S) <= (floor_decider[O, D, P] == S)", "{S} decides the floor on {O} {D} under {P}")
r("0", "smallest(O, D, P, C) <= cap_decided(O, D, P, S) & effective(S, P, 'cap', C)",
  "the smallest admissible cap on {O} {D} under {P} is {C} ({S})")
r("0", "largest(O, D, P, F) <= floor_decided(O, D, P, S) & effective(S, P, 'floor', F)",
  "the largest admissible floor on {O} {D} under {P} is {F} ({S})")
r("0", "has_cap(O, D, P) <= smallest(O, D, P, C)", "{O} {D} has a cap under {P}")
r("0", "conflict(O, D, P, C, F) <= smallest(O, D, P, C) & largest(O, D, P, F) & (F > C)",
  "conflict on {O} {D} under {P}: floor {F} exceeds cap {C}")
r("0", "resolved(O, D, P, X, Rule) <= conflict(O, D, P, C, F) & resolution(O, D, X, Rule) & (X >= C) & (X <= F)",
  "resolution of {O} {D} by {Rule}: {X} lies between cap {C} and floor {F}")
r("0", "is_resolved(O, D, P) <= resolved(O, D, P, X, Rule)", "{O} {D} is resolved under {P}")
r("0", "value(O, D, P, C, S, Rule) <= smallest(O, D, P, C) & ~is_resolved(O, D, P) & cap_decided(O, D, P, S) & signal_rule(S, Rule)",
  "{O} {D} = {C} under {P}: the smallest admissible cap, {S} ({Rule})")
r("0", "value(O, D, P, X, '', Rule) <= resolved(O, D, P, X, Rule)",
  "{O} {D} = {X} under {P}: the written resolution ({Rule})")
r("0", "value(O, D, P, F, S, Rule) <= largest(O, D, P, F) & ~has_cap(O, D, P) & floor_decided(O, D, P, S) & signal_rule(S, Rule)",
  "{O} {D} = {F} under {P}: no cap, the largest admissible floor, {S} ({Rule})")

# --- Bands (section 0 "Bands"; A and M never band, D-002) ---------------------
r("0", "band_zero(O, P) <= value(O, D, P, 0, S, Rule) & D.in_(('F', 'G', 'P', 'X', 'S', 'R'))",
  "{O} has an evidenced 0 on {D} under {P}: a disqualifying floor")
r("0", "band_one(O, P) <= value(O, D, P, 1, S, Rule) & D.in_(('F', 'G', 'P', 'X', 'S', 'R'))",
  "{O} has an evidenced 1 on {D} under {P}: a conditional floor")
r("0", "band(O, P, 'disqualifying') <= band_zero(O, P)", "{O} is disqualifying under {P}")
r("0", "band(O, P, 'conditional') <= band_one(O, P) & ~band_zero(O, P)", "{O} is conditional under {P}")
r("0", "band(O, P, 'clear') <= org(O, T) & view(P, V) & ~band_zero(O, P) & ~band_one(O, P)",
  "{O} is clear under {P}: no evidenced 0 or 1 on F G P X S R")

# --- Roles (section 10), first match; derived under leads-included -------------
r("10", "role_entrant(O) <= org_status(O, 'entrant')", "{O} is an expected entrant")
r("10", "role_gov(O) <= org(O, 'gov')", "{O} is a public body (type gov)")
r("10", "role_first(O) <= org(O, 'bigtech')", "{O} is type bigtech")
r("10", "role_first(O) <= unit(O, L, F) & org(O, T)", "{O} is a unit of lab {L}")
r("10", "role_bench(O) <= org_output(O, 'leaderboard')", "{O}'s output is a leaderboard")
r("10", "role_bench(O) <= org_output(O, 'standard')", "{O}'s output is a standard")
r("10", "role_vendor(O) <= org(O, 'vc')", "{O} is venture-backed (type vc)")
r("10", "role_vendor(O) <= value(O, 'X', 'leads-included', X, S, Rule) & (X <= 1)",
  "{O} has role incompatibility {X}: it sells to labs")
r("10", "role_vendor(O) <= value(O, 'X', 'leads-included', 2, S, Rule) & org(O, 'private')",
  "{O} is a private company that consults for labs (X 2)")
r("10", "role_referee(O) <= org(O, T) & T.in_(('nonprofit', 'pbc', 'academic'))",
  "{O} is a {T}")
r("10", "role_before_gov(O) <= role_entrant(O)", "")
r("10", "role_before_first(O) <= role_before_gov(O)", "")
r("10", "role_before_first(O) <= role_gov(O)", "")
r("10", "role_before_bench(O) <= role_before_first(O)", "")
r("10", "role_before_bench(O) <= role_first(O)", "")
r("10", "role_before_vendor(O) <= role_before_bench(O)", "")
r("10", "role_before_vendor(O) <= role_bench(O)", "")
r("10", "role_before_referee(O) <= role_before_vendor(O)", "")
r("10", "role_before_referee(O) <= role_vendor(O)", "")
r("10", "role_matched(O) <= role_before_referee(O)", "")
r("10", "role_matched(O) <= role_referee(O)", "")
r("10", "org_role(O, 'entrant') <= role_entrant(O)", "10: {O} is an expected entrant: watchlist only")
r("10", "org_role(O, 'government') <= role_gov(O) & ~role_before_gov(O)", "10: {O} is government")
r("10", "org_role(O, 'first-party') <= role_first(O) & ~role_before_first(O)", "10: {O} is first-party")
r("10", "org_role(O, 'benchmark') <= role_bench(O) & ~role_before_bench(O)", "10: {O} is a benchmark")
r("10", "org_role(O, 'vendor') <= role_vendor(O) & ~role_before_vendor(O)", "10: {O} is a vendor")
r("10", "org_role(O, 'referee') <= role_referee(O) & ~role_before_referee(O)", "10: {O} is an independent referee")
r("10", "org_role(O, 'unclassified') <= org(O, T) & ~role_matched(O)", "10: {O} matches no role")

# --- Section 9 and statutory powers as derived signals (stratum "derive") -------
# derive(Rule, O, D, Dir, K, N, Key): a derived signal; uses(Rule, O, Key, Fact): a fact in its proof.
r("9", "derive('9', O, 'A', 'against', 'cap', 0, O) <= track_record_missing(O)",
  "9: {O} has no published evaluation, so access is capped at 0", "derive")
r("9", "uses('9', O, O, Fs) <= track_record_missing(O) & org_fact(O, F) & (Fs == (F,))", "", "derive")
r("A.2", "derive('A.2', O, 'A', 'for', 'floor', 3, O) <= statutory(O, 'access')",
  "A.2: {O}'s access rests on statute: floor 3", "derive")
r("A.2", "uses('A.2', O, O, Fs) <= statutory(O, 'access') & org_fact(O, F) & (Fs == (F,))", "", "derive")
r("S.4", "derive('S.4', O, 'S', 'for', 'floor', 4, O) <= statutory(O, 'scope')",
  "S.4: {O} has the statutory power to define scope: floor 4", "derive")
r("S.4", "uses('S.4', O, O, Fs) <= statutory(O, 'scope') & org_fact(O, F) & (Fs == (F,))", "", "derive")
