"""A second, independent evaluation of the RULES in ASP (clingo), for cross-checking provlog.

    python -m bench check --orgs 50 [--seed 1]          # generate, evaluate both ways, compare
    python -m bench check --world path/to/world         # any world provlog can load

Written from spec/SEMANTICS.md and seeds/rules.txt, not from provlog's Datalog:
each block of the program below names the SEMANTICS paragraph it reads. The
input is the typed :class:`provlog.facts.FactSet` (only the loader is shared
with provlog); :func:`emit` turns it into ASP facts, :data:`PROGRAM` is the
logic, :func:`evaluate` grounds and solves (the program is stratified, so it has
exactly one answer set) and returns values per (org, dim, policy), bands,
roles and hops; :func:`compare` lists every place where provlog says otherwise.

Exact arithmetic (SEMANTICS "Ownership chains": "50% of 40% meets a 20%
threshold"). clingo integers are 32-bit, so neither floats nor a plain
parts-per-million product will do (two ppm factors already overflow). Every
stake lower bound is written as an integer ``W`` in units of 1/10000 (0.01%;
:func:`emit` refuses a world with a finer percentage, and bench/generate.py only
writes multiples of 0.01%). The product of a chain of ``k <= 6`` links is
then the integer ``W1*...*Wk`` in units of 10^-4k, which the program keeps as
base-10^4 limbs (little-endian, one limb per factor, carries propagated by
integer division; every intermediate is below 10^8) and shifts to the common
unit 10^-24 (limb position ``j + 6 - k``). Chains of one (holder, subject)
pair are added limb by limb with ``#sum`` and the carries normalised, so the
effective stake is an exact integer in units of 10^-24; a threshold
``t/10000`` (5%, 20%, 50%) holds iff the integer part is at least 1 or the
limb at position 5 (weight 10^-4) is at least ``t`` (the threshold's lower
limbs are zero). Nothing is rounded anywhere, so the comparison is exact for
every percentage with at most two decimals, chains of up to 6 links, and up
to about 200,000 chains per pair. Shares (F.2, F.4b, F.5, F.7) and policy
values (F.3) are single links, in the same 1/10000 units.

Readings where SEMANTICS leaves a choice (provlog's choices may differ; the
generator avoids the cases where they would matter, see generate.py):

* a derived signal's identity: F.1/G.6 one per holder (and one per ``unit``
  fact), F.4 and G.3 one per holder, F.5 one per (org, year) and one per lab
  base its org names, P.1/P.2/P.4 one per pair of roles ("the person's two
  roles"), the money rules, X.1-X.5 and X.8 one per money/sells/holding fact, section
  9/A.2/S.4 one per org, G.4 and S.6 one per lab (member, co-author), X.6
  one per vendor;
* the facts a derived signal cites: the facts whose attributes the rule
  tests (stakes of every chain, every fact of every proof that makes the
  holder a lab investor or lab owner, the money/role/sells/policy facts
  and the member/coproduces/coauthors facts (X.6 also every stake of the
  lab's chains to the vendor, or its unit fact), the
  entity statement for F.6, the org statement for 9/A.2/S.4); declarations
  used only as a type (``lab``, ``person``, ``org`` in F.3, an entity as a
  possible lab investor) are not cited;
* "share over 5%/10%" reads the share's lower bound (open if ``>``), the F.3
  "value <= 10%" the policy value's upper bound;
* F.8's ages are counted on a calendar index ``(year * 12 + month - 1) * 32 + day`` (24 months
  are +768; a day past a short month's end sorts before the next month's first): a ``since=``
  or an amendment given to the month or year counts from its last day (its first day too, for
  an amendment), a rule without ``since=`` is young, and ``amended=N`` without dates (N >= 2)
  is amended too often; amendments after the as-of date are not made yet;
* section 9's mis-dimensioned signal: the dimension of the clause it names is the letter of
  the clause id (F.11 also A, "recorded on the access mechanism instead").
"""
from __future__ import annotations

import argparse
import calendar
import re
import sys
import time
from datetime import date
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, Iterable, List, Optional, Tuple

DIMS = "FGPASRMX"
POLICIES = ("leads-included", "standard", "against-interest", "verified-spans", "primary-only")
STRUCTURAL_RULES = ("F.1", "G.6", "F.2", "F.3", "F.4", "F.4b", "F.5", "F.6", "F.7", "F.9", "F.10", "G.3", "G.4",
                    "P.1", "P.2", "P.4", "S.6", "X.1", "X.2", "X.3", "X.4", "X.5", "X.6", "X.8", "9", "A.2",
                    "S.4")
#: statements emitted as ``kw(Id, their positional fields...)``: what an org sells, P.4's lab
#: contractors, F.9's grant pools, G.4's members, X.6's co-produced benchmarks, S.6's co-authors
FIELD_ROWS = {"sells": ("org", "customer", "what"), "contractor": ("contractor", "lab"), "administers": ("org", "pool"),
              "member": ("member", "consortium"), "coproduces": ("org", "vendor"), "coauthors": ("org", "with")}
UNIT = 10000  # percentages in units of 1/10000 of one (0.01%)
MAX_LINKS = 6


class NotExact(ValueError):
    """A percentage finer than 0.01%: the ASP encoding would not be exact."""


