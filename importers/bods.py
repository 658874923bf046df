"""BODS 0.4 in: entity, person and relationship records as provlog statements.

Identity is the register's: a record (its recordId) is one node, never merged
with another by name, and a statement (its statementId) is one source. Each
statement is validated against the BODS 0.4 schema that libcovebods ships,
then across records (one recordId is one kind of record; a relationship's
subject is an entity). The latest statement of each record (by statementDate)
stands, a closed relationship ends its stake; every written statement cites
the source made from its own record's statement, whose title names the
statement id, the record id and the file:line of its JSON. docs/import.md has
the mapping field by field.

    >>> from provlog.importers.bods import import_bods         # doctest: +SKIP
    >>> print(import_bods(["register.json"], "out").render())  # doctest: +SKIP
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import records as R
from .common import Unwritable, day, join_by_name, share
from .world import Refusal, Report, WorldOut, begin, digest, finish, quote, slug, stable_id

#: entityType.type -> entity kind=
ENTITY_KINDS = {"registeredEntity": "company", "legalEntity": "company", "arrangement": "other",
                "anonymousEntity": "other", "unknownEntity": "other", "state": "public", "stateBody": "public"}
#: interests a person holds as a role: interest type -> role
ROLES = {"boardMember": "board", "boardChair": "board", "seniorManagingOfficial": "executive"}
#: interests that are equity (F.1 counts equity, voting or not)
EQUITY = ("shareholding",)
#: BODS 0.4 name types (the nameType codelist), in the order a person's name is chosen: the legal name;
#: else an untyped one; else the legal name translated or transliterated; else one the person is known by
#: now; else a past one (birth, former). The others are kept beside it as a comment.
NAME_ORDER = ("legal", None, "translation", "transliteration", "alternative", "birth", "former")
#: personType / entityType of a record whose identity is withheld or not known: named by its type and reason
UNNAMED = {"anonymousPerson": "Anonymous person", "unknownPerson": "Unknown person",
           "anonymousEntity": "Anonymous entity", "unknownEntity": "Unknown entity"}


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


def _rid(rec: R.Record) -> Optional[str]:
    rid = rec.data.get("recordId")
    return rid if isinstance(rid, str) else None


def validate(rec: R.Record) -> List[Refusal]:
    """Located schema errors of one statement (empty when it is valid BODS 0.4)."""
    try:
        errors = sorted(_validator().iter_errors(rec.data), key=lambda e: list(map(str, e.path)))
    except RecursionError:
        return [Refusal(rec.where, _rid(rec), "the statement is nested too deep to validate")]
    return [Refusal(rec.where, _rid(rec), f"statement {rec.data.get('statementId', '?')}: "
                                          f"{'/'.join(map(str, e.path)) or 'the statement'}: {e.message} (BODS 0.4 schema)")
            for e in errors]


def _latest(recs: Iterable[R.Record]) -> Dict[str, List[R.Record]]:
    """Statements by record id, oldest first (statementDate, then publication date, then order read)."""
    by: Dict[str, List[Tuple]] = defaultdict(list)
    for n, r in enumerate(recs):
        d = r.data
        by[d["recordId"]].append((str(d.get("statementDate", "")),
                                  str((d.get("publicationDetails") or {}).get("publicationDate", "")), n, r))
    return {k: [t[-1] for t in sorted(v, key=lambda t: t[:3])] for k, v in by.items()}


def _live(recs: List[R.Record]) -> R.Record:
    """The statement a record is mapped from: its latest that is not a closing one (else its latest)."""
    return next((r for r in reversed(recs) if r.data.get("recordStatus") != "closed"), recs[-1])


def _full(n: dict) -> str:
    return n.get("fullName") or " ".join(n[k] for k in ("givenName", "patronymicName", "familyName") if n.get(k))


def person_names(details: dict) -> List[Tuple[str, Optional[str]]]:
    """Every (name, type) of a person, the one to write first (NAME_ORDER; the order listed within a type).

    >>> person_names({"names": [{"type": "former", "fullName": "Dana Vole"}, {"type": "legal", "fullName": "Dana Quill"}]})
    [('Dana Quill', 'legal'), ('Dana Vole', 'former')]
    """
    named = [(_full(n), n.get("type")) for n in details.get("names") or [] if isinstance(n, dict) and _full(n)]
    rank = {t: i for i, t in enumerate(NAME_ORDER)}
    return sorted(named, key=lambda nt: rank.get(nt[1], len(NAME_ORDER)))


def names_of(rec: R.Record) -> Tuple[str, List[str], bool]:
    """(the name written, the other names as `"name" (type)`, whether the name stands for a withheld identity)."""
    d, details = rec.data, rec.data.get("recordDetails") or {}
    if d["recordType"] == "person":
        named = person_names(details)
        kind, why = details.get("personType"), (details.get("unspecifiedPersonDetails") or {}).get("reason")
        others = [f"{quote(n)} ({t or 'untyped'})" for n, t in named[1:] if n != named[0][0]] if named else []
        name = named[0][0] if named else ""
    else:
        kind = (details.get("entityType") or {}).get("type")
        why = (details.get("unspecifiedEntityDetails") or {}).get("reason")
        name = details.get("name") or ""
        others = [f"{quote(n)} (alternate)" for n in details.get("alternateNames") or [] if n and n != name]
    if name and kind not in UNNAMED:
        return name, others, False
    what = UNNAMED.get(kind) or ("Unnamed person" if d["recordType"] == "person" else f"Unnamed {kind or 'entity'}")
    return f"{what} ({why + ', ' if why else ''}BODS record {d['recordId']})", ([quote(name) + " (given)"] if name else []) + others, True


def _reason_of(unspecified: dict) -> str:
    return unspecified.get("reason") or "no reason given"


class _Mapper:
    def __init__(self, report: Report, joins: Dict[str, Tuple[str, str]]):
        self.report = report
        self.joins = joins
        self.out = WorldOut("bods", "Imported from BODS 0.4 by `provlog import bods` (docs/import.md).\n"
                                    "Each statement cites a source naming its BODS statement and file:line.")
        self.ids: Dict[str, Tuple[str, str]] = {}  # record id -> (provlog id, kind)

    # -- sources -----------------------------------------------------------------------------------
    @staticmethod
    def source_id(rec: R.Record) -> str:
        """The id of the source made from a statement: its record's slug (read in every `why`), its statement's hash."""
        d = rec.data
        return f"bods-{slug(d['recordId'], 24) or 'record'}-{digest('statement', d['statementId'])}"

    def source(self, rec: R.Record) -> str:
        """Declare the source of one statement (and its publisher); its id."""
        d = rec.data
        pub = (d.get("publicationDetails") or {}).get("publisher") or {}
        pname = pub.get("name") or pub.get("uri") or pub.get("url") or "unnamed publisher"
        pkey = f"{pub.get('name')}\0{pub.get('uri') or pub.get('url')}"
        pid = stable_id("publisher", pkey, pname)
        self.out.declare("entities", "entity", pid, f"publisher {quote(pname)}", f"entity {pid} {quote(pname)} kind=other")
        sid = self.source_id(rec)
        title = f"BODS statement {d['statementId']}, record {d['recordId']} ({rec.where})"
        date = day(d.get("statementDate"))
        self.out.declare("sources", "source", sid, f"statement {d['statementId']} ({rec.where})",
                         f"source {sid} {quote(title)} publisher={pid} status=imported" + (f" date={date}" if date else ""))
        return sid

    # -- entities and people -------------------------------------------------------------------------
    def node(self, recs: List[R.Record]) -> None:
        last = recs[-1]
        rid = last.data["recordId"]
        if last.data.get("recordStatus") == "closed":
            self.report.leave("closed entity or person record: declared as last stated (ties to it may end)", last)
        if rid in self.joins:
            self.ids[rid] = self.joins[rid]
            return
        name, others, _ = names_of(last)
        person = last.data["recordType"] == "person"
        pid = stable_id("bods", rid, name, rid)
        also = f"  # also: {', '.join(others)}" if others else ""
        if others:
            self.report.leave("other names (former, alternative, ...) kept as a comment beside the name written", last)
        if person:
            self.ids[rid] = (pid, "person")
            text = f"person {pid} {quote(name)} src={self.source(last)}{also}"
        else:
            kind = ENTITY_KINDS.get(((last.data.get("recordDetails") or {}).get("entityType") or {}).get("type"), "other")
            self.ids[rid] = (pid, "entity")
            text = f"entity {pid} {quote(name)} kind={kind} src={self.source(last)}{also}"
        self.out.declare("entities", self.ids[rid][1], pid, f"record {rid} ({last.where})", text)

    # -- relationships ---------------------------------------------------------------------------
    def relationship(self, recs: List[R.Record], chains: "_Chains") -> None:
        """A relationship's latest live statement as a stake and roles; closed: ended on the closing date."""
        last, live = recs[-1], _live(recs)
        if live.data.get("recordStatus") == "closed":
            self.report.leave("relationship closed in its first statement: nothing to state", last)
            return
        ends = self._ends(live)
        if ends is None:
            return
        interests = (live.data.get("recordDetails") or {}).get("interests") or []
        if not interests:
            self.report.leave("relationship with no interests stated", live)
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
            self.report.leave(reason, live)

    def _ends(self, live: R.Record) -> Optional[Tuple[str, str, str]]:
        """(subject id, interested party id, its kind); None (reported) where either is unknown or not here."""
        details = live.data.get("recordDetails") or {}
        subject, party = details.get("subject"), details.get("interestedParty")
        if isinstance(subject, dict):
            self.report.leave(f"subject unspecified ({_reason_of(subject)}): nothing written", live)
        elif subject not in self.ids:
            self.report.leave("subject not in the import (import the file that declares it too): nothing written", live)
        elif isinstance(party, dict):
            # BODS: nothing is known of the owners beyond this point, for the reason given. The fact language
            # has no statement for an unknown owner, and a placeholder node would be an owner nobody named.
            self.report.leave(f"interested party unspecified ({_reason_of(party)}): the owner is not known, "
                              "nothing written (docs/import.md, 'Unknown owners')", live)
        elif party not in self.ids:
            self.report.leave("interested party not in the import (import the file that declares it too): "
                              "nothing written", live)
        else:
            return (self.ids[subject][0],) + self.ids[party]
        return None

    @staticmethod
    def _dates(interest: dict, until: Optional[str]) -> str:
        since, end = day(interest.get("startDate")), day(interest.get("endDate")) or until
        return (f" since={since}" if since else "") + (f" until={end}" if end else "")

    def _stake(self, live: R.Record, equity: List[dict], types: set, ends, until, chains: "_Chains") -> None:
        sid, hid, _ = ends
        current = sorted(equity, key=lambda i: (i.get("endDate") is None, str(i.get("startDate", ""))))[-1]
        for older in equity:
            if older is not current:
                self.report.leave("an earlier shareholding of the same pair (one stake per holder and subject)", live)
        indirect = current.get("directOrIndirect") == "indirect"
        # provlog derives the look-through of direct stakes itself: an indirect one they chain would count twice.
        # With componentRecords, only the components' own shareholdings are that chain.
        components = (live.data.get("recordDetails") or {}).get("componentRecords")
        if indirect and chains.chained(hid, sid, set(components) if components else None):
            self.report.leave("indirect shareholding that direct ones " + ("among its components " if components else "")
                              + "chain: not stated (provlog derives the look-through)", live)
            return
        try:
            amount = share(current.get("share") or {})
        except Unwritable as e:
            self.report.leave(f"shareholding whose share the fact language cannot write ({e}): not stated", live)
            return
        if amount is None:
            self.report.leave("shareholding with no share given", live)
            return
        flags = " voting" if "votingRights" in types else ""
        text = f"stake {hid} {sid} {amount}{flags}{self._dates(current, until)} src={self.source_id(live)}"
        if not self.out.add("structure", "stake", f"{hid} {sid}", text):
            self.report.leave("a second relationship with a shareholding for the same holder and subject: "
                              "not stated (provlog keeps one stake per pair; the first by record id stands)", live)
            return
        self.source(live)
        if indirect:
            self.report.leave("indirect shareholding that no direct ones " + ("among its components " if components else "")
                              + "chain: stated as held", live)

    def _role(self, live: R.Record, interest: dict, ends, until) -> None:
        sid, hid, hkind = ends
        t = interest.get("type")
        if hkind != "person":
            self.report.leave(f"{t} held by an entity (roles are people's)", live)
            return
        text = f"role {hid} {ROLES[t]} {sid}{self._dates(interest, until)} src={self.source_id(live)}"
        if self.out.add("structure", "role", f"{hid} {ROLES[t]} {sid}", text):
            self.source(live)
        else:
            self.report.leave(f"{t}: the same role as another interest of the pair (one role statement)", live)


