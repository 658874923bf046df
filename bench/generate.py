"""Seeded synthetic worlds shaped like a real directory of evaluator organizations.

    python -m bench generate --orgs 200 --seed 1 --out bench/out/w200          # a folder
    python -m bench generate --orgs 200 --seed 1 --out bench/out/w200.facts    # one file

The same (orgs, seed) always gives the same text, byte for byte. Per org there
are about 25 recorded signals over the eight dimensions, each citing 1-3 sources
(``cite`` lines, some with quoted spans, some ``src=`` on the signal); sources of
mixed status, tier and lane, some quarantined, some published by the org itself
(and so admissions against interest when an against-signal cites them). Around
the orgs stand labs (about one per 25 orgs), funds, holding companies,
foundations, lab foundations (lab owners), pooled funds and donor-advised funds
(``donors=``), public bodies and persons with roles; stakes with chains,
look-through and cross-holdings (some cycles), holding circles (one per 100
orgs, see ``holding_circle``), invest rounds, money rows (grants
through funds and pooled funds, fees, revenue with ``share=`` and ``year=``,
in-kind with and without ``operating``, donations), sells, policies, units and
a few resolutions.

Generator contract, relied on by :mod:`bench.clingo_check` and stated here so a
reader can check it against the text of SEMANTICS.md:

* every percentage is a multiple of 0.01% (a whole number of 1/10000ths),
  so that chained products are exact in the ASP encoding (clingo_check.py,
  "Exact arithmetic");
* ``share=`` and policy ``value=`` are single percentages (no ranges), so "share
  over 5%" has one reading; stakes may be ranges or ``>=``/``<`` (the lower
  bound is used, SEMANTICS "Ownership chains");
* no ``until=`` (SEMANTICS says nothing about ended stakes or roles);
* a person holds at most one role at each org and at most one role at a lab
  or entity, so that "the person's two roles" of P.1/P.2/P.4 are one pair;
* labs and persons carry no ``src=`` (being a lab is the premise of the
  registry); orgs carry ``src=`` (section 9, A.2, S.4 cite it); entities carry
  ``src=`` (F.6 cites the entity statement);
* a lab never holds a stake in an org that is also its ``unit``.
"""
from __future__ import annotations

import argparse
import hashlib
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

from provlog.logic.stated import RANKING

from .clauses import clause_for

DIMS = "FGPASRMX"

# rule ids a curator would write, by dimension and direction (rules.txt sections 1-8)
FLOOR_RULES = {
    "F": ["F.9", "F.12", "F.8"], "G": ["G.1", "G.2", "G.7"], "P": ["P.5", "P.6", "P.8"],
    "A": ["A.1", "A.4", "A.5"], "S": ["S.3", "S.5", "S.4"], "R": ["R.1", "R.5", "R.7"],
    "M": ["M.1", "M.2", "M.3"], "X": ["X.4", "X.7"],
}
CAP_RULES = {
    "F": ["F.3", "F.5", "F.10", "F.9"], "G": ["G.4", "G.5", "G.1"], "P": ["P.3", "P.7"],
    "A": ["A.6", "A.1"], "S": ["S.1", "S.2", "S.6"], "R": ["R.2", "R.3", "R.4", "R.6"],
    "M": ["M.2", "M.1"], "X": ["X.5", "X.6", "X.8", "X.1"],
}
INFO_RULES = {d: ["9"] for d in DIMS}
INFO_RULES.update({"F": ["F.11", "9"], "A": ["A.3"], "X": ["X.1"]})

WORDS = ("board", "grant", "access", "report", "filing", "review", "charter", "policy", "disclosure",
         "engagement", "round", "fund", "audit", "model", "window", "scope", "redaction", "method")

STAKE_SMALL = ["0.5%", "1%", "2%", "1.5%", "3%", "<5%", "0.25%"]
STAKE_OWNER = ["20%", "25%", "30%", "19.99%", "20-25%", ">=25%", "40%", "33.33%"]
STAKE_MID = ["10%", "25%", "40%", "50%", "60%", "33.33%", "12.5%", "45%"]
STAKE_ORG = ["2%", "4.99%", "5%", "10%", "12.5%", "19.99%", "20%", "25%", "40%", "15-20%", ">=20%", "8%"]
STAKE_LOOK = ["50%", "60%", "49.99%", "75%", "51%", ">=50%"]
RING_LINK = ["50%", "50%", "51%", ">=50%", "49.99%"]  # holding circles: the next member
RING_SKIP = ["50%", "49.99%", "40%"]  # the member after it (with the link, at most 100%)
SHARE_GRANT = ["1%", "3%", "5%", "8%", "10%", "20%", "30%", "4.99%"]
SHARE_FEE = ["2%", "5%", "10%", "20%", "30%", "45%", "25%", "50%"]
SHARE_INKIND = ["3%", "5%", "6%", "10%", "20%", "5.01%"]
SHARE_DONATION = ["2%", "5%", "10%", "12%", "10.01%"]
SHARE_OWNER = ["3%", "4.99%", "5%", "8%", "15%"]
YEARS = [2023, 2024, 2025]
REGS = ["reg1", "reg2"]
CIRCLE_EVERY = 100  # one holding circle per this many orgs, at least one (holding_circle)