def _q(s: Any) -> str:
    """An ASP string constant."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _units(x: Fraction, what: str) -> int:
    v = x * UNIT
    if v.denominator != 1:
        raise NotExact(f"{what}: {float(x) * 100}% is not a multiple of 0.01%")
    return int(v)


# ------------------------------------------------------------------------------------------ facts

def emit(facts) -> Tuple[str, Dict[str, Any]]:
    """ASP facts for a world (and Python-side tables the comparison needs)."""
    out: List[str] = []
    add = out.append
    fid: Dict[int, str] = {}
    counter = [0]

    def fact_id(f) -> str:
        key = id(f)
        if key not in fid:
            counter[0] += 1
            fid[key] = f"f{counter[0]}"
        return fid[key]

    def evidence(f, name: str) -> None:
        for s in f.src:
            add(f"fsrc({name},{_q(s)},{1 if f.span else 0}).")

    def holding(f, name: str) -> None:  # a stake's or invest's flag X.5 reads, and its evidence
        if "diversified" in f.flags:
            add(f"diversified({name}).")
        evidence(f, name)

    for f in facts.of("lab"):
        add(f"lab({_q(f['id'])}).")
    for f in facts.of("person"):
        add(f"person({_q(f['id'])}).")
    for f in facts.of("org"):
        o = _q(f["id"])
        add(f"org({o},{_q(f['type'])}).")
        if f["status"]:
            add(f"org_status({o},{_q(f['status'])}).")
        if f["output"]:
            add(f"org_output({o},{_q(f['output'])}).")
        if f["evaluated"] == "no":
            add(f"not_evaluated({o}).")
        for w in f["statutory"] or ():
            add(f"statutory({o},{_q(w)}).")
        for what in ("capital", "clients"):
            if f[what] == "undisclosed":
                add(f"undisclosed({o},{_q(what)}).")
        if f["revenue"] == "labs-only":
            add(f'labbase({o},"labs-only").')
        if f["clients"] == "every-major-lab":
            add(f'labbase({o},"every-major-lab").')
        evidence(f, f"org({o})")
    for f in facts.of("entity"):
        e = _q(f["id"])
        add(f"entity({e},{_q(f['kind'] or 'other')}).")
        if f["principal"]:
            add(f"principal({e},{_q(f['principal'])}).")
        if f["donors"]:
            add(f"donors({e},{_q(f['donors'])}).")
        evidence(f, f"ent({e})")
    for f in facts.of("source"):
        s = _q(f["id"])
        add(f"source({s},{_q(f['publisher'])},{_q(f['status'])},{int(f['tier'] or 0)}).")
        if "quarantined" in f.flags or f["lane"] in ("rejected", "pending"):
            add(f"unusable({s}).")
    recorded = sorted(f["id"] for f in facts.of("signal"))
    for rank, sid in enumerate(recorded):
        add(f"rank({_q(sid)},{rank}).")
    base = len(recorded)
    for i, rule in enumerate(sorted(STRUCTURAL_RULES, key=lambda r: r + "/")):
        add(f"rule_rank({_q(rule)},{base + i}).")  # derived ids are "<rule>/<org>/<n>"
    for f in facts.of("signal"):
        s = _q(f["id"])
        add(f"sig({s},{_q(f['org'])},{_q(f['dim'])},{_q(f['direction'])}).")
        add(f"rule_of({s},{_q(f['rule'])}).")
        if re.match(r"[FGPASRMX]\.", f["rule"]):  # the dimension its clause belongs on (section 9)
            add(f"home({s},{_q(f['rule'][0])}).")
            if f["rule"] == "F.11":
                add(f'home({s},"A").')
        add(f"status({s},{_q(f['status'] or 'active')}).")
        if f["kind"] != "info":
            add(f"bound({s},{f['kind']},{f['bound']}).")
        if "negative" in f.flags:
            add(f"negative({s}).")
        for src in f.src:
            add(f"cite({s},{_q(src)},0).")
    for f in facts.of("cite"):
        add(f"cite({_q(f['signal'])},{_q(f['source'])},{1 if f['span'] else 0}).")
    for f in facts.of("stake"):
        if f["until"]:
            raise NotExact(f"{f.loc}: stake with until= (SEMANTICS is silent on ended stakes)")
        i = fact_id(f)
        add(f"stake({i},{_q(f['holder'])},{_q(f['subject'])},{_units(f['pct'].lo, str(f.loc))}).")
        holding(f, i)
    for f in facts.of("unit"):
        i = fact_id(f)
        add(f"unit({i},{_q(f['org'])},{_q(f['lab'])}).")
        evidence(f, i)
    for f in facts.of("invest"):
        i = fact_id(f)
        lead = "led" if "led" in f.flags else ("coled" if "co-led" in f.flags else "none")
        add(f"invest({i},{_q(f['investor'])},{_q(f['target'])},{lead},{1 if 'priced' in f.flags else 0}).")
        holding(f, i)
    for f in facts.of("money"):
        i = fact_id(f)
        add(f"money({i},{_q(f['payer'])},{_q(f['recipient'])},{_q(f['kind'])}).")
        for flag in f.flags:
            add(f"mflag({i},{_q(flag)}).")
        if f["share"] is not None:
            sh = f["share"]
            add(f"mshare({i},{_units(sh.lo, str(f.loc))},{1 if sh.lo_open else 0}).")
        add(f"myear({i},{f['year'] or 0}).")
        evidence(f, i)
    for f in facts.of("role"):
        if f["until"]:
            raise NotExact(f"{f.loc}: role with until= (SEMANTICS is silent on ended roles)")
        i = fact_id(f)
        add(f"role({i},{_q(f['person'])},{_q(f['role'])},{_q(f['at'])},{_q(f['recusal'] or '')}).")
        evidence(f, i)
    stated = facts.of("as-of")
    add(f"asof({_day(stated[0]['date'] if stated else date.today().isoformat(), first=True)}).")
    for f in facts.of("policy"):
        i = fact_id(f)
        add(f"policy({i},{_q(f['org'])},{_q(f['policy'])}).")
        if f["value"] is not None:
            add(f"policy_value({i},{_units(f['value'].hi, str(f.loc))}).")
        if f["since"]:
            add(f"pol_since({i},{_day(f['since'], first=False)}).")
        for n, a in enumerate(f["amended"] or (), 1):
            if isinstance(a, int):
                add(f"pol_count({i},{a}).")
            else:
                add(f"pol_amend({i},{n},{_day(a, first=True)},{_day(a, first=False)}).")
        evidence(f, i)
    for kw, cols in FIELD_ROWS.items():
        for f in facts.of(kw):
            if f["until"]:
                raise NotExact(f"{f.loc}: {kw} with until= (SEMANTICS is silent on ended ties)")
            i = fact_id(f)
            add(f"{kw}({i},{','.join(_q(f[c]) for c in cols)}).")
            evidence(f, i)
    for f in facts.of("resolution"):
        add(f"resolution({_q(f['org'])},{_q(f['dim'])},{f['value']},{_q(f['rule'])}).")
    return "\n".join(out) + "\n", {"recorded": recorded}


def _day(text: str, first: bool) -> int:
    """A (possibly partial) date's first or last day on the calendar index ``(y*12 + m-1)*32 + d``."""
    parts = [int(p) for p in text.split("-")]
    y = parts[0]
    m = parts[1] if len(parts) > 1 else (1 if first else 12)
    d = parts[2] if len(parts) > 2 else (1 if first else calendar.monthrange(y, m)[1])
    return (y * 12 + m - 1) * 32 + d


# ------------------------------------------------------------------------------------------ logic