class _Chains:
    """Direct shareholdings as a graph: does a chain of them lead from a holder to a subject?"""

    def __init__(self, rels: Dict[str, List[R.Record]], ids):
        self.next: Dict[str, set] = defaultdict(set)  # holder id -> {(subject id, relationship record)}
        for rid, recs in rels.items():
            det = _live(recs).data.get("recordDetails") or {}
            s, p = det.get("subject"), det.get("interestedParty")
            if isinstance(s, str) and isinstance(p, str) and s in ids and p in ids and any(
                    i.get("type") in EQUITY and i.get("directOrIndirect") == "direct" for i in det.get("interests") or []):
                self.next[ids[p][0]].add((ids[s][0], rid))

    def chained(self, holder: str, subject: str, via: Optional[set] = None) -> bool:
        """Whether direct shareholdings (only those of the records ``via``, when given) lead from holder to subject."""
        seen, todo = {holder}, [holder]
        while todo:  # each node once: cycles end
            for n, rid in self.next.get(todo.pop(), ()):
                if via is not None and rid not in via:
                    continue
                if n == subject:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False


def _a(rec: R.Record) -> str:
    t = rec.data["recordType"]
    return f"{'an' if t[0] in 'aeiou' else 'a'} {t}"


def _across(by: Dict[str, List[R.Record]]) -> List[Refusal]:
    """What the schema cannot see, one statement at a time: one recordId is one kind of record (entity,
    person or relationship), and a relationship's subject is an entity, its interested party a person or
    an entity. Each fault names both statements."""
    bad: List[Refusal] = []
    kind: Dict[str, str] = {}
    for rid, recs in by.items():
        first = recs[0]
        other = next((r for r in recs if r.data["recordType"] != first.data["recordType"]), None)
        if other is not None:
            bad.append(Refusal(other.where, rid, f"record {rid} is {_a(other)} in statement "
                               f"{other.data['statementId']} and {_a(first)} in statement "
                               f"{first.data['statementId']} ({first.where}): one record is one thing"))
        else:
            kind[rid] = first.data["recordType"]
    for rid, recs in by.items():
        if kind.get(rid) != "relationship":
            continue
        live = _live(recs)
        det = live.data.get("recordDetails") or {}
        for side, end, allowed in (("subject", det.get("subject"), ("entity",)),
                                   ("interested party", det.get("interestedParty"), ("entity", "person"))):
            if isinstance(end, str) and kind.get(end) not in (None,) + allowed:
                held = by[end][-1]
                bad.append(Refusal(live.where, rid, f"relationship {rid} (statement {live.data['statementId']}): its "
                                   f"{side} {end} is a {kind[end]} record ({held.where}); a BODS {side} is "
                                   f"{' or '.join(('an ' if a[0] in 'aeiou' else 'a ') + a for a in allowed)}"))
    return bad


