"""Warnings from ``provlog check``: what a world may say but probably does not mean.

A warning is not an error: the world loads, every answer stands, and
``check`` still exits 0; it prints each warning after its ``ok`` line. The
codes are listed in provlog.facts.errors.WARNINGS (and docs/errors.md).

- **W100** a recorded signal that cites no source (no ``cite`` statement and no
  ``src=``). Nothing can admit it under any policy, so it never sets a bound,
  and ``why`` can only say that no usable source backs it.
- **W122** an org stating ``revenue=labs-only`` (F.5: lab revenue is the only
  revenue it discloses) beside a disclosed base that is not a lab: the rule
  reads the world's money and sales, so F.5 derives nothing from it, and the
  attribute or the row is probably wrong.
- **W123** a ``stake`` or ``invest`` flagged ``diversified`` whose holder is not an
  org or whose subject is not a lab: X.5 reads the flag only on an org's own
  holding of a lab, so it changes nothing (the holder or the flag is probably
  wrong).
- **W130** a stale letter: the subject's letter moved since the one its contact
  records (``letter=``, the digest ``provlog outreach`` prints).
- **W131** a candidate whose recorded result is not the one section 11 derives.
- **W110** a quoted constant in an ``expect holds|fails`` goal that names
  nothing in the world or its rulebook: no id or value of any statement, no
  derived signal id, no policy or dimension, no constant a rule writes or a
  rulebook's tables add (queries/hints.py, the same check ``provlog query``
  notes on stderr, with the nearest spelling). Every quoted constant is
  compared, whatever its position, since relations do not declare which
  argument holds an id. A typo otherwise makes ``expect fails`` pass for the
  wrong reason and ``expect holds`` fail without a hint. A goal of the
  independence RULES derives the world (derived signal ids count), so
  ``check`` takes longer on a world with such goals; a rulebook's goal reads
  the rulebook's rules and tables without running them.

- **W120** an active recorded signal stating a direction or a bound its clause
  does not give (``against cap 0 rule=S.2``: S.2 gives cap 2), and **W121** a
  floor the org's stated policies or legal form do not give (a G.2 floor 3 with
  one conflict-policy element): logic/bounds.py. Neither changes a value; both
  are errors under ``check --strict`` and fail ``verify``.

    >>> from provlog import World                                   # doctest: +SKIP
    >>> [str(w) for w in warnings(World.load("facts/worlds/example"))]  # doctest: +SKIP
    []
"""
from __future__ import annotations

from typing import List

from ..errors import ProvlogError
from ..facts import Diagnostic, FactSet
from ..logic import bounds
from ..logic.structure import PAID_SALES, REVENUE_KINDS


def warnings(world) -> List[Diagnostic]:
    """Every warning of a loaded :class:`~provlog.queries.api.World`, in file order."""
    return sorted(uncited_signals(world.facts) + bounds.warnings(world.facts) + other_bases(world.facts)
                  + idle_diversified(world.facts)
                  + unknown_goal_constants(world) + stale_letters(world) + candidate_results(world),
                  key=Diagnostic.sort_key)


def other_bases(facts: FactSet) -> List[Diagnostic]:
    """W122: an org stating ``revenue=labs-only`` beside a base that is not a lab (what F.5's
    ``other_base`` reads: money of REVENUE_KINDS from a payer that is not a lab, a paid sale to a
    customer that is not a lab), at the org, naming the first such statement in file order."""
    only = {f["id"]: f for f in facts.of("org") if f["revenue"] == "labs-only"}
    if not only:
        return []
    labs = {f["id"] for f in facts.of("lab")}
    bases = [(f["recipient"], f, f"{f['kind']} from {f['payer']}") for f in facts.of("money")
             if f["recipient"] in only and f["kind"] in REVENUE_KINDS and f["payer"] not in labs]
    bases += [(f["org"], f, f"a sale of {f['what']} to {f['customer']}") for f in facts.of("sells")
              if f["org"] in only and f["what"] in PAID_SALES and f["customer"] not in labs]
    seen = {}
    for o, row, what in sorted(bases, key=lambda b: b[1].loc):
        seen.setdefault(o, (row, what))
    out = []
    for o, (row, what) in seen.items():
        org = only[o]
        out.append(Diagnostic(org.loc.file, org.loc.line, org.loc.col, "W122",
                              f"org {o} states revenue=labs-only (lab revenue is the only revenue it discloses, F.5), "
                              f"but {row.loc} discloses {what}, not a lab: a base other than labs, so F.5 does not "
                              "read revenue=labs-only (lab fees beside it are F.3's); drop the attribute or correct "
                              "the row"))
    return out