def _chain_rules() -> str:
    """Simple chains of 1..6 stake links with exact products (see the module docstring)."""
    B = 10000
    lines = ["% -- Ownership chains (F.1, G.6): simple chains of at most 6 links, exact products --",
             "edge(A,T,F,W) :- stake(F,A,T,W), A != T."]
    for k in range(1, MAX_LINKS + 1):
        xs = [f"X{i}" for i in range(k + 1)]
        ls = [f"L{i}" for i in range(k + 1)]
        if k == 1:
            lines.append(f"c1(X0,X1,W,0) :- edge(X0,X1,_,W), W < {B}.")
            lines.append(f"c1(X0,X1,0,1) :- edge(X0,X1,_,{B}).")
        else:
            prev = xs[:-1]
            pl = ls[:-1]
            distinct = ", ".join(f"X{k} != {x}" for x in prev)
            body = [f"c{k - 1}({','.join(prev + pl)})", f"edge(X{k - 1},X{k},_,W)", distinct]
            # multiply the k limbs L0..L(k-1) by W, carrying in base 10^4
            carry = "0"
            out_l = []
            for j in range(k):
                body.append(f"M{j} = L{j}*W + {carry}")
                body.append(f"N{j} = M{j} \\ {B}")
                body.append(f"C{j} = M{j} / {B}")
                carry = f"C{j}"
                out_l.append(f"N{j}")
            out_l.append(f"C{k - 1}")
            lines.append(f"c{k}({','.join(xs + out_l)}) :- {', '.join(body)}.")
        # contributions at limb position j + 6 - k, and the stake facts of the chain
        for j in range(k + 1):
            lines.append(f"contrib(X0,X{k},c{k}({','.join(xs)}),{j + MAX_LINKS - k},L{j}) :- "
                         f"c{k}({','.join(xs + ls)}), L{j} > 0.")
        for j in range(1, k + 1):
            lines.append(f"chainfact(X0,X{k},F) :- c{k}({','.join(xs + ['_'] * (k + 1))}), edge(X{j - 1},X{j},F,_).")
        lines.append(f"haschain(X0,X{k}) :- c{k}({','.join(xs + ['_'] * (k + 1))}).")
    lines += [
        "pos(0..6).",
        f"limbsum(A,T,P,S) :- haschain(A,T), pos(P), S = #sum{{ V,C : contrib(A,T,C,P,V) }}.",
        f"norm(A,T,0,S \\ {B},S / {B}) :- limbsum(A,T,0,S).",
        f"norm(A,T,P,(S+C) \\ {B},(S+C) / {B}) :- limbsum(A,T,P,S), norm(A,T,P-1,_,C), P > 0, P < 6.",
        "intpart(A,T,S+C) :- limbsum(A,T,6,S), norm(A,T,5,_,C).",
        "% ge(A,T,Th): effective stake of A in T is at least Th/10000",
        "threshold(500;2000;5000).",
        "ge(A,T,Th) :- intpart(A,T,I), I >= 1, threshold(Th).",
        "ge(A,T,Th) :- intpart(A,T,0), norm(A,T,5,D,_), threshold(Th), D >= Th.",
    ]
    return "\n".join(lines) + "\n"