def collect(files: Sequence[Path], report: Report, skip_bad: bool,
            records: Optional[Iterable[R.Record]] = None) -> Dict[str, List[R.Record]]:
    """Read and validate every statement, grouped by record (oldest first); bad ones stop the import
    unless ``skip_bad`` leaves them out (a record with a fault across statements, whole)."""
    good: List[R.Record] = []
    bad: List[Refusal] = []
    seen: Dict[str, R.Record] = {}  # statementId -> where it was read
    for rec in records if records is not None else (r for p in files for r in R.read(p)):
        if records is None:  # --within: the files' own counts came from DuckDB
            report.files[rec.file] += 1
        errs = validate(rec)
        if errs:
            bad.extend(errs)
            continue
        sid = rec.data["statementId"]
        if sid in seen:
            if seen[sid].data == rec.data:
                report.leave("a statement given twice (same statementId, same content): read once", rec)
            else:
                bad.append(Refusal(rec.where, _rid(rec), f"statement {sid} is also at {seen[sid].where}, with "
                                   "other content: a statementId names one statement"))
            continue
        seen[sid] = rec
        good.append(rec)
    by = _latest(good)
    across = _across(by)
    for e in across:
        by.pop(e.record, None)
    bad.extend(across)
    if bad and not skip_bad:
        raise R.ImportFailure(list(map(str, bad)), f"{len(bad)} bad record{'s' if len(bad) != 1 else ''}; nothing was written "
                                                    "(--skip-bad leaves bad records out)")
    report.skipped.extend(bad)
    for recs in by.values():
        t = recs[-1].data["recordType"]
        report.read[t] += len(recs)
        report.records[t] += 1
    return by