def _pick(rng: random.Random, weighted: Sequence[Tuple[object, float]]):
    r = rng.random() * sum(w for _, w in weighted)
    for v, w in weighted:
        r -= w
        if r <= 0:
            return v
    return weighted[-1][0]


@dataclass
class World:
    """Statements of one world, by file."""

    files: Dict[str, List[str]] = field(default_factory=lambda: {
        "entities.facts": [], "sources.facts": [], "structure.facts": [], "signals.facts": []})

    def add(self, file: str, line: str) -> None:
        self.files[file].append(line)


class Generator:
    def __init__(self, orgs: int, seed: int = 1, circles: Optional[int] = None):
        self.n = orgs
        self.seed = seed
        self.circles = max(1, orgs // CIRCLE_EVERY) if circles is None else circles
        self.rng = random.Random(f"provlog-bench:{orgs}:{seed}")
        # later additions draw from their own stream, so the rest of a world stays as it was
        self.more = random.Random(f"provlog-bench-more:{orgs}:{seed}")
        self.clauses = random.Random(f"provlog-bench-clauses:{orgs}:{seed}")  # bench/clauses.py's choices
        self.bases = random.Random(f"provlog-bench-bases:{orgs}:{seed}")  # F.5's lab bases, F.7's policy
        self.holdings = random.Random(f"provlog-bench-holdings:{orgs}:{seed}")  # X.5's holdings, X.8's clients
        self.w = World()
        self.sources: Dict[str, str] = {}  # id -> category
        self.ranked: Set[str] = set()  # publishers of a benchmark result (a source with lane=, not quarantined)
        self.org_sources: Dict[str, List[Tuple[str, str]]] = {}  # org -> [(source, category)]
        self.stakes: Set[Tuple[str, str]] = set()
        self.held: Dict[str, float] = {}  # subject -> allocated percent (lower bounds)
        self.person_ext: Set[str] = set()  # persons that already hold a lab/entity role
        self.npeople = 0

    # -- helpers -------------------------------------------------------------------------------
    def amended(self, policy: str, since: int) -> str:
        """` amended=...` for some no-lab-money rules (F.8): a count, or dates after ``since``."""
        more = self.more
        if policy != "no-lab-money" or more.random() < .5:
            return ""
        if more.random() < .3:
            return f" amended={more.randint(1, 3)}"
        days = sorted((more.randint(since, 2026), more.randint(1, 12), more.randint(1, 28)) for _ in range(more.randint(1, 3)))
        return " amended=" + ",".join(f"{y}-{m:02d}" + (f"-{d:02d}" if more.random() < .5 else "") for y, m, d in days)

    def span(self, *words: str) -> str:
        k = self.rng.choice(WORDS)
        return " ".join(words) + f" ({k})"

    def ev(self, srcs: Sequence[str], span_p: float = 0.4, text: str = "") -> str:
        """`src=` and maybe `span=` for a structural statement."""
        out = " src=" + ",".join(srcs)
        if self.rng.random() < span_p:
            out += f' span="{text or self.span("the filing states it")}"'
        return out

    def source(self, sid: str, title: str, publisher: str, category: str, owner: Optional[str] = None) -> str:
        rng = self.rng
        status_w = {
            "site": [("confirmed", .75), ("unaudited", .25)],
            "annual": [("confirmed", .8), ("unaudited", .15), ("imported", .05)],
            "filing": [("confirmed", .9), ("unaudited", .1)],
            "news": [("unaudited", .7), ("confirmed", .2), ("unverifiable", .1)],
            "dir": [("imported", .9), ("unverifiable", .1)],
            "blog": [("unverifiable", .7), ("imported", .3)],
            "card": [("confirmed", .85), ("unaudited", .15)],
            "reg": [("confirmed", .85), ("unaudited", .1), ("imported", .05)],
        }[category]
        tier_w = {
            "site": [("2", .6), (None, .2), ("3", .2)], "annual": [("1", .7), ("2", .3)],
            "filing": [("1", .9), ("2", .1)], "news": [("3", .7), ("2", .1), (None, .2)],
            "dir": [("4", .8), (None, .2)], "blog": [("4", .5), (None, .5)],
            "card": [("1", .6), ("2", .4)], "reg": [("1", .85), ("2", .1), (None, .05)],
        }[category]
        st = _pick(rng, status_w)
        tier = _pick(rng, tier_w)
        line = f'source {sid} "https://{category}.example/{sid}" publisher={publisher} status={st}'
        if tier:
            line += f" tier={tier}"
        line += f" date={rng.choice(YEARS)}-{rng.randint(1, 12):02d}"
        quarantined = rng.random() < (.15 if category == "blog" else .02)
        if quarantined:
            line += " quarantined"
        lane = _pick(rng, [(None, .9), ("verified", .04), ("reported", .03), ("rejected", .02), ("pending", .01)])
        if lane == "verified":
            h = hashlib.sha256(sid.encode()).hexdigest()
            line += f" lane=verified dataset-hash={h} input-hash={hashlib.sha256(h.encode()).hexdigest()}"
        elif lane == "reported":
            line += ' lane=reported attestor="https://attest.example/" approved-by="curator"'
        elif lane:
            line += f" lane={lane}"
        if lane and not quarantined:
            self.ranked.add(publisher)  # a benchmark result it publishes: a ranking, which R.5 reads
        self.w.add("sources.facts", line)
        self.sources[sid] = category
        if owner:
            self.org_sources.setdefault(owner, []).append((sid, category))
        return sid

    def person(self) -> str:
        self.npeople += 1
        pid = f"p{self.npeople:06d}"
        self.w.add("entities.facts", f'person {pid} "Person {self.npeople}"')
        return pid

    def stake(self, holder: str, subject: str, pct: str, srcs: Sequence[str], span_p: float = .4) -> bool:
        if holder == subject or (holder, subject) in self.stakes:
            return False
        lo = float(pct.lstrip("<>=").split("-")[0].rstrip("%")) if not pct.startswith("<") else 0.0
        if self.held.get(subject, 0.0) + lo > 100.0:
            return False
        self.held[subject] = self.held.get(subject, 0.0) + lo
        self.stakes.add((holder, subject))
        extra = " voting" if self.rng.random() < .2 else ""
        extra += f" since={self.rng.choice(YEARS) - 3}" if self.rng.random() < .3 else ""
        self.w.add("structure.facts", f"stake {holder} {subject} {pct}{extra}"
                   + self.ev(srcs, span_p, f"{holder} holds {pct} of {subject}"))
        return True

    def entity(self, eid: str, name: str, kind: str, extra: str = "") -> str:
        rng = self.rng
        src = self.source(f"s-{eid}-reg", name, rng.choice(REGS), "reg")
        srcs = [src]
        if rng.random() < .15:
            srcs.append(self.source(f"s-{eid}-news", name, rng.choice(["news1", "news2", "news3"]), "news"))
        self.w.add("entities.facts", f'entity {eid} "{name}" kind={kind}{extra}' + self.ev(srcs, .3, f"{name} is a {kind}"))
        return eid

    # -- the world ---------------------------------------------------------------------------------
    def build(self) -> World:
        rng, n, add = self.rng, self.n, self.w.add
        E, S, T = "entities.facts", "sources.facts", "structure.facts"
        nlabs = max(2, round(n / 25))
        self.labs = [f"lab{i:03d}" for i in range(1, nlabs + 1)]
        for i, lab in enumerate(self.labs, 1):
            add(E, f'lab {lab} "Frontier Lab {i}"')
        # publishers of sources
        pubs = {"reg1": "public", "reg2": "public", "irs": "public", "news1": "other", "news2": "other",
                "news3": "other", "dir1": "other", "blog1": "other", "blog2": "other"}
        for p, kind in pubs.items():
            add(E, f'entity {p} "Publisher {p}" kind={kind}')
        add(E, 'entity e-clients "Program-service clients (not named)" kind=other')  # X.8's unnamed payer

        ent = self.entity
        for lab in self.labs:
            self.source(f"s-{lab}-reg", lab, rng.choice(REGS), "reg")
        # funds; about 60% are lab investors (a stake of any size in a lab, or an invest into one)
        funds = [ent(f"fd{i:04d}", f"Fund {i}", "fund") for i in range(1, max(3, n // 4) + 1)]
        lab_investors = []
        for f in funds:
            if rng.random() < .6:
                lab = rng.choice(self.labs)
                how = _pick(rng, [("stake", .45), ("invest", .4), ("both", .15)])
                if how in ("stake", "both"):
                    self.stake(f, lab, rng.choice(STAKE_SMALL), [f"s-{lab}-reg"], .5)
                if how in ("invest", "both"):
                    flags = " priced" if rng.random() < .7 else ""
                    flags += rng.choice(["", " led", " co-led"])
                    add(T, f"invest {f} {lab}{flags} date={rng.choice(YEARS)}" + self.ev([f"s-{f}-reg"], .3))
                lab_investors.append(f)
        # look-through: a parent holds 50% or more (or just under) of a lab-investor fund
        for f in list(lab_investors):
            if rng.random() < .2:
                parent = rng.choice(funds)
                self.stake(parent, f, rng.choice(STAKE_LOOK), [f"s-{f}-reg"], .5)
        # cross-holdings between funds (cycles)
        for f in funds:
            if rng.random() < .06:
                g = rng.choice(funds)
                if self.stake(f, g, rng.choice(["5%", "10%", "50%", "30%"]), [f"s-{g}-reg"]):
                    self.stake(g, f, rng.choice(["5%", "10%", "50%", "20%"]), [f"s-{f}-reg"])
        holdcos = [ent(f"hc{i:04d}", f"Holdco {i}", "company") for i in range(1, max(2, n // 8) + 1)]
        for h in holdcos:
            for _ in range(rng.randint(1, 2)):
                self.stake(rng.choice(funds), h, rng.choice(STAKE_MID), [f"s-{h}-reg"], .5)
            if rng.random() < .1:  # a holdco that holds a piece of a lab
                self.stake(h, rng.choice(self.labs), rng.choice(STAKE_OWNER + STAKE_SMALL), [f"s-{h}-reg"])
        # lab foundations: lab owners (20% or more of a lab), and their money
        lab_founds = []
        for i, lab in enumerate(self.labs, 1):
            if rng.random() < .6:
                lf = ent(f"lf{i:03d}", f"Lab Foundation {i}", "foundation")
                self.stake(lf, lab, rng.choice(STAKE_OWNER), [f"s-{lab}-reg"], .6)
                lab_founds.append(lf)
                add(T, f"money {lab} {lf} grant amount={rng.randint(1, 50)}M year={rng.choice(YEARS)}"
                    + self.ev([f"s-{lf}-reg"], .2))
        # persons who invest in labs (angels), and foundations with principals
        angels = []
        for _ in range(max(2, n // 10)):
            p = self.person()
            if rng.random() < .6:
                lab = rng.choice(self.labs)
                if rng.random() < .5:
                    self.stake(p, lab, rng.choice(STAKE_SMALL + ["20%"]), [f"s-{lab}-reg"])
                else:
                    add(T, f"invest {p} {lab} date={rng.choice(YEARS)}" + self.ev([f"s-{lab}-reg"], .3))
            angels.append(p)
        founds = []
        for i in range(1, max(2, n // 6) + 1):
            extra = f" principal={rng.choice(angels)}" if rng.random() < .35 else ""
            founds.append(ent(f"fn{i:04d}", f"Foundation {i}", "foundation", extra))
        pools = []
        for i in range(1, max(1, n // 20) + 1):
            extra = " donors=" + rng.choice(["undisclosed", "undisclosed", "public"])
            pools.append(ent(f"pf{i:03d}", f"Pooled Fund {i}", "pooled-fund", extra))
        dafs = []
        for i in range(1, max(1, n // 25) + 1):
            extra = " donors=" + rng.choice(["undisclosed", "public"]) + f" principal={rng.choice(angels)}"
            dafs.append(ent(f"daf{i:03d}", f"Giving Account {i}", "daf", extra))
        publics = [ent(f"pb{i:03d}", f"Science Council {i}", "public") for i in range(1, max(1, n // 25) + 1)]
        # money through funds: donors into pools and dafs, labs into pools, councils into foundations
        for pf in pools + dafs:
            for _ in range(rng.randint(1, 3)):
                payer = rng.choice(founds + funds + self.labs + angels)
                add(T, f"money {payer} {pf} grant amount={rng.randint(1, 20)}M year={rng.choice(YEARS)}"
                    + self.ev([f"s-{pf}-reg"], .2))
        for fn in founds:
            if rng.random() < .3:
                payer = rng.choice(publics + funds + lab_founds + angels)
                add(T, f"money {payer} {fn} grant amount={rng.randint(1, 20)}M year={rng.choice(YEARS)}"
                    + self.ev([f"s-{fn}-reg"], .2))
        for lab in self.labs:  # a lab that pays for compute from a fund it is tied to (a money cycle)
            if rng.random() < .2:
                f = rng.choice(lab_investors or funds)
                add(T, f"money {f} {lab} revenue amount={rng.randint(1, 9)}M year={rng.choice(YEARS)}"
                    + self.ev([f"s-{lab}-reg"], .2))

        # -- the orgs --------------------------------------------------------------------------------
        for i in range(1, n + 1):
            self.org(f"o{i:05d}", i, funds, holdcos, lab_investors, lab_founds, founds, pools, dafs,
                     publics, angels)
        # last, so that the rest of the world is the same text with or without them
        for j in range(1, self.circles + 1):
            self.holding_circle(j)
        return self.w

    def holding_circle(self, j: int) -> None:
        """A ring of funds and companies, each holding about half of the next member and most of them
        about half of the one after; one or two members tied to a lab, so every member may be a lab
        investor by look-through, along walks that branch and go round the ring (issue 19: carrying
        every proof made the derivation exponential in the walks). Members hold and invest in orgs."""
        rng, add = self.rng, self.w.add
        k = rng.randint(4, 7)
        ring = [self.entity(f"ring{j:03d}m{m}", f"Ring {j} Member {m}", rng.choice(["fund", "company"]))
                for m in range(1, k + 1)]
        for m, x in enumerate(ring):
            y = ring[(m + 1) % k]
            self.stake(x, y, rng.choice(RING_LINK), [f"s-{y}-reg"], .5)
        for m, x in enumerate(ring):  # skip links: two look-through steps out of a member, so walks branch
            y = ring[(m + 2) % k]
            if rng.random() < .8:
                self.stake(x, y, rng.choice(RING_SKIP), [f"s-{y}-reg"], .5)
        for x in rng.sample(ring, rng.randint(1, 2)):
            lab = rng.choice(self.labs)
            if rng.random() < .5:
                self.stake(x, lab, rng.choice(STAKE_SMALL), [f"s-{lab}-reg"], .5)
            else:
                add("structure.facts", f"invest {x} {lab} date={rng.choice(YEARS)}" + self.ev([f"s-{lab}-reg"], .3))
        for x in ring:
            o = f"o{rng.randint(1, self.n):05d}"
            if rng.random() < .5:
                self.stake(x, o, rng.choice(STAKE_ORG), [f"s-{o}-filing"], .5)
            elif rng.random() < .3:
                flags = (" priced" if rng.random() < .6 else "") + rng.choice(["", " led", " co-led"])
                add("structure.facts", f"invest {x} {o}{flags} date={rng.choice(YEARS)}" + self.ev([f"s-{o}-filing"], .3))

    def org(self, o, i, funds, holdcos, lab_investors, lab_founds, founds, pools, dafs, publics, angels):
        rng, add = self.rng, self.w.add
        E, T, G = "entities.facts", "structure.facts", "signals.facts"
        typ = _pick(rng, [("nonprofit", .33), ("academic", .14), ("gov", .08), ("pbc", .1), ("vc", .1),
                          ("private", .13), ("bigtech", .05), ("consortium", .07)])
        status = _pick(rng, [("in-scope", .85), ("out-of-scope", .08), ("entrant", .07)])
        output = _pick(rng, [("engagements", .7), ("leaderboard", .2), ("standard", .1)])
        evaluated = "no" if status == "entrant" or rng.random() < .1 else "yes"
        statutory = ""
        if typ == "gov" and rng.random() < .6:
            statutory = rng.choice(["access", "scope", "access,scope"])
        elif rng.random() < .01:
            statutory = rng.choice(["access", "scope"])
        # the org's own sources and the sources about it
        lab_card = rng.choice(self.labs)
        self.source(f"s-{o}-site", o, o, "site", o)
        self.source(f"s-{o}-annual", o, o, "annual", o)
        self.source(f"s-{o}-filing", o, rng.choice(["irs", "reg1", "reg2"]), "filing", o)
        for k in range(1, rng.randint(1, 3) + 1):
            self.source(f"s-{o}-news{k}", o, rng.choice(["news1", "news2", "news3"]), "news", o)
        self.source(f"s-{o}-dir", o, "dir1", "dir", o)
        if rng.random() < .5:
            self.source(f"s-{o}-blog", o, rng.choice(["blog1", "blog2"]), "blog", o)
        self.source(f"s-{o}-card", o, lab_card, "card", o)
        if rng.random() < .3:
            self.source(f"s-{o}-card2", o, rng.choice(self.labs), "card", o)
        srcs = [s for s, _ in self.org_sources[o]]
        osrc = [f"s-{o}-site"] + ([f"s-{o}-filing"] if rng.random() < .3 else [])
        line = f'org {o} "Evaluator {i}" type={typ} status={status} output={output} evaluated={evaluated}'
        if statutory:
            line += f" statutory={statutory}"
        add(E, line + self.ev(osrc, .6, f"Evaluator {i} is a {typ} evaluator"))
        org_line = len(self.w.files[E]) - 1
        lab_revenue = other_base = False  # F.5: money from labs, and a base other than labs, disclosed
        site, filing, annual = f"s-{o}-site", f"s-{o}-filing", f"s-{o}-annual"
        some = lambda: [rng.choice(srcs)]  # noqa: E731

        # ownership
        if typ == "bigtech":
            add(T, f"unit {o} {lab_card}" + self.ev([rng.choice([filing, site, f's-{o}-card'])], .6,
                                                    f"Evaluator {i} is a division of {lab_card}"))
        elif typ in ("vc", "private", "pbc", "consortium") or rng.random() < .05:
            for _ in range(rng.randint(1, 3)):
                holder = _pick(rng, [(rng.choice(holdcos), .35), (rng.choice(funds), .35),
                                     (rng.choice(self.labs), .1), (rng.choice(angels), .1),
                                     (rng.choice(lab_investors or funds), .1)])
                if holder in self.labs and rng.random() < .5:
                    continue
                self.stake(holder, o, rng.choice(STAKE_ORG), [rng.choice([filing, site, f"s-{o}-news1", f"s-{o}-dir"])], .5)
            if rng.random() < .25:  # a holdco holds the org
                h = rng.choice(holdcos)
                if self.stake(h, o, rng.choice(STAKE_MID[:5]), [filing], .5) and rng.random() < .4:
                    self.stake(o, h, rng.choice(["5%", "10%", "30%"]), [filing], .3)  # a cycle
            for _ in range(rng.randint(0, 2)):
                inv = rng.choice(funds + [rng.choice(self.labs)] * (1 if rng.random() < .1 else 0))
                flags = (" priced" if rng.random() < .6 else "") + rng.choice(["", " led", " co-led"])
                add(T, f"invest {inv} {o}{flags} date={rng.choice(YEARS)}" + self.ev(some(), .3))
                if rng.random() < .5:
                    add(T, f"money {inv} {o} investment amount={rng.randint(1, 30)}M "
                        f"share={rng.choice(SHARE_GRANT)} year={rng.choice(YEARS)}" + self.ev([filing], .2))

        # philanthropic and public money
        if typ in ("nonprofit", "academic", "gov", "pbc", "consortium"):
            for _ in range(rng.randint(1, 3)):
                payer = _pick(rng, [(rng.choice(founds), .4), (rng.choice(pools), .2), (rng.choice(dafs), .1),
                                    (rng.choice(publics), .2), (rng.choice(lab_founds or founds), .1)])
                kind = "grant" if rng.random() < .9 else "investment"
                other_base = other_base or kind == "grant"  # a payer that is not a lab
                share = f" share={rng.choice(SHARE_OWNER if payer in lab_founds else SHARE_GRANT)}" if rng.random() < .85 else ""
                restricted = " restricted" if rng.random() < .1 else ""
                add(T, f"money {payer} {o} {kind} amount={rng.randint(10, 5000)}k{share} year={rng.choice(YEARS)}"
                    f"{restricted}" + self.ev([rng.choice([filing, annual, f's-{payer}-reg'])], .3))
        # lab fees and revenue
        if rng.random() < .3:
            year = rng.choice(YEARS)
            for _ in range(rng.randint(1, 2)):
                kind = "fee" if rng.random() < .7 else "revenue"
                lab_revenue = True
                share = f" share={rng.choice(SHARE_FEE)}" if rng.random() < .85 else ""
                yr = f" year={year}" if rng.random() < .85 else ""
                add(T, f"money {rng.choice(self.labs)} {o} {kind} amount={rng.randint(10, 900)}k{share}{yr} currency=USD"
                    + self.ev([rng.choice([annual, filing, site])], .4, f"fees from labs for evaluations ({kind})"))
        # in-kind
        if rng.random() < .3:
            kind = rng.choice(["in-kind", "credits", "compute"])
            flags = " operating" if rng.random() < .5 else ""
            if rng.random() < .6:
                flags += f" share={rng.choice(SHARE_INKIND)}"
            if rng.random() < .4:
                flags += " depends"
            add(T, f"money {rng.choice(self.labs)} {o} {kind}{flags} year={rng.choice(YEARS)}"
                + self.ev([rng.choice([annual, site, f"s-{o}-card"])], .4, f"compute donated by a lab"))
        # personnel: leaders, board and advisers; some with lab seats or fund partnerships
        for _ in range(rng.randint(1, 2)):
            p = self.person()
            role = rng.choice(["founder", "executive", "director"])
            rec = " recusal=personal" if rng.random() < .15 else ""
            add(T, f"role {p} {role} {o}{rec}" + self.ev([rng.choice([site, filing])], .5, f"{p} is {role}"))
            x = rng.random()
            if x < .07:
                lrole = rng.choice(["board", "committee"])
                rec = rng.choice(["", " recusal=personal", " recusal=none"])
                add(T, f"role {p} {lrole} {rng.choice(self.labs)}{rec}"
                    + self.ev([rng.choice([site, f"s-{o}-card", f"s-{o}-news1"])], .5))
            elif x < .11 and role != "founder":
                add(T, f"role {p} advisor {rng.choice(self.labs)}" + self.ev([rng.choice([site, f"s-{o}-news1"])], .4))
        for _ in range(rng.randint(0, 2)):
            p = self.person()
            role = rng.choice(["board", "advisor", "committee"])
            add(T, f"role {p} {role} {o}" + self.ev([rng.choice([site, annual])], .4))
            x = rng.random()
            if x < .08:
                add(T, f"role {p} partner {rng.choice(funds)}" + self.ev([rng.choice([site, f"s-{o}-news1"])], .4))
            elif x < .13:
                add(T, f"role {p} employee {rng.choice(self.labs)}" + self.ev([rng.choice([site, f"s-{o}-card"])], .4))
        # donations from persons, some of them lab employees
        if rng.random() < .12:
            p = self.person()
            if rng.random() < .6:
                add(T, f"role {p} employee {rng.choice(self.labs)}" + self.ev([f"s-{o}-news1"], .5))
            share = f" share={rng.choice(SHARE_DONATION)}" if rng.random() < .75 else ""
            other_base = True  # a person is not a lab
            add(T, f"money {p} {o} donation amount={rng.randint(5, 500)}k{share} year={rng.choice(YEARS)}"
                + self.ev([annual], .3))
        # sells
        if rng.random() < .2:
            for _ in range(rng.randint(1, 2)):
                what = rng.choice(["defense", "monitoring", "guardrails", "data", "tooling", "license", "deployment",
                                   "consulting", "free-tool"])
                cust = rng.choice(self.labs) if rng.random() < .85 else rng.choice(funds)
                other_base = other_base or (cust in funds and what != "free-tool")
                add(T, f"sells {o} {cust} {what}" + self.ev([rng.choice([site, f"s-{o}-news1", f"s-{o}-card"])], .5,
                                                          f"we provide {what} to {cust}"))
        # published policies
        stated: Set[str] = set()  # the kinds logic/policies.py reads for a floor (bench/clauses.py)
        if rng.random() < .3:
            for pol in rng.sample(["recusal", "no-contingent-fees", "no-lab-investments", "disclose-lab-revenue",
                                   "mandatory-recusal", "disclose-ties", "cooling-off", "no-lab-money",
                                   "disclosure-policy", "no-lab-review", "security-only-redactions"], rng.randint(1, 4)):
                since = rng.choice(YEARS)
                add(T, f"policy {o} {pol} since={since}{self.amended(pol, since)}" + self.ev([site], .3))
                stated.add(pol)
        if o in self.ranked:
            stated.add(RANKING)
        if rng.random() < .1:
            add(T, f"policy {o} lab-revenue-cap value={rng.choice(['5%', '10%', '12%'])}" + self.ev([site], .5))
            if rng.random() < .8:
                add(T, f"policy {o} market-rates" + self.ev([site], .2))
            if rng.random() < .8:
                add(T, f"policy {o} publication-rights" + self.ev([site], .2))

        # recorded signals: each dimension has an underlying value that most evidence points to
        # (floors at or just below it, caps at or just above it), with some noise, so that
        # conflicts occur but are the exception, as in a curated directory
        truth = {d: _pick(rng, [(0, .08), (1, .15), (2, .3), (3, .3), (4, .17)]) for d in DIMS}
        for k in range(1, rng.randint(20, 30) + 1):
            dim = rng.choice(DIMS)
            t = truth[dim]
            sid = f"{o}-{dim.lower()}{k}"
            if rng.random() < .05:
                direction, bound, rule = rng.choice(["for", "against"]), "info", rng.choice(INFO_RULES[dim])
            elif rng.random() < (.9 if t == 4 else .55):
                n = _pick(rng, [(t, .6), (max(t - 1, 0), .3), (rng.randint(0, 4), .1)])
                direction, bound, rule = "for", f"floor {n}", rng.choice(FLOOR_RULES[dim])
            else:
                n = _pick(rng, [(min(t, 3), .6), (min(t + 1, 3), .3), (rng.randint(0, 3), .1)])
                direction, bound, rule = "against", f"cap {n}", rng.choice(CAP_RULES[dim])
            if bound != "info":  # a clause that gives the bound, for this org (W120, W121: bench/clauses.py)
                kind = bound.split()[0]
                rule, kind, n = clause_for(self.clauses, dim, kind, int(bound.split()[1]), rule, typ, stated)
                direction, bound = ("for" if kind == "floor" else "against"), f"{kind} {n}"
            if bound != "info" and self.more.random() < .03:  # a fact recorded on the wrong dimension (section 9)
                rule = self.more.choice(FLOOR_RULES[self.more.choice([d for d in DIMS if d != dim])])
            line = f"signal {sid} {o} {dim} {direction} {bound} rule={rule}"
            if (bound == "floor 4" and dim in "FX" and rng.random() < .7) or rng.random() < .02:
                line += " negative"
            st = _pick(rng, [(None, .85), ("active", .05), ("superseded", .04), ("differs", .03), ("quarantined", .03)])
            if st:
                line += f" status={st}"
            if rng.random() < .08:
                line += f" src={rng.choice(srcs)}"
            if rng.random() < .1:
                line += ' note="curator note"'
            add(G, line)
            pool = self.org_sources[o]
            weights = {"site": .2, "annual": .15, "filing": .15, "news": .2, "dir": .1, "blog": .05, "card": .15}
            ncite = _pick(rng, [(1, .4), (2, .4), (3, .2)])
            chosen: List[str] = []
            while len(chosen) < min(ncite, len(pool)):
                s = _pick(rng, [(s, weights[c]) for s, c in pool if s not in chosen])
                chosen.append(s)
            other = f"s-o{rng.randint(1, i):05d}-filing"
            if rng.random() < .03 and other not in chosen:  # an outside source (another org's filing)
                chosen.append(other)
            for s in chosen:
                cat = self.sources[s]
                if rng.random() < (.2 if cat in ("dir", "blog") else .55):
                    add(G, f'cite {sid} {s} "{self.span("Evaluator", str(i), dim)}"')
                else:
                    add(G, f"cite {sid} {s}")
        if rng.random() < .06:
            dim = rng.choice(DIMS)
            add(G, f"resolution {o} {dim} value={rng.randint(1, 3)} rule={rng.choice(CAP_RULES[dim])}"
                f' note="written resolution"')
        based = self.lab_bases(o, typ, org_line, lab_revenue, other_base)
        self.own_holdings(o, org_line, based)

    def lab_bases(self, o: str, typ: str, org_line: int, lab_revenue: bool, other_base: bool) -> None:
        """F.5's lab bases and F.7's policy, drawn from a stream of their own (the rest of the world is the
        text it was without them): half the orgs paid by labs and by no other base say so
        (``revenue=labs-only``; never beside another base, which is W122); one for-profit in ten names
        "every major lab" as its clients, another base or not (its near miss); one org in twenty
        publishes a policy that permits donations from lab employees."""
        more, E = self.bases, "entities.facts"
        based = False
        if lab_revenue and not other_base and more.random() < .5:
            self.w.files[E][org_line] += " revenue=labs-only"
            based = True
        if typ in ("private", "vc") and more.random() < .1:
            self.w.files[E][org_line] += " clients=every-major-lab"
            based = True
        if more.random() < .05:
            self.w.add("structure.facts", f"policy {o} permits-lab-employee-donations src=s-{o}-site")  # (not ev: rng)
        return based

    def own_holdings(self, o: str, org_line: int, based: bool) -> None:
        """X.5's and X.8's facts, drawn from a stream of their own: one org in twenty-five holds a stake in
        a lab, one in fifty invested in one (a third of the holdings `diversified`); one org in ten
        without a lab base (F.5: revenue from another payer beside `revenue=labs-only` is W122) states
        `clients=undisclosed` and program-service revenue from an unnamed payer in its filing."""
        more, T = self.holdings, "structure.facts"
        div = lambda: " diversified" if more.random() < 1 / 3 else ""  # noqa: E731
        if more.random() < .04:
            lab, pct = more.choice(self.labs), more.choice([0.01, 0.5, 1, 2])
            if self.held.get(lab, 0.0) + pct <= 100.0 and (o, lab) not in self.stakes:
                self.held[lab] = self.held.get(lab, 0.0) + pct
                self.stakes.add((o, lab))
                self.w.add(T, f"stake {o} {lab} {pct:g}%{div()} src=s-{o}-filing")
        if more.random() < .02:
            self.w.add(T, f"invest {o} {more.choice(self.labs)}{div()} src=s-{o}-filing")
        if not based and more.random() < .1:
            self.w.files["entities.facts"][org_line] += " clients=undisclosed"
            kind = more.choice(["revenue", "fee"])
            self.w.add(T, f"money e-clients {o} {kind} amount={more.randint(10, 900)}k year={more.choice(YEARS)}"
                       f" src=s-{o}-filing")


def generate(orgs: int, seed: int = 1, circles: Optional[int] = None) -> Dict[str, str]:
    """The world's files: name -> text (deterministic for (orgs, seed, circles))."""
    g = Generator(orgs, seed, circles)
    w = g.build()
    head = f"# synthetic world: {orgs} orgs, seed {seed}, {g.circles} holding circles (bench/generate.py)\n"
    return {name: head + "\n".join(lines) + "\n" for name, lines in w.files.items()}


def generate_text(orgs: int, seed: int = 1, circles: Optional[int] = None) -> str:
    """The whole world as one text (the files in a fixed order)."""
    files = generate(orgs, seed, circles)
    return "".join(files[k] for k in ("entities.facts", "sources.facts", "structure.facts", "signals.facts"))


def kept(orgs: int, seed: int, worlds: Path) -> Path:
    """The world of ``orgs`` and ``seed`` in ``worlds/w{orgs}-s{seed}``, written on first use (the benches share it)."""
    out = Path(worlds) / f"w{orgs}-s{seed}"
    return out if out.exists() else write(orgs, seed, out)


def write(orgs: int, seed: int, out: Path, circles: Optional[int] = None) -> Path:
    """Write a folder (``out`` without ``.facts``) or one ``.facts`` file; returns the path."""
    out = Path(out)
    if out.suffix == ".facts":
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(generate_text(orgs, seed, circles), encoding="utf-8")
    else:
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.facts"):
            old.unlink()
        for name, text in generate(orgs, seed, circles).items():
            (out / name).write_text(text, encoding="utf-8")
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench generate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--orgs", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True, help="a folder, or a file ending in .facts")
    ap.add_argument("--circles", type=int, help=f"holding circles (default: one per {CIRCLE_EVERY} orgs, at least one)")
    a = ap.parse_args(argv)
    p = write(a.orgs, a.seed, a.out, a.circles)
    print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