PROGRAM = r"""
dim("F";"G";"P";"A";"S";"R";"M";"X").
policy("leads-included";"standard";"against-interest";"verified-spans";"primary-only").
view(P,"all") :- policy(P), P != "against-interest".
view("against-interest","ai").
v("all";"ai").
node(X) :- lab(X).  node(X) :- org(X,_).  node(X) :- entity(X,_).  node(X) :- person(X).

% -- Lab investors and lab owners (SEMANTICS "Ownership chains") --------------------------
% An entity or person with a stake of any size in, or an invest into, a lab, or with
% an effective stake of 50% or more in a lab investor (least fixed point: a circle of
% holdings with no lab in it makes nobody a lab investor).
investor_node(X) :- entity(X,_).
investor_node(X) :- person(X).
li(X) :- investor_node(X), stake(_,X,L,_), lab(L).
li(X) :- investor_node(X), invest(_,X,L,_,_), lab(L).
li(X) :- investor_node(X), li(Y), ge(X,Y,5000).
% the facts of every proof (Fine print: "cites the facts of all of them")
liuse(X,F) :- investor_node(X), stake(F,X,L,_), lab(L).
liuse(X,F) :- investor_node(X), invest(F,X,L,_,_), lab(L).
liuse(X,F) :- investor_node(X), li(Y), ge(X,Y,5000), chainfact(X,Y,F).
liuse(X,F) :- investor_node(X), li(Y), ge(X,Y,5000), liuse(Y,F).
% Lab owner: effective stake of 20% or more in a lab; any node.
owner(X,L) :- lab(L), ge(X,L,2000).
linked(X) :- lab(X).
linked(X) :- li(X).

% -- Derived signals: ds(Sig, Org, Dim, Dir, Kind, Bound), duse(Sig, Fact) ------------------
% Sig = d(Rule, Org, Key). Every derived signal is active; it cites the src= of every
% fact in use(), each with that fact's span (if any).
% F.1 / G.6: a lab or lab investor with an effective stake of 20% or more in the org.
own20(O,X) :- org(O,_), linked(X), ge(X,O,2000).
ds(d("F.1",O,k(X)),O,"F","against",cap,0) :- own20(O,X).
ds(d("G.6",O,k(X)),O,"G","against",cap,0) :- own20(O,X).
duse(d(R,O,k(X)),F) :- own20(O,X), R = ("F.1";"G.6"), chainfact(X,O,F).
duse(d(R,O,k(X)),F) :- own20(O,X), R = ("F.1";"G.6"), liuse(X,F).
% unit <org> <lab>: cap 0 on F and G.
ds(d("F.1",O,u(F)),O,"F","against",cap,0) :- unit(F,O,L), org(O,_).
ds(d("G.6",O,u(F)),O,"G","against",cap,0) :- unit(F,O,L), org(O,_).
duse(d(R,O,u(F)),F) :- unit(F,O,L), org(O,_), R = ("F.1";"G.6").

% Money that counts (F.2, F.11): in-kind, credits, compute only when operating.
inkind("in-kind";"credits";"compute").
counts(F) :- money(F,_,_,K), K = ("grant";"investment";"revenue";"fee";"donation").
counts(F) :- money(F,_,_,K), inkind(K), mflag(F,"operating").
has_share(F) :- mshare(F,_,_).
over(F,T) :- mshare(F,Lo,_), Lo > T, T = (500;1000).
over(F,T) :- mshare(F,T,1), T = (500;1000).

% F.2: operating in-kind from a lab over 5% of operating cost: cap 2; no share, depends: cap 3.
ds(d("F.2",O,m(F)),O,"F","against",cap,2) :- money(F,L,O,K), lab(L), org(O,_), inkind(K), mflag(F,"operating"), over(F,500).
ds(d("F.2",O,m(F)),O,"F","against",cap,3) :- money(F,L,O,K), lab(L), org(O,_), inkind(K), mflag(F,"operating"),
                                          not has_share(F), mflag(F,"depends").
duse(d("F.2",O,m(F)),F) :- ds(d("F.2",O,m(F)),_,_,_,_,_).

% F.3: a fee from a lab: cap 2; cap 3 if the org has lab-revenue-cap (<= 10%), market-rates
% and publication-rights (the signal then cites the policies too).
capq(G,O) :- policy(G,O,"lab-revenue-cap"), policy_value(G,V), V <= 1000.
feepol(O) :- capq(_,O), policy(_,O,"market-rates"), policy(_,O,"publication-rights").
ds(d("F.3",O,m(F)),O,"F","against",cap,2) :- money(F,L,O,"fee"), lab(L), org(O,_), not feepol(O).
ds(d("F.3",O,m(F)),O,"F","against",cap,3) :- money(F,L,O,"fee"), lab(L), org(O,_), feepol(O).
duse(d("F.3",O,m(F)),F) :- money(F,L,O,"fee"), lab(L), org(O,_).
duse(d("F.3",O,m(F)),G) :- money(F,L,O,"fee"), lab(L), org(O,_), feepol(O), capq(G,O).
duse(d("F.3",O,m(F)),G) :- money(F,L,O,"fee"), lab(L), org(O,_), feepol(O), policy(G,O,("market-rates";"publication-rights")).

% F.4: a lab or lab investor that led or co-led a priced round, or holds 5% or more
% (effective): cap 1, one signal per holder.
f4inv(O,X,F) :- invest(F,X,O,Lead,1), org(O,_), Lead != none, linked(X).
f4st(O,X) :- org(O,_), linked(X), ge(X,O,500).
f4(O,X) :- f4inv(O,X,_).
f4(O,X) :- f4st(O,X).
ds(d("F.4",O,k(X)),O,"F","against",cap,1) :- f4(O,X).
duse(d("F.4",O,k(X)),F) :- f4inv(O,X,F).
duse(d("F.4",O,k(X)),F) :- f4st(O,X), chainfact(X,O,F).
duse(d("F.4",O,k(X)),F) :- f4(O,X), liuse(X,F).

% F.4b: a grant or investment from a lab owner, share >= 5%: cap 1.
f4b(O,F,X) :- money(F,X,O,K), K = ("grant";"investment"), org(O,_), owner(X,_), mshare(F,Lo,_), Lo >= 500.
ds(d("F.4b",O,m(F)),O,"F","against",cap,1) :- f4b(O,F,X).
duse(d("F.4b",O,m(F)),F) :- f4b(O,F,X).
duse(d("F.4b",O,m(F)),G) :- f4b(O,F,X), owner(X,L), chainfact(X,L,G).

% F.5: lab revenue/fee shares summed per year (no year: one group) >= 50%: cap 1.
labrev(O,Y,F,Lo) :- money(F,L,O,K), lab(L), org(O,_), K = ("revenue";"fee"), mshare(F,Lo,_), myear(F,Y).
revsum(O,Y,S) :- labrev(O,Y,_,_), S = #sum{ Lo,F : labrev(O,Y,F,Lo) }.
ds(d("F.5",O,y(Y)),O,"F","against",cap,1) :- revsum(O,Y,S), S >= 5000.
duse(d("F.5",O,y(Y)),F) :- revsum(O,Y,S), S >= 5000, labrev(O,Y,F,_).
% ... or labs named as the only base (revenue=labs-only, clients=every-major-lab) and no other base
% disclosed (revenue of any kind from a payer that is not a lab, a paid sale to a customer that is
% not a lab): cap 1, citing the org statement.
otherbase(O) :- money(_,X,O,K), K = ("grant";"revenue";"fee";"donation"), not lab(X).
otherbase(O) :- sells(_,O,C,W), W != "free-tool", not lab(C).
ds(d("F.5",O,b(W)),O,"F","against",cap,1) :- labbase(O,W), org(O,_), not otherbase(O).
duse(d("F.5",O,b(W)),org(O)) :- ds(d("F.5",O,b(W)),_,_,_,_,_).

% F.6: money from a pooled fund or daf with undisclosed donors, or from an entity whose
% principal is a lab investor: cap 3 (cites the money and the entity statement).
f6(O,F,E) :- money(F,E,O,_), counts(F), org(O,_), entity(E,EK), EK = ("pooled-fund";"daf"), donors(E,"undisclosed").
f6(O,F,E) :- money(F,E,O,_), counts(F), org(O,_), entity(E,_), principal(E,X), li(X).
ds(d("F.6",O,m(F)),O,"F","against",cap,3) :- f6(O,F,E).
duse(d("F.6",O,m(F)),F) :- f6(O,F,E).
duse(d("F.6",O,m(F)),ent(E)) :- f6(O,F,E).
duse(d("F.6",O,m(F)),G) :- f6(O,F,E), principal(E,X), li(X), liuse(X,G).

% F.7: a donation from a lab employee: share <= 10%: cap 3; > 10%: cap 2; undisclosed: none.
labemp(P,G) :- role(G,P,"employee",L,_), lab(L).
f7(O,F,P) :- money(F,P,O,"donation"), org(O,_), labemp(P,_), has_share(F).
ds(d("F.7",O,m(F)),O,"F","against",cap,3) :- f7(O,F,P), not over(F,1000).
ds(d("F.7",O,m(F)),O,"F","against",cap,2) :- f7(O,F,P), over(F,1000).
duse(d("F.7",O,m(F)),F) :- f7(O,F,P).
duse(d("F.7",O,m(F)),G) :- f7(O,F,P), labemp(P,G).
% ... and a published policy that permits them: cap 3, citing the policy.
ds(d("F.7",O,p(I)),O,"F","against",cap,3) :- policy(I,O,"permits-lab-employee-donations").
duse(d("F.7",O,p(I)),I) :- policy(I,O,"permits-lab-employee-donations").

% G.3: an invest by a lab investor (not a lab) in the org: cap 2.
g3(O,X) :- invest(_,X,O,_,_), org(O,_), li(X).
ds(d("G.3",O,k(X)),O,"G","against",cap,2) :- g3(O,X).
duse(d("G.3",O,k(X)),F) :- g3(O,X), invest(F,X,O,_,_).
duse(d("G.3",O,k(X)),F) :- g3(O,X), liuse(X,F).

% P.1: founder/executive/director of the org with a board or committee seat at a lab:
% cap 1 with recusal=personal on either role, else cap 0.
p1(O,F1,F2) :- role(F1,P,R1,O,_), org(O,_), R1 = ("founder";"executive";"director"),
               role(F2,P,R2,L,_), lab(L), R2 = ("board";"committee").
recused(F1,F2) :- p1(_,F1,F2), role(F1,_,_,_,"personal").
recused(F1,F2) :- p1(_,F1,F2), role(F2,_,_,_,"personal").
ds(d("P.1",O,r(F1,F2)),O,"P","against",cap,1) :- p1(O,F1,F2), recused(F1,F2).
ds(d("P.1",O,r(F1,F2)),O,"P","against",cap,0) :- p1(O,F1,F2), not recused(F1,F2).
duse(d("P.1",O,r(F1,F2)),(F1;F2)) :- p1(O,F1,F2).
% P.2: executive or director of the org advising a lab: cap 1.
p2(O,F1,F2) :- role(F1,P,R1,O,_), org(O,_), R1 = ("executive";"director"), role(F2,P,"advisor",L,_), lab(L).
ds(d("P.2",O,r(F1,F2)),O,"P","against",cap,1) :- p2(O,F1,F2).
duse(d("P.2",O,r(F1,F2)),(F1;F2)) :- p2(O,F1,F2).
% P.4: board or advisor of the org who is a partner at a lab investor or an employee of a lab: cap 2.
p4(O,F1,F2,X) :- role(F1,P,R1,O,_), org(O,_), R1 = ("board";"advisor"), role(F2,P,"partner",X,_), li(X).
p4(O,F1,F2,L) :- role(F1,P,R1,O,_), org(O,_), R1 = ("board";"advisor"), role(F2,P,"employee",L,_), lab(L).
ds(d("P.4",O,r(F1,F2)),O,"P","against",cap,2) :- p4(O,F1,F2,_).
duse(d("P.4",O,r(F1,F2)),(F1;F2)) :- p4(O,F1,F2,_).
duse(d("P.4",O,r(F1,F2)),G) :- p4(O,F1,F2,X), li(X), liuse(X,G).
% ... or a founder of a lab contractor (cites the contractor statement too).
p4c(O,F1,F2,F3) :- role(F1,P,R1,O,_), org(O,_), R1 = ("board";"advisor"), role(F2,P,"founder",X,_), contractor(F3,X,_).
ds(d("P.4",O,r(F1,F2)),O,"P","against",cap,2) :- p4c(O,F1,F2,_).
duse(d("P.4",O,r(F1,F2)),(F1;F2;F3)) :- p4c(O,F1,F2,F3).

% F.9: a public body (gov) funded by a public body (entity kind public, or gov org): floor 3, citing
% the money; administering a pool that a lab pays into: cap 3, citing the administers and the money.
pubpayer(X) :- entity(X,"public").
pubpayer(X) :- org(X,"gov").
f9pub(O,F) :- org(O,"gov"), money(F,X,O,_), counts(F), pubpayer(X).
ds(d("F.9",O,pub),O,"F","for",floor,3) :- f9pub(O,_).
duse(d("F.9",O,pub),F) :- f9pub(O,F).
f9pool(O,E,A,F) :- administers(A,O,E), money(F,L,E,_), lab(L), counts(F).
ds(d("F.9",O,k(E)),O,"F","against",cap,3) :- f9pool(O,E,_,_).
duse(d("F.9",O,k(E)),(A;F)) :- f9pool(O,E,A,F).

% F.10: a private company with undisclosed capital structure: cap 3; and client base: cap 2.
ds(d("F.10",O,o),O,"F","against",cap,3) :- org(O,"private"), undisclosed(O,"capital"), not undisclosed(O,"clients").
ds(d("F.10",O,o),O,"F","against",cap,2) :- org(O,"private"), undisclosed(O,"capital"), undisclosed(O,"clients").

% G.4: a lab member of a type consortium org: G cap 2, one per lab, citing the member statement.
g4(O,L,F) :- member(F,L,O), org(O,"consortium"), lab(L).
ds(d("G.4",O,k(L)),O,"G","against",cap,2) :- g4(O,L,_).
duse(d("G.4",O,k(L)),F) :- g4(O,L,F).
% X.6: co-producing with a vendor a lab holds 20% or more of (effective), or a lab's unit: X cap 3,
% one per vendor, citing the coproduces statement and the stakes (or the unit) it rests on.
x6own(V) :- lab(L), ge(L,V,2000).
x6own(V) :- unit(_,V,L), lab(L).
ds(d("X.6",O,k(V)),O,"X","against",cap,3) :- coproduces(_,O,V), x6own(V).
duse(d("X.6",O,k(V)),F) :- coproduces(F,O,V), x6own(V).
duse(d("X.6",O,k(V)),F) :- coproduces(_,O,V), lab(L), ge(L,V,2000), chainfact(L,V,F).
duse(d("X.6",O,k(V)),F) :- coproduces(_,O,V), unit(F,V,_).
% S.6: co-authoring research with a lab: S cap 3, one per lab, citing the coauthors statement.
ds(d("S.6",O,k(L)),O,"S","against",cap,3) :- coauthors(_,O,L), org(O,_), lab(L).
duse(d("S.6",O,k(L)),F) :- coauthors(F,O,L), org(O,_), lab(L).

% X.1 X.2 X.3: selling to a lab.
xcap("defense",0,"X.1"). xcap("monitoring",0,"X.1"). xcap("guardrails",0,"X.1").
xcap("data",1,"X.2"). xcap("tooling",1,"X.2"). xcap("license",1,"X.2"). xcap("deployment",1,"X.2").
xcap("consulting",2,"X.3").
ds(d(R,O,m(F)),O,"X","against",cap,N) :- sells(F,O,L,W), lab(L), xcap(W,N,R).
duse(d(R,O,m(F)),F) :- sells(F,O,L,W), lab(L), xcap(W,N,R).
% X.1: a fix product sold to a customer that is not a lab, none of it to a lab: cap 2.
x1lab(O,W) :- sells(_,O,L,W), lab(L).
ds(d("X.1",O,m(F)),O,"X","against",cap,2) :- sells(F,O,C,W), xcap(W,0,"X.1"), not lab(C), not x1lab(O,W).
duse(d("X.1",O,m(F)),F) :- ds(d("X.1",O,m(F)),_,"X","against",cap,2).
% X.4: a free tool used by a lab: floor 3, citing the sale.
ds(d("X.4",O,m(F)),O,"X","for",floor,3) :- sells(F,O,L,"free-tool"), lab(L).
duse(d("X.4",O,m(F)),F) :- sells(F,O,L,"free-tool"), lab(L).
% X.5: the org's own stake in, or invest into, a lab: cap 2; the holding flagged diversified: cap 3.
x5(O,F) :- stake(F,O,L,_), org(O,_), lab(L).
x5(O,F) :- invest(F,O,L,_,_), org(O,_), lab(L).
ds(d("X.5",O,m(F)),O,"X","against",cap,2) :- x5(O,F), not diversified(F).
ds(d("X.5",O,m(F)),O,"X","against",cap,3) :- x5(O,F), diversified(F).
duse(d("X.5",O,m(F)),F) :- x5(O,F).
% X.8: clients=undisclosed, revenue or a fee from a payer that is not a lab stated with a src=, and no
% paid sale to a lab (a named lab client): cap 3 per row, citing the row and the org statement.
labclient(O) :- sells(_,O,L,W), lab(L), W != "free-tool".
x8(O,F) :- undisclosed(O,"clients"), money(F,X,O,K), K = ("revenue";"fee"), not lab(X), fsrc(F,_,_), not labclient(O).
ds(d("X.8",O,m(F)),O,"X","against",cap,3) :- x8(O,F).
duse(d("X.8",O,m(F)),(F;org(O))) :- x8(O,F).

% Section 9: no published evaluation (and not a gov org with statutory=): A cap 0.
% statutory=access: A floor 3 (A.2); statutory=scope: S floor 4 (S.4). They cite the org statement.
statutory_gov(O) :- org(O,"gov"), statutory(O,_).
no_track(O) :- not_evaluated(O), not statutory_gov(O).
ds(d("9",O,o),O,"A","against",cap,0) :- no_track(O).
ds(d("A.2",O,o),O,"A","for",floor,3) :- statutory(O,"access").
ds(d("S.4",O,o),O,"S","for",floor,4) :- statutory(O,"scope").
duse(d(R,O,o),org(O)) :- ds(d(R,O,o),_,_,_,_,_).

% Derived signals join the recorded ones.
sig(S,O,D,Dir) :- ds(S,O,D,Dir,_,_).
bound(S,K,N) :- ds(S,_,_,_,K,N).
status(S,"active") :- ds(S,_,_,_,_,_).
rule_of(d(R,O,K),R) :- ds(d(R,O,K),_,_,_,_,_).
rank(d(R,O,K),N) :- ds(d(R,O,K),_,_,_,_,_), rule_rank(R,N).
cite(S,Src,H) :- duse(S,F), fsrc(F,Src,H).

% -- Signals, usable citations, views (SEMANTICS "Signals", "Policies") --------------------
active(S) :- status(S,"active").
usable(Src) :- source(Src,_,_,_), not unusable(Src).
vcite(S,"all",Src,H) :- cite(S,Src,H), usable(Src), sig(S,_,_,_).
vcite(S,"ai",Src,H) :- cite(S,Src,H), usable(Src), sig(S,_,_,"against").
vcite(S,"ai",Src,H) :- cite(S,Src,H), usable(Src), sig(S,O,_,"for"), source(Src,Pub,_,_), Pub != O.
% C17: a source published by the org, cited against it, counts as confirmed for every purpose.
conf(S,V,Src) :- vcite(S,V,Src,_), source(Src,_,"confirmed",_).
conf(S,V,Src) :- vcite(S,V,Src,_), sig(S,O,_,"against"), source(Src,O,_,_).
est(S,V,Src,"confirmed") :- conf(S,V,Src).
est(S,V,Src,St) :- vcite(S,V,Src,_), not conf(S,V,Src), source(Src,_,St,_).

% -- Evidence class (C14) --------------------------------------------------------------------
has_usable(S,V) :- vcite(S,V,_,_).
has_conf(S,V) :- conf(S,V,_).
has_unaud(S,V) :- est(S,V,_,"unaudited").
has_other(S,V) :- est(S,V,_,St), St != "confirmed".
class(S,V,confirmed) :- has_conf(S,V), not has_other(S,V).
class(S,V,partial) :- has_conf(S,V), has_other(S,V).
class(S,V,partial) :- has_unaud(S,V), not has_conf(S,V).
class(S,V,weak) :- has_usable(S,V), not has_conf(S,V), not has_unaud(S,V).

% Informational signals (bound null): a clause of another dimension (section 9), F.11, an A.3 cap.
info(S) :- bound(S,_,_), active(S), sig(S,_,D,_), home(S,_), not home(S,D).
info(S) :- bound(S,_,_), rule_of(S,"F.11").
info(S) :- bound(S,cap,_), rule_of(S,"A.3").
% P.3: a cooling-off policy (or a public body's statutory post-employment rule) lifts a P.3 cap.
p3lift(O) :- policy(_,O,"cooling-off").
p3lift(O) :- policy(_,O,"post-employment"), org(O,"gov").
info(S) :- bound(S,cap,_), active(S), rule_of(S,"P.3"), sig(S,O,"P",_), p3lift(O).
% R.6: after a disclosure policy is published (since= at its last day; undated: published), cap 3.
r6pub(O) :- policy(I,O,"disclosure-policy"), pol_since(I,L), asof(T), L <= T.
r6pub(O) :- policy(I,O,"disclosure-policy"), not dated(I).
raised(S) :- bound(S,cap,N), N < 3, active(S), rule_of(S,"R.6"), sig(S,O,"R",_), r6pub(O), not info(S).
b0(S,K,N) :- bound(S,K,N), active(S), not info(S), not raised(S).
b0(S,cap,3) :- raised(S).
b1(S,V,K,N) :- b0(S,K,N), class(S,V,confirmed).
b1(S,V,cap,N) :- b0(S,cap,N), class(S,V,partial), N >= 1.
b1(S,V,cap,1) :- b0(S,cap,N), class(S,V,partial), N < 1.
b1(S,V,floor,N) :- b0(S,floor,N), class(S,V,partial), N <= 3.
b1(S,V,floor,3) :- b0(S,floor,N), class(S,V,partial), N > 3.
b1(S,V,cap,N) :- b0(S,cap,N), class(S,V,weak), N >= 2.
b1(S,V,cap,2) :- b0(S,cap,N), class(S,V,weak), N < 2.
b1(S,V,floor,N) :- b0(S,floor,N), class(S,V,weak), N <= 2.
b1(S,V,floor,2) :- b0(S,floor,N), class(S,V,weak), N > 2.

% -- Extremes (C15, C16, F.12, X.7) -----------------------------------------------------------
span_conf(S,V) :- vcite(S,V,Src,1), conf(S,V,Src).
has_span(S,V) :- vcite(S,V,_,1).
tier12(S,V) :- vcite(S,V,Src,_), source(Src,_,_,T), T >= 1, T <= 2.
% Counts, not pairs of citations: grounding stays linear in a signal's citations.
vpub(S,V,P) :- vcite(S,V,Src,_), source(Src,P,_,_).
two_pub(S,V) :- vpub(S,V,_), #count{ P : vpub(S,V,P) } >= 2.
c16(S,V) :- has_span(S,V), tier12(S,V).
c16(S,V) :- has_span(S,V), two_pub(S,V).
% F.12: a publisher other than the tier-1 source's exists iff a tier-1 source and two publishers are cited.
f12(S,V) :- negative(S), vcite(S,V,A,_), source(A,_,_,1), two_pub(S,V).
x7(S,V) :- negative(S), has_span(S,V), #count{ A : vcite(S,V,A,_) } >= 2.
fail4(S,V) :- b1(S,V,floor,4), not c16(S,V).
fail4(S,V) :- b1(S,V,floor,4), sig(S,_,"F",_), not f12(S,V).
fail4(S,V) :- b1(S,V,floor,4), sig(S,_,"X",_), not x7(S,V).
% G.7, P.8: tier-1 evidence, a span from a confirmed tier-1 source.
t1span(S,V) :- vcite(S,V,Src,1), conf(S,V,Src), source(Src,_,_,1).
fail4(S,V) :- b1(S,V,floor,4), sig(S,_,("G";"P"),_), not t1span(S,V).
% F.8: a no-lab-money rule younger than 24 months at the as-of date, or amended twice within 24 months.
nlm(I,O) :- policy(I,O,"no-lab-money").
dated(I) :- pol_since(I,_).
unsettled(O) :- nlm(I,O), pol_since(I,L), asof(T), T < L + 768.
unsettled(O) :- nlm(I,O), not dated(I).
made(I,N,F,L) :- pol_amend(I,N,F,L), asof(T), F <= T.
unsettled(O) :- nlm(I,O), made(I,A,FA,LA), made(I,B,FB,LB), A < B, FB < LA + 768, FA < LB + 768.
unsettled(O) :- nlm(I,O), pol_count(I,N), N >= 2.
fail4(S,V) :- b1(S,V,floor,4), sig(S,O,"F",_), unsettled(O).
% F.9: an F.9 floor 4 with material lab in-kind (an F.2 cap with a usable citation) on the org.
inkind(O) :- sig(S,O,"F","against"), rule_of(S,"F.2"), b0(S,cap,_), has_usable(S,"all").
fail4(S,V) :- b1(S,V,floor,4), rule_of(S,"F.9"), sig(S,O,"F",_), inkind(O).
b2(S,V,cap,N) :- b1(S,V,cap,N), N > 0.
b2(S,V,cap,0) :- b1(S,V,cap,0), span_conf(S,V).
b2(S,V,cap,1) :- b1(S,V,cap,0), not span_conf(S,V).
b2(S,V,floor,N) :- b1(S,V,floor,N), N < 4.
b2(S,V,floor,4) :- b1(S,V,floor,4), not fail4(S,V).
b2(S,V,floor,3) :- fail4(S,V).

% -- Section 9: floors above 2 on S, R, M of an org without a track record become 2 ---------
held9(S,V) :- b2(S,V,floor,N), N > 2, sig(S,O,D,_), no_track(O), D = ("S";"R";"M").
b3(S,V,K,N) :- b2(S,V,K,N), not held9(S,V).
b3(S,V,floor,2) :- held9(S,V).

% -- Policies (admissibility) -----------------------------------------------------------------
adm(S,"leads-included") :- active(S), has_usable(S,"all").
adm(S,"standard") :- active(S), has_conf(S,"all").
adm(S,"against-interest") :- active(S), has_conf(S,"ai").
adm(S,"verified-spans") :- active(S), span_conf(S,"all").
adm(S,"primary-only") :- active(S), vcite(S,"all",Src,1), conf(S,"all",Src), source(Src,_,_,T), T >= 1, T <= 2.
eff(S,P,K,N) :- adm(S,P), view(P,V), b3(S,V,K,N).

% -- Value, conflict, resolution ---------------------------------------------------------------
bnd(O,D,P,K,N,S) :- eff(S,P,K,N), sig(S,O,D,_).
mincap(O,D,P,M) :- bnd(O,D,P,cap,_,_), M = #min{ N : bnd(O,D,P,cap,N,_) }.
maxfloor(O,D,P,M) :- bnd(O,D,P,floor,_,_), M = #max{ N : bnd(O,D,P,floor,N,_) }.
capdec(O,D,P,R) :- mincap(O,D,P,C), M = #min{ N2 : bnd(O,D,P,cap,C,S2), rank(S2,N2) }, bnd(O,D,P,cap,C,S), rank(S,M), rule_of(S,R).
floordec(O,D,P,R) :- maxfloor(O,D,P,F), M = #min{ N2 : bnd(O,D,P,floor,F,S2), rank(S2,N2) }, bnd(O,D,P,floor,F,S), rank(S,M), rule_of(S,R).
conflict(O,D,P,C,F) :- mincap(O,D,P,C), maxfloor(O,D,P,F), F > C.
resolved(O,D,P,X,R) :- conflict(O,D,P,C,F), resolution(O,D,X,R), X >= C, X <= F.
value(O,D,P,X,R) :- resolved(O,D,P,X,R).
value(O,D,P,C,R) :- mincap(O,D,P,C), not resolved(O,D,P,_,_), capdec(O,D,P,R).
value(O,D,P,F,R) :- maxfloor(O,D,P,F), not mincap(O,D,P,_), floordec(O,D,P,R).

% -- Bands (A and M never band) ----------------------------------------------------------------
banding("F";"G";"P";"X";"S";"R").
zero(O,P) :- value(O,D,P,0,_), banding(D).
one(O,P) :- value(O,D,P,1,_), banding(D).
band(O,P,"disqualifying") :- zero(O,P).
band(O,P,"conditional") :- one(O,P), not zero(O,P).
band(O,P,"clear") :- org(O,_), policy(P), not zero(O,P), not one(O,P).

% -- Roles (section 10), first match, under leads-included -------------------------------------
r_entrant(O) :- org_status(O,"entrant").
r_gov(O) :- org(O,"gov").
r_first(O) :- org(O,"bigtech").
r_first(O) :- unit(_,O,_), org(O,_).
r_bench(O) :- org_output(O,("leaderboard";"standard")).
r_vendor(O) :- org(O,"vc").
r_vendor(O) :- value(O,"X","leads-included",X,_), X <= 1.
r_vendor(O) :- org(O,"private"), value(O,"X","leads-included",2,_).
r_referee(O) :- org(O,("nonprofit";"pbc";"academic")).
role(O,"entrant") :- r_entrant(O).
role(O,"government") :- r_gov(O), not r_entrant(O).
role(O,"first-party") :- r_first(O), not r_entrant(O), not r_gov(O).
role(O,"benchmark") :- r_bench(O), not r_entrant(O), not r_gov(O), not r_first(O).
role(O,"vendor") :- r_vendor(O), not r_entrant(O), not r_gov(O), not r_first(O), not r_bench(O).
role(O,"referee") :- r_referee(O), not r_entrant(O), not r_gov(O), not r_first(O), not r_bench(O), not r_vendor(O).
role(O,"unclassified") :- org(O,_), not role(O,"entrant"), not r_gov(O), not r_first(O), not r_bench(O), not r_vendor(O), not r_referee(O).

% -- Money matrix: ties and hops -----------------------------------------------------------------
tie(X,Y) :- stake(_,X,Y,_).
tie(X,Y) :- invest(_,X,Y,_,_).
tie(X,Y) :- principal(X,Y).
tie(X,Y) :- money(F,Y,X,_), counts(F).
reach(L,0) :- lab(L).
reach(X,N+1) :- tie(X,Y), reach(Y,N), N < 4.
hop(X,M) :- node(X), reach(X,_), M = #min{ N : reach(X,N) }.

#show value/5.  #show conflict/5.  #show band/3.  #show role/2.  #show hop/2.
#show ds/6.  #show li/1.  #show owner/2.
"""


