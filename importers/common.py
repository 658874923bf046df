"""What both importers share: register records joined to a world's ids, shares and dates in the fact language.

    >>> norm("Veridane Systems, Inc."), norm("VERIDANE SYSTEMS")
    ('veridane systems', 'veridane systems')
    >>> pct(25), pct(12.5), share({"minimum": 75, "exclusiveMaximum": 100}), share({"exclusiveMaximum": 5})
    ('25%', '12.5%', '75-100%', '<5%')
    >>> share({"exact": 20}), share({"minimum": 20}), share({"exclusiveMinimum": 50}), share({})
    ('20%', '>=20%', '>50%', None)
    >>> number("1E+100000000")
    Traceback (most recent call last):
    ...
    provlog.importers.common.Unwritable: '1E+100000000' has more than 30 characters written out (the fact language's limit)
"""
from __future__ import annotations

import re
import shutil
import tempfile
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from ..facts import LoadError, load_world
from ..facts.values import MAX_NUMBER, show
from .records import ImportFailure, Record

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
            if not key:  # a name of no Latin letter or digit compares with nothing
                continue
            if key in found and found[key][0] != f["id"]:
                shared.add(key)
            found[key] = (f["id"], f.kind)
    for key in shared:
        del found[key]
    return found


def join_by_name(candidates: Iterable[Tuple[str, Record, str, bool]], names: Dict[str, Tuple[str, str]],
                 report) -> Dict[str, Tuple[str, str]]:
    """The register records that take a world id: record id -> (world id, kind).

    ``candidates`` are (record id, its record, its name, is it a person). A
    person record joins a world person, an entity record a lab, org or entity,
    by compared name; and only a record that alone has that name: two register
    records are never made one node. Each near miss is in the report.
    """
    by_world: Dict[Tuple[str, str], List[Tuple[str, Record]]] = {}
    for rid, rec, name, person in candidates:
        known = names.get(norm(name)) if norm(name) else None
        if known is None:
            continue
        if (known[1] == "person") != person:
            report.leave(f"{'a person' if person else 'an entity'} record with the name of the world's {known[1]} "
                         f"{known[0]}: not joined (a person joins only a person)", rec)
            continue
        by_world.setdefault(known, []).append((rid, rec))
    joins = {}
    for known, recs in by_world.items():
        if len(recs) == 1:
            joins[recs[0][0]] = known
            report.matched[recs[0][0]] = known[0]
            continue
        for rid, rec in recs:
            report.leave(f"{len(recs)} register records have the name of the world's {known[0]}: none takes its id "
                         f"(each is its own node; a record joins by name only when it alone has it)", rec)
    return joins


class Unwritable(ValueError):
    """A value the fact language cannot write as a number: not one, not finite, or too long."""


def number(x) -> str:
    """A number (JSON's, or text) as the fact language writes it: no exponent, no trailing zeros."""
    try:
        d = Decimal(str(x).strip())
    except InvalidOperation:
        raise Unwritable(f"{show(str(x), 20)} is not a number") from None
    if not d.is_finite():
        raise Unwritable(f"{show(str(x), 20)} is not a finite number")
    # bound the exponent before writing it out: 1E+100000000 is a hundred million digits
    s = format(d.normalize(), "f") if abs(d.adjusted()) <= MAX_NUMBER else ""
    if not s or len(s) > MAX_NUMBER:
        raise Unwritable(f"{show(str(x), 20)} has more than {MAX_NUMBER} characters written out "
                         f"(the fact language's limit)")
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
