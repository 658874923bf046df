"""What the RULES put on a card beside its values (issue 40, part 4), read from a derivation:

* ``tags``: the mechanism of access and publication. A.1 "Access is recorded as revocable unless
  A.2 applies; the mechanism tag on the card says so"; A.2 "the card tags it statutory"; R.4 "The
  card tags the mechanism statutory so it is not read as a lab holding the pen". A tag reads the
  signals admissible under the card's policy: an A.2 (R.4) signal tags A (R) statutory; any other
  access above 0 is revocable; an unevidenced A, or an A of 0 (no engagement), has no tag.
* ``requests``: X.1 "the card carries a document request" while a product is sold only to parties
  that are not labs (the derived X.1 cap 2), phrased as a request for a document (section 12).
* ``recorded``: F.4b "A documented firewall and a public disclosure are recorded on the card and lift
  nothing": the ``restricted``, ``firewall`` and ``disclosed`` flags of the money an F.4b cap rests on.
* ``lifts``: the recorded caps a stated policy lifts (P.3's cooling-off rule) or raises (R.6's
  disclosure policy: cap 3), with the policy they rest on (logic/lifts.py).

Requests, recorded notes and lifts do not depend on the policy: they say what the record holds.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .records import Remark, Tag

#: (dimension, clause, tag): a signal admissible under the policy naming the clause tags the dimension.
STATUTORY = (("A", "A.2"), ("R", "R.4"))
#: A.1: access that is not statutory is revocable.
REVOCABLE = ("A", "A.1")
#: X.1's products (logic/structure.py): a sale of one to a party that is not a lab asks for a document.
FIX_PRODUCTS = ("defense", "monitoring", "guardrails")
#: F.4b's notes: a money flag and what it records.
F4B_FLAGS = (("restricted", "is restricted to a division"), ("firewall", "has a documented firewall"),
             ("disclosed", "is publicly disclosed"))
#: The relation of each lift (logic/lifts.py) and the policy fact it rests on.
LIFTS = (("P.3", "p3_lift"), ("R.6", "disclosed_funding"))


def _rule(d, signals, sid: str) -> str:
    return d.derived[sid].rule if sid in d.derived else signals[sid]["rule"]


def tags(d, signals, org: str, policy: str, values: Dict[str, Optional[int]]) -> Dict[str, Tag]:
    """The card's mechanism tags under ``policy`` (``signals``: the world's recorded signals by id)."""
    out: Dict[str, Tag] = {}
    for dim, clause in STATUTORY:
        sids = tuple(s for s in d.signal_ids(org, dim) if (s, policy) in d.effective and _rule(d, signals, s) == clause)
        if sids:
            out[dim] = Tag(dim, "statutory", clause, sids)
    dim, clause = REVOCABLE
    if dim not in out and values.get(dim):
        out[dim] = Tag(dim, "revocable", clause, ())
    return out


def requests(d, facts_by_fid, org: str) -> List[Remark]:
    """X.1's document requests: one per derived X.1 cap 2 (a fix product sold to a party that is not a lab)."""
    out = []
    for sid in sorted(s for s in d.signal_ids(org, "X") if s in d.derived):
        sig = d.derived[sid]
        if sig.rule != "X.1" or sig.bound != 2:
            continue
        f = facts_by_fid[sig.key]
        out.append(Remark("request", "X.1", sid, "X", (
            f"X.1: a document naming the customers of {org}'s {f['what']}: it is sold to {f['customer']}, not a lab "
            f"({f.loc}); X caps at 2 until a lab customer is documented"), 2))
    return out


def recorded(d, facts_by_fid, org: str) -> List[Remark]:
    """F.4b's firewall and disclosure notes, for every F.4b cap on ``org``'s F."""
    out = []
    for sid in sorted(s for s in d.signal_ids(org, "F") if s in d.derived and d.derived[s].rule == "F.4b"):
        sig = d.derived[sid]
        m = facts_by_fid[sig.key]
        for flag, words in F4B_FLAGS:
            if flag in m.flags:
                out.append(Remark("recorded", "F.4b", sid, "F", (
                    f"F.4b: {m['payer']}'s {m['kind']} to {org} ({m.loc}) {words}: recorded on the card, "
                    f"it lifts nothing (F cap {sig.bound} stands)"), sig.bound))
    return out


def lifts(d, facts_by_fid, org: str, stated: Dict[str, Tuple[str, int]]) -> List[Remark]:
    """The recorded caps of ``org`` that P.3 lifts or R.6 raises (``stated``: signal -> its stated bound)."""
    out = []
    for clause, relation in LIFTS:
        dim = clause[0]
        policies = [facts_by_fid[r[1]] for r in d.program.match(relation, 2, [(0, org)])]
        if not policies:
            continue
        said = ", ".join(sorted(f"`policy {org} {p['policy']}`" + (f" since {p['since']}" if p["since"] else "")
                                + f" ({p.loc})" for p in policies))
        for sid in d.signal_ids(org, dim):
            kind, n = stated.get(sid, (None, None))
            if kind != "cap":
                continue
            if clause == "P.3" and clause in d.informational.get(sid, ()):
                out.append(Remark("lift", clause, sid, dim, f"P.3: {sid}'s cap {n} is lifted by {said}", None))
            elif clause == "R.6":
                for _, c, b in d.program.match("raised", 3, [(0, sid)]):
                    out.append(Remark("lift", clause, sid, dim,
                                      f"R.6: {sid}'s cap {n} is {b} after the disclosure policy {said}", b))
    return out
