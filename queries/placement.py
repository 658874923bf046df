"""List placement on the public site (RULES section 10 and section 0 "Bands").

"List placement on the site: independent referees; government institutes;
commercial and first-party (vendors, lab units, lab-funded consortia)." A
benchmark "is placed in a list by its owner's type (academic and nonprofit
with referees; consortia funded by member labs with commercial and
first-party)". Out-of-scope orgs (D-001) are "shown in their own section";
expected entrants are "watchlist only, never ranked"; an org that matches no
role is shown apart as unclassified. "The band sorts first."
"""
from __future__ import annotations

from typing import Dict, List

#: the three ranked lists, in the RULES' order, then the sections shown apart
GROUPS = ("referees", "government", "commercial")
APART = ("unclassified", "watchlist", "out-of-scope")
TITLES = {"referees": "Independent referees", "government": "Government institutes",
          "commercial": "Commercial and first-party", "unclassified": "Unclassified",
          "watchlist": "Expected entrants (watchlist)", "out-of-scope": "Out of scope"}
#: band order: clear first, disqualifying last
BANDS = ("clear", "conditional", "disqualifying")
ROLE_GROUP = {"referee": "referees", "government": "government", "vendor": "commercial",
              "first-party": "commercial", "entrant": "watchlist", "unclassified": "unclassified"}
#: the owner types whose benchmarks sit with the referees (section 10, "Benchmark or consortium")
REFEREE_TYPES = ("academic", "nonprofit", "pbc")


def group(role: str, org_type: str, status: str) -> str:
    """The site list of an org of derived ``role``, declared ``org_type`` and ``status``.

    >>> group("benchmark", "academic", "in-scope"), group("benchmark", "consortium", "in-scope")
    ('referees', 'commercial')
    >>> group("referee", "nonprofit", "out-of-scope")
    'out-of-scope'
    """
    if status == "out-of-scope":
        return "out-of-scope"
    if role == "benchmark":
        return "referees" if org_type in REFEREE_TYPES else "commercial"
    return ROLE_GROUP.get(role, "unclassified")


def band_rank(band: str) -> int:
    return BANDS.index(band) if band in BANDS else len(BANDS)


def place(rows: List[Dict]) -> List[Dict]:
    """Rows (dicts with group, band, name, org) into sections in site order, each sorted band first
    (then by name, the order before a reader chooses weights)."""
    out = []
    for g in GROUPS + APART:
        mine = sorted((r for r in rows if r["group"] == g), key=lambda r: (band_rank(r["band"]), r["name"], r["org"]))
        if mine or g in GROUPS:
            out.append({"group": g, "title": TITLES[g], "ranked": g in GROUPS, "rows": mine})
    return out