@dataclass
class Result:
    values: Dict[Tuple[str, str, str], Tuple[Optional[int], Optional[str]]] = field(default_factory=dict)
    conflicts: Dict[Tuple[str, str, str], Tuple[int, int]] = field(default_factory=dict)
    bands: Dict[Tuple[str, str], str] = field(default_factory=dict)
    roles: Dict[str, str] = field(default_factory=dict)
    hops: Dict[str, int] = field(default_factory=dict)
    derived: List[Tuple] = field(default_factory=list)
    lab_investors: List[str] = field(default_factory=list)
    lab_owners: List[Tuple[str, str]] = field(default_factory=list)
    times: Dict[str, float] = field(default_factory=dict)
    stats: Dict[str, Any] = field(default_factory=dict)


def program_text() -> str:
    return _chain_rules() + PROGRAM


def evaluate(facts) -> Result:
    """Ground and solve the ASP program over a world; values per (org, dim, policy) and the rest."""
    import clingo

    res = Result()
    t0 = time.process_time()
    data, _ = emit(facts)
    t1 = time.process_time()
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program_text())
    ctl.add("base", [], data)
    ctl.ground([("base", [])])
    t2 = time.process_time()
    models = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    t3 = time.process_time()
    if len(models) != 1:
        raise RuntimeError(f"expected exactly one answer set, got {len(models)}")
    for sym in models[0]:
        name, a = sym.name, sym.arguments
        if name == "value":
            res.values[(a[0].string, a[1].string, a[2].string)] = (a[3].number, a[4].string)
        elif name == "conflict":
            res.conflicts[(a[0].string, a[1].string, a[2].string)] = (a[3].number, a[4].number)
        elif name == "band":
            res.bands[(a[0].string, a[1].string)] = a[2].string
        elif name == "role":
            res.roles[a[0].string] = a[1].string
        elif name == "hop":
            res.hops[a[0].string] = a[1].number
        elif name == "ds":
            sig = a[0].arguments
            res.derived.append((sig[0].string, a[1].string, a[2].string, a[3].string, a[4].name, a[5].number))
        elif name == "li":
            res.lab_investors.append(a[0].string)
        elif name == "owner":
            res.lab_owners.append((a[0].string, a[1].string))
    res.times = {"emit": round(t1 - t0, 4), "ground": round(t2 - t1, 4), "solve": round(t3 - t2, 4)}
    st = ctl.statistics
    try:
        res.stats = {"atoms": int(st["problem"]["lp"]["atoms"]), "rules": int(st["problem"]["lp"]["rules"])}
    except (KeyError, TypeError):
        res.stats = {}
    return res


