"""The public site's lists, shown in order (RULES section 10 and section 0 "Bands").

Which list an org is in is derived (logic/population.py ``placed``, clauses 10 and 11:
``World.placement``); this module only titles and orders them: "List placement on the site:
independent referees; government institutes; commercial and first-party", then the sections shown
apart (unclassified, the entrants' watchlist, out of scope). "The band sorts first."

    >>> [s["group"] for s in place([{"group": "watchlist", "band": "clear", "name": "E", "org": "e"}])]
    ['referees', 'government', 'commercial', 'watchlist']
"""
from __future__ import annotations

from typing import Dict, List

from ..logic.population import APART, RANKED as GROUPS

TITLES = {"referees": "Independent referees", "government": "Government institutes",
          "commercial": "Commercial and first-party", "unclassified": "Unclassified",
          "watchlist": "Expected entrants (watchlist)", "out-of-scope": "Out of scope"}
#: band order: clear first, disqualifying last
BANDS = ("clear", "conditional", "disqualifying")


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
