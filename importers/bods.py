"""BODS 0.4 in: entity, person and relationship records as provlog statements.

Each statement is validated against the BODS 0.4 schema that libcovebods
ships; the latest statement of each record (by statementDate) stands, a
closed relationship ends its stake; every written statement cites a source
made from the BODS statement it came from, whose title names the statement
id, the record id and the file:line of its JSON. docs/import.md has the
mapping field by field.

    >>> from provlog.importers.bods import import_bods         # doctest: +SKIP
    >>> print(import_bods(["register.json"], "out").render())  # doctest: +SKIP
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import records as R
from .common import day, norm, share, world_names
from .world import Report, WorldOut, quote, slug, stable_id

#: entityType.type -> entity kind=
ENTITY_KINDS = {"registeredEntity": "company", "legalEntity": "company", "arrangement": "other",
                "anonymousEntity": "other", "unknownEntity": "other", "state": "public", "stateBody": "public"}
#: interests a person holds as a role: interest type -> role
ROLES = {"boardMember": "board", "boardChair": "board", "seniorManagingOfficial": "executive"}
#: interests that are equity (F.1 counts equity, voting or not)
EQUITY = ("shareholding",)


@lru_cache(maxsize=1)
def _validator():
    """The BODS 0.4 statement schema, as libcovebods ships it, with its $refs resolved."""
    from pathlib import Path as P

    import libcovebods
    from jsonschema import Draft202012Validator, FormatChecker
    from libcovebods.schema_dir import schema_registry

    folder = P(libcovebods.__file__).parent / "data" / "schema-0-4-0"
    registry = schema_registry(str(folder))
    statement = registry.contents("urn:statement")["$defs"]["Statement"]
    schema = dict(statement, **{"$id": "urn:provlog-statement"})
    schema["$defs"] = registry.contents("urn:statement")["$defs"]
    return Draft202012Validator(schema, registry=registry, format_checker=FormatChecker())


def validate(rec: R.Record) -> List[str]:
    """Located schema errors of one statement (empty when it is valid BODS 0.4)."""
    out = []
    for e in sorted(_validator().iter_errors(rec.data), key=lambda e: list(map(str, e.path))):
        at = "/".join(map(str, e.path)) or "the statement"
        out.append(f"{rec.where}: statement {rec.data.get('statementId', '?')}: {at}: {e.message} (BODS 0.4 schema)")
    return out


def _latest(recs: Iterable[R.Record]) -> Dict[str, List[R.Record]]:
    """Statements by record id, oldest first (statementDate, then publication date, then order read)."""
    by: Dict[str, List[Tuple]] = defaultdict(list)
    for n, r in enumerate(recs):
        d = r.data
        by[d["recordId"]].append((str(d.get("statementDate", "")),
                                  str((d.get("publicationDetails") or {}).get("publicationDate", "")), n, r))
    return {k: [t[-1] for t in sorted(v, key=lambda t: t[:3])] for k, v in by.items()}


def _person_name(details: dict) -> str:
    for n in details.get("names") or []:
        if n.get("fullName"):
            return n["fullName"]
        parts = [n.get(k) for k in ("givenName", "familyName") if n.get(k)]
        if parts:
            return " ".join(parts)
    why = (details.get("unspecifiedPersonDetails") or {}).get("reason")
    kind = {"anonymousPerson": "Anonymous person", "unknownPerson": "Unknown person"}.get(details.get("personType"), "Unnamed person")
    return f"{kind} ({why})" if why else kind


def _entity_name(details: dict) -> str:
    if details.get("name"):
        return details["name"]
    why = (details.get("unspecifiedEntityDetails") or {}).get("reason")
    kind = (details.get("entityType") or {}).get("type", "entity")
    return f"Unnamed {kind}" + (f" ({why})" if why else "")


class _Mapper:
    def __init__(self, report: Report, names: Dict[str, Tuple[str, str]]):
        self.report = report
        self.names = names
        self.out = WorldOut("Imported from BODS 0.4 by `provlog import bods` (docs/import.md).\n"
                            "Each statement cites a source naming its BODS statement and file:line.")
        self.ids: Dict[str, Tuple[str, str]] = {}  # record id -> (provlog id, kind)

    # -- sources -----------------------------------------------------------------------------------
    def source(self, rec: R.Record) -> str:
        d = rec.data
        pub = (d.get("publicationDetails") or {}).get("publisher") or {}
        pname = pub.get("name") or pub.get("url") or "unnamed publisher"
        pid = stable_id("publisher", pname, pname)
        self.out.add("entities", "entity", pid, f"entity {pid} {quote(pname)} kind=other")
        # the record id reads in every `why` that ends here; the statement's hash keeps updates apart
        sid = f"bods-{slug(d['recordId'], 24)}-" + stable_id("statement", d["statementId"])[len("statement-"):]
        title = f"BODS statement {d['statementId']}, record {d['recordId']} ({rec.where})"
        date = day(d.get("statementDate"))
        self.out.add("sources", "source", sid, f"source {sid} {quote(title)} publisher={pid} status=imported"
                     + (f" date={date}" if date else ""))
        return sid

    # -- entities and people -------------------------------------------------------------------------
    def node(self, recs: List[R.Record]) -> None:
        last = recs[-1]
        d, details = last.data, last.data.get("recordDetails") or {}
        rid = d["recordId"]
        person = d["recordType"] == "person"
        name = _person_name(details) if person else _entity_name(details)
        if d.get("recordStatus") == "closed":
            self.report.leave("closed entity or person records: declared as last stated (ties to them may end)", last.where)
        known = self.names.get(norm(name)) if name and not name.startswith(("Unnamed", "Anonymous", "Unknown")) else None
        if known:
            self.ids[rid] = known
            self.report.matched[rid] = known[0]
            return
        pid = stable_id("bods", rid, name)
        if person:
            self.ids[rid] = (pid, "person")
            self.out.add("entities", "person", pid, f"person {pid} {quote(name)} src={self.source(last)}")
        else:
            kind = ENTITY_KINDS.get((details.get("entityType") or {}).get("type"), "other")
            self.ids[rid] = (pid, "entity")
            self.out.add("entities", "entity", pid, f"entity {pid} {quote(name)} kind={kind} src={self.source(last)}")

    def placeholder(self, rec: R.Record, side: str, unspecified: dict) -> str:
        """An entity standing for an interested party the register does not name."""
        why = unspecified.get("reason", "unspecified")
        pid = stable_id("bods-unspecified", f"{rec.data['recordId']}/{side}", f"unspecified {why}")
        self.out.add("entities", "entity", pid,
                     f"entity {pid} {quote(f'Unspecified {side} ({why})')} kind=other src={self.source(rec)}")
        self.report.leave(f"unspecified {side} ({why}): written as a placeholder entity", rec.where)
        return pid

    # -- relationships ---------------------------------------------------------------------------
    def relationship(self, recs: List[R.Record], chains: "_Chains") -> None:
        """A relationship's latest live statement as a stake and roles; closed: ended on the closing date."""
        last = recs[-1]
        live = next((r for r in reversed(recs) if r.data.get("recordStatus") != "closed"), None)
        if live is None:
            self.report.leave("relationship closed in its first statement: nothing to state", last.where)
            return
        ends = self._ends(live)
        if ends is None:
            return
        details = live.data.get("recordDetails") or {}
        interests = details.get("interests") or []
        if not interests:
            self.report.leave("relationship with no interests stated", live.where)
            return
        if details.get("componentRecords"):
            # An indirect relationship with its components: provlog derives the look-through from them.
            self.report.leave("indirect relationship with component records: derived from its components", live.where)
            return
        until = day(last.data.get("statementDate")) if last.data.get("recordStatus") == "closed" else None
        equity = [i for i in interests if i.get("type") in EQUITY]
        if equity:
            self._stake(live, equity, {i.get("type") for i in interests}, ends, until, chains)
        for i in interests:
            t = i.get("type")
            if t in EQUITY or (t == "votingRights" and equity):  # the stake carries `voting`
                continue
            if t in ROLES:
                self._role(live, i, ends, until)
                continue
            reason = ("votingRights without a shareholding: control, not equity (F.1 counts equity)"
                      if t == "votingRights" else f"interest {t}: no provlog statement for it" if t
                      else "interest with no type")
            self.report.leave(reason, live.where)

    def _ends(self, live: R.Record) -> Optional[Tuple[str, str, str]]:
        """(subject id, interested party id, its kind); None (counted) where either is not in the import."""
        details = live.data.get("recordDetails") or {}
        subject, party = details.get("subject"), details.get("interestedParty")
        if isinstance(subject, dict) or subject not in self.ids:
            self.report.leave("relationship whose subject is unspecified or not in the import", live.where)
            return None
        if isinstance(party, dict):
            return self.ids[subject][0], self.placeholder(live, "interested party", party), "entity"
        if party not in self.ids:
            self.report.leave("relationship whose interested party is not in the import", live.where)
            return None
        return (self.ids[subject][0],) + self.ids[party]

    @staticmethod
    def _dates(interest: dict, until: Optional[str]) -> str:
        since, end = day(interest.get("startDate")), day(interest.get("endDate")) or until
        return (f" since={since}" if since else "") + (f" until={end}" if end else "")

    def _stake(self, live: R.Record, equity: List[dict], types: set, ends, until, chains: "_Chains") -> None:
        sid, hid, _ = ends
        current = sorted(equity, key=lambda i: (i.get("endDate") is None, str(i.get("startDate", ""))))[-1]
        for older in equity:
            if older is not current:
                self.report.leave("an earlier shareholding of the same pair (one stake per holder and subject)", live.where)
        indirect = current.get("directOrIndirect") == "indirect"
        if indirect and (hid, sid) in chains:
            self.report.leave("indirect shareholding already stated by direct ones", live.where)
            return
        amount = share(current.get("share") or {})
        if amount is None:
            self.report.leave("shareholding with no share given", live.where)
            return
        flags = " voting" if "votingRights" in types else ""
        text = f"stake {hid} {sid} {amount}{flags}{self._dates(current, until)} src={self.source(live)}"
        if not self.out.add("structure", "stake", f"{hid} {sid}", text):
            self.report.leave("a second relationship with a shareholding for the same pair", live.where)
        if indirect:
            self.report.leave("indirect shareholding with no components: stated as held", live.where)

    def _role(self, live: R.Record, interest: dict, ends, until) -> None:
        sid, hid, hkind = ends
        t = interest.get("type")
        if hkind != "person":
            self.report.leave(f"{t} held by an entity (roles are people's)", live.where)
            return
        text = f"role {hid} {ROLES[t]} {sid}{self._dates(interest, until)} src={self.source(live)}"
        self.out.add("structure", "role", f"{hid} {ROLES[t]} {sid}", text)