def compare(world, res: Result) -> List[Dict[str, Any]]:
    """Every (org, dim, policy) where provlog's value, deciding rule or conflict differs from clingo's;
    every band, role and hop that differs too."""
    out: List[Dict[str, Any]] = []
    for o in world.orgs:
        for d in DIMS:
            for p in POLICIES:
                v = world.value(o, d, p)
                mine = res.values.get((o, d, p), (None, None))
                pv = (v.value, v.rule)
                if pv != mine or bool(v.conflict) != ((o, d, p) in res.conflicts):
                    out.append({"what": "value", "org": o, "dim": d, "policy": p,
                                "provlog": {"value": v.value, "rule": v.rule, "conflict": bool(v.conflict)},
                                "clingo": {"value": mine[0], "rule": mine[1],
                                           "conflict": (o, d, p) in res.conflicts}})
            for p in POLICIES:
                b = world.band(o, p)
                if b != res.bands.get((o, p)):
                    out.append({"what": "band", "org": o, "policy": p, "provlog": b, "clingo": res.bands.get((o, p))})
        r = world.role(o)
        if r != res.roles.get(o):
            out.append({"what": "role", "org": o, "provlog": r, "clingo": res.roles.get(o)})
    for node in sorted(world.facts.nodes):
        h = world.hop(node)
        if h != res.hops.get(node):
            out.append({"what": "hop", "node": node, "provlog": h, "clingo": res.hops.get(node)})
    return out