def idle_diversified(facts: FactSet) -> List[Diagnostic]:
    """W123: ``diversified`` on a ``stake`` or ``invest`` that is not an org's own holding of a lab (what
    X.5's ``own_lab_holding`` reads), at the statement.

        >>> from provlog.facts import load_text
        >>> w = load_text('lab acme "A"\\nentity fd "F" kind=fund\\nstake fd acme 1% diversified\\n', "w.facts")
        >>> [(d.code, d.line) for d in idle_diversified(w)]
        [('W123', 3)]
    """
    orgs, labs = {f["id"] for f in facts.of("org")}, {f["id"] for f in facts.of("lab")}
    out = []
    for kind, holder, subject in (("stake", "holder", "subject"), ("invest", "investor", "target")):
        for f in facts.of(kind):
            if "diversified" not in f.flags or (f[holder] in orgs and f[subject] in labs):
                continue
            why = f"{f[holder]} is not an org" if f[holder] not in orgs else f"{f[subject]} is not a lab"
            out.append(Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W123",
                                  f"{kind} {f[holder]} {f[subject]} is flagged diversified, but {why}: X.5 reads "
                                  "the flag only on an org's own holding of a lab (its own funds, X cap 2; in a "
                                  "diversified portfolio, cap 3), so it changes nothing; correct the holder or drop "
                                  "the flag"))
    return out


def stale_letters(world) -> List[Diagnostic]:
    """W130: a subject's letter moved since the one its latest contact records (``letter=``): its digest
    (queries/letters.py: card, evidence, document requests, roles) is not the one sent."""
    from .outreach import digests
    from .windows import state

    marked = {c["subject"] for c in world.facts.of("contact") if c["letter"]}
    if not marked:
        return []
    now = digests(world, people=any(world.facts.nodes[s].kind == "person" for s in marked))
    out = []
    for s in sorted(marked):
        w = state(world, s)
        if w.letter and now.get(s) != w.letter:
            f = next(c for c in world.facts.of("contact") if str(c.loc) == w.loc)
            out.append(Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W130",
                                  f"the letter sent to {s} on {w.sent} is stale: its card, evidence, document requests "
                                  f"or roles moved since (letter now {now.get(s)}); write it again with provlog "
                                  "outreach --only " + s))
    return out


def candidate_results(world) -> List[Diagnostic]:
    """W131: a candidate whose recorded result is not the one section 11 derives at the as-of date."""
    from .candidates import candidates

    out = []
    for c in candidates(world):
        if not c["agrees"]:
            f = next(x for x in world.facts.of("candidate") if x["id"] == c["id"])
            why = f"derived {c['derived']}"
            if c["criterion"] == "system-card" and c["derived"] != "out-of-scope":
                within = "within" if c["derived"] == "included" else "not within"
                why = f"its citation ({c['cited']}, dated {c['cited_date']}) is {within} the 24 months up to {world.as_of}"
            out.append(Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W131",
                                  f"candidate {c['id']} is recorded result={c['result']}, but {why}: "
                                  f"section 11 gives {c['derived']}"))
    return out


def uncited_signals(facts: FactSet) -> List[Diagnostic]:
    """W100: recorded signals with neither a ``cite`` nor ``src=``."""
    cited = {f["signal"] for f in facts.of("cite")}
    return [Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W100",
                       f"signal {f['id']} cites no source: add `cite {f['id']} <source>` or src=<source>; "
                       "until then no policy admits it and it sets no bound")
            for f in facts.of("signal") if not f.src and f["id"] not in cited]


def unknown_goal_constants(world) -> List[Diagnostic]:
    """W110: quoted constants of ``expect holds|fails`` goals that name nothing in the world or its rulebook."""
    out = []
    for f in world.facts.of("expect"):
        if f["what"] not in ("holds", "fails"):
            continue
        try:
            notes = world.goal_notes(f["goal"], f["rulebook"])
        except ProvlogError:  # an unknown rulebook: the expect itself fails, saying so, under `provlog test`
            continue
        out += [Diagnostic(f.loc.file, f.loc.line, f.loc.col, "W110", f"goal constant {note}") for note in notes]
    return out