class _Chains:
    """Direct shareholdings as a graph: does a chain of them lead from a holder to a subject?"""

    def __init__(self, rels: Dict[str, List[R.Record]], ids):
        self.next: Dict[str, set] = defaultdict(set)
        for recs in rels.values():
            det = recs[-1].data.get("recordDetails") or {}
            s, p = det.get("subject"), det.get("interestedParty")
            if isinstance(s, str) and isinstance(p, str) and s in ids and p in ids and any(
                    i.get("type") in EQUITY and i.get("directOrIndirect") == "direct" for i in det.get("interests") or []):
                self.next[ids[p][0]].add(ids[s][0])

    def __contains__(self, pair) -> bool:
        holder, subject = pair
        seen, todo = {holder}, [holder]
        while todo:  # each node once: cycles end
            for n in self.next.get(todo.pop(), ()):
                if n == subject:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False


def collect(paths: Sequence, report: Report, skip_bad: bool, records: Optional[Iterable[R.Record]] = None) -> List[R.Record]:
    """Read and validate every statement; a bad one stops the import unless ``skip_bad``."""
    good, bad = [], []
    for rec in records if records is not None else (r for p in R.files(paths) for r in R.read(p)):
        errs = validate(rec)
        if errs:
            bad.extend(errs)
            continue
        report.read[rec.data["recordType"]] += 1
        good.append(rec)
    if bad and not skip_bad:
        raise R.ImportFailure(bad, f"{len(bad)} schema errors; nothing was written (--skip-bad leaves bad records out)")
    report.skipped.extend(bad)
    return good


