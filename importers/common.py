"""What both importers share: names matched to a world's ids, shares and dates in the fact language.

    >>> norm("Veridane Systems, Inc."), norm("VERIDANE SYSTEMS")
    ('veridane systems', 'veridane systems')
    >>> pct(25), pct(12.5), share({"minimum": 75, "exclusiveMaximum": 100}), share({"exclusiveMaximum": 5})
    ('25%', '12.5%', '75-100%', '<5%')
    >>> share({"exact": 20}), share({"minimum": 20}), share({"exclusiveMinimum": 50}), share({})
    ('20%', '>=20%', '>50%', None)
"""
from __future__ import annotations

import re
import shutil
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Dict, Optional, Tuple

from ..facts import LoadError, load_world
from .records import ImportFailure

#: Legal-form words dropped before names are compared (a register writes "Ltd", a curator may not).
LEGAL_FORMS = ("ltd", "limited", "inc", "incorporated", "llc", "llp", "plc", "gmbh", "ag", "sa", "sas", "bv", "nv",
               "corp", "corporation", "co", "company", "pbc", "lp")
_FORMS = re.compile(r"(?: (?:" + "|".join(LEGAL_FORMS) + r"))+\Z")


def norm(name: str) -> str:
    """A name as compared with the world's: lower case, words only, legal forms dropped."""
    s = " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split())
    return _FORMS.sub("", s) or s


def world_names(world: Path, out: Path) -> Dict[str, Tuple[str, str]]:
    """The world's labs, orgs, entities and people by compared name: norm(name) -> (id, kind).

    The world is read without the import's own output folder (a re-import
    replaces it). A name two of them share matches neither (the import then
    declares its own).
    """
    found: Dict[str, Tuple[str, str]] = {}
    shared = set()
    with tempfile.TemporaryDirectory(prefix="provlog-import-world.") as tmp:
        copy_world(world, Path(tmp) / "world", skip=(Path(out).resolve(),))
        try:
            facts = load_world(Path(tmp), root=Path(tmp))
        except LoadError as e:
            raise ImportFailure([f"the world {world} does not load; fix it first (provlog check)",
                                 e.render().replace("world/", f"{world}/" if world.is_dir() else "")]) from None
    for f in facts:
        if f.kind in ("lab", "org", "entity", "person"):
            key = norm(f["name"])
            if key in found and found[key][0] != f["id"]:
                shared.add(key)
            found[key] = (f["id"], f.kind)
    for key in shared:
        del found[key]
    return found


def number(x) -> str:
    """A JSON number as the fact language writes it (no exponent, no trailing zeros)."""
    d = Decimal(str(x)).normalize()
    s = format(d, "f")
    return s


def pct(x) -> str:
    return f"{number(x)}%"


def share(s: dict) -> Optional[str]:
    """A BODS share object as a percentage: exact, a-b, >=a, >a, <b, 0-b (None if nothing is known).

    A range with an exclusive end is written with that end included: the fact
    language's ranges are closed; that can matter only where a rule's threshold
    is that very end (docs/import.md, "Shares").
    """
    if s.get("exact") is not None:
        return pct(s["exact"])
    low = s.get("minimum", s.get("exclusiveMinimum"))
    high = s.get("maximum", s.get("exclusiveMaximum"))
    if low is not None and high is not None:
        return pct(low) if Decimal(str(low)) == Decimal(str(high)) else f"{number(low)}-{number(high)}%"
    if low is not None:
        return f">{number(low)}%" if "minimum" not in s else f">={number(low)}%"
    if high is not None:
        return f"<{number(high)}%" if "maximum" not in s else f"0-{number(high)}%"
    return None


def day(text: Optional[str]) -> Optional[str]:
    """A date (or date-time) as YYYY-MM-DD, YYYY-MM or YYYY; None when it is not one."""
    if not text:
        return None
    m = re.match(r"([0-9]{4})(-[0-9]{2})?(-[0-9]{2})?", str(text))
    return "".join(g for g in m.groups() if g) if m else None


def copy_world(world: Path, to: Path, skip: Tuple[Path, ...] = ()) -> None:
    """A world's .facts files, as laid out, into ``to`` (leaving out the folders in ``skip``)."""
    world = Path(world)
    if world.is_file():
        to.mkdir(parents=True)
        shutil.copy(world, to / world.name)
        return
    for p in sorted(world.rglob("*.facts")):
        rp = p.resolve()
        if any(rp == s or s in rp.parents for s in skip):
            continue
        dest = to / p.relative_to(world)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, dest)