def import_bods(paths: Sequence, out, world=None, within: Optional[int] = None, skip_bad: bool = False,
                force: bool = False) -> Report:
    """Import BODS 0.4 JSON (arrays) or JSON Lines into the `.facts` folder ``out``.

    ``world``: the world the import joins (a register record that alone has the
    name of one of its labs, orgs, entities or people takes its id; the output
    is checked beside it). ``within``: keep only records within that many
    relationship links of the world's names (read through DuckDB:
    :mod:`.register`). ``force``: an ``out`` provlog did not write is moved
    aside (never deleted) rather than refused.
    """
    target, report, names, files = begin(paths, out, world, force)
    recs = None
    if within is not None:
        if world is None:
            raise R.ImportFailure(["--within needs --world: the links are counted from the world's orgs and labs"])
        from .register import select_bods

        recs, report.kept, report.files = select_bods(files, set(names), within)
    by = collect(files, report, skip_bad, recs)
    nodes = [(rid, rs[-1], names_of(rs[-1])) for rid, rs in sorted(by.items())
             if rs[-1].data["recordType"] in ("entity", "person")]
    joins = join_by_name([(rid, rec, name, rec.data["recordType"] == "person")
                          for rid, rec, (name, _, withheld) in nodes if not withheld], names, report)
    m = _Mapper(report, joins)
    for rid, rs in sorted(by.items()):
        if rs[-1].data["recordType"] in ("entity", "person"):
            m.node(rs)
    rels = {rid: rs for rid, rs in by.items() if rs[-1].data["recordType"] == "relationship"}
    chains = _Chains(rels, m.ids)
    for rid, rs in sorted(rels.items()):
        m.relationship(rs, chains)
    return finish(m.out, report, target, world)