def import_bods(paths: Sequence, out, world=None, within: Optional[int] = None, skip_bad: bool = False) -> Report:
    """Import BODS 0.4 JSON (arrays) or JSON Lines into the `.facts` folder ``out``.

    ``world``: the world the import joins (its labs, orgs, entities and people
    are matched by name and keep their ids; the output is checked beside it).
    ``within``: keep only records within that many relationship links of the
    world's names (read through DuckDB: :mod:`.register`).
    """
    report = Report(out=str(out))
    names = world_names(Path(world), Path(out)) if world is not None else {}
    recs = None
    if within is not None:
        if world is None:
            raise R.ImportFailure(["--within needs --world: the links are counted from the world's orgs and labs"])
        from .register import select_bods

        recs, report.kept = select_bods(R.files(paths), set(names), within)
    good = collect(paths, report, skip_bad, recs)
    by = _latest(good)
    m = _Mapper(report, names)
    for rid, rs in sorted(by.items()):
        if rs[-1].data["recordType"] in ("entity", "person"):
            m.node(rs)
    rels = {rid: rs for rid, rs in by.items() if rs[-1].data["recordType"] == "relationship"}
    chains = _Chains(rels, m.ids)
    for rid, rs in sorted(rels.items()):
        m.relationship(rs, chains)
    m.out.write(Path(out), Path(world) if world is not None else None)
    report.written = m.out.count()
    return report