def check_expects(facts, res: Result) -> List[str]:
    """The world's own ``expect`` statements (derived by hand) against clingo's answers."""
    bad = []
    for f in facts.of("expect"):
        what, pol = f["what"], f["policy"] or "standard"
        if what == "value":
            got = res.values.get((f["org"], f["dim"], pol), (None, None))
            ok = got[0] == f["expected"] and (f["rule"] is None or got[1] == f["rule"])
        elif what == "band":
            got = res.bands.get((f["org"], pol))
            ok = got == f["expected"]
        elif what == "role":
            got = res.roles.get(f["org"])
            ok = got == f["expected"]
        elif what == "hop":
            got = res.hops.get(f["node"])
            ok = got == f["expected"]
        else:
            continue
        if not ok:
            bad.append(f"{f.loc}: expected {f['expected']}, clingo says {got}")
    return bad


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench check", description="provlog vs clingo on one world")
    ap.add_argument("--orgs", type=int, help="generate a world of this many orgs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--world", help="a world (file or folder) instead of a generated one")
    ap.add_argument("--show", type=int, default=30, help="disagreements to print")
    a = ap.parse_args(argv)
    from provlog.facts import load_text, load_world
    from provlog.queries.api import World

    if a.world:
        facts = load_world(a.world)
        name = a.world
    elif a.orgs:
        from bench.generate import generate_text

        facts = load_text(generate_text(a.orgs, a.seed), f"generated-{a.orgs}-s{a.seed}.facts")
        name = f"generated {a.orgs} orgs, seed {a.seed}"
    else:
        ap.error("give --orgs N or --world PATH")
    t = time.process_time()
    w = World(facts, name=name)
    tp = time.process_time() - t
    t = time.process_time()
    res = evaluate(facts)
    tc = time.process_time() - t
    diff = compare(w, res)
    print(f"{name}: provlog {tp:.2f} s cpu, clingo {tc:.2f} s cpu ({res.times}), ratio {tp / max(tc, 1e-9):.1f}; "
          f"{len(res.values)} values, {len(res.derived)} derived signals; {len(diff)} disagreements")
    for d in diff[: a.show]:
        print("  ", d)
    bad = check_expects(facts, res)
    if facts.of("expect"):
        print(f"  expect statements: {len(facts.of('expect')) - len(bad)} of {len(facts.of('expect'))} hold under clingo")
    for b in bad[: a.show]:
        print("   expect failed under clingo:", b)
    return 1 if diff or bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
