"""FollowTheMoney in: companies, people, ownerships, directorships, employments and payments.

Entities are read with the followthemoney package's own schema model (so a
`Company` is a `LegalEntity`, an `Ownership` an `Interest`, properties are
typed and validated by it). One JSON object a line (`.jsonl`, the way FtM
exports are written) or a JSON array. docs/import.md has the mapping.

    >>> from provlog.importers.ftm import import_ftm          # doctest: +SKIP
    >>> print(import_ftm(["entities.ftm.jsonl"], "out").render())  # doctest: +SKIP
"""
from __future__ import annotations

from decimal import Decimal
from typing import Dict, List, Optional, Sequence, Tuple

from . import records as R
from .common import Unwritable, day, join_by_name, number, pct
from .world import Refusal, Report, WorldOut, begin, digest, finish, quote, slug, stable_id

#: schema -> entity kind= (the first the entity's schema is, in this order)
KINDS = (("PublicBody", "public"), ("Company", "company"), ("Organization", "other"), ("LegalEntity", "other"))
#: Directorship.role words -> provlog role (else director)
DIRECTOR_ROLES = (("chair", "board"), ("board", "board"), ("trustee", "board"), ("advis", "advisor"),
                  ("secretary", "executive"), ("officer", "executive"), ("ceo", "executive"))
#: Payment purpose/programme words -> money kind (first match; none -> not mapped)
PAYMENT_KINDS = (("grant", "grant"), ("donation", "donation"), ("invest", "investment"), ("fee", "fee"),
                 ("licen", "revenue"), ("contract", "revenue"), ("service", "revenue"), ("credit", "credits"),
                 ("compute", "compute"))
CURRENCIES = ("USD", "EUR", "GBP")
#: the number properties read: schema -> property
NUMBERS = (("Ownership", "percentage"), ("Payment", "amount"))


def _model():
    try:
        from followthemoney import model
    except ImportError:
        raise R.ImportFailure(["FollowTheMoney import needs the followthemoney package: pip install 'provlog[import]'"]) from None
    return model


def _number_text(value: str) -> Optional[str]:
    """The number in an FtM number value, as FtM's own number type reads it ("12.5%" -> "12.5"); None if none."""
    from followthemoney.types import registry

    return registry.number.parse(value)[0]


def _bad_numbers(rec: R.Record, proxy) -> List[Refusal]:
    """A number property whose value FtM's number type reads no number in (NaN, sNaN, 1E+100000000, "a lot")."""
    return [Refusal(rec.where, proxy.id, f"{proxy.schema.name} {proxy.id}: {prop} {quote(v)[:40]} is not a number "
                                         "(FtM's number type reads none in it)")
            for schema, prop in NUMBERS if proxy.schema.is_a(schema)
            for v in proxy.get(prop) if _number_text(v) is None]


def _word_kind(text: str, table) -> Optional[str]:
    low = text.lower()
    return next((kind for word, kind in table if word in low), None)


class _Mapper:
    def __init__(self, report: Report, joins: Dict[str, Tuple[str, str]]):
        self.report = report
        self.joins = joins
        self.out = WorldOut("ftm", "Imported from FollowTheMoney by `provlog import ftm` (docs/import.md).\n"
                                   "Each statement cites a source naming its FtM entity and file:line.")
        self.ids: Dict[str, Tuple[str, str]] = {}

    @staticmethod
    def source_id(proxy) -> str:
        return f"ftm-{slug(proxy.id, 24) or 'entity'}-{digest('ftm', proxy.id)}"

    def source(self, rec: R.Record, proxy) -> str:
        """Declare the source of one entity (and its publisher); its id."""
        pub = proxy.first("publisher") if "publisher" in proxy.schema.properties else None
        pname = pub or "FollowTheMoney dataset"
        pid = stable_id("publisher", pname, pname)
        self.out.declare("entities", "entity", pid, f"publisher {quote(pname)}", f"entity {pid} {quote(pname)} kind=other")
        sid = self.source_id(proxy)
        title = f"FtM {proxy.schema.name} {proxy.id} ({rec.where})"
        url = proxy.first("sourceUrl") if "sourceUrl" in proxy.schema.properties else None
        if url:
            title += f" {url}"
        self.out.declare("sources", "source", sid, f"entity {proxy.id} ({rec.where})",
                         f"source {sid} {quote(title)} publisher={pid} status=imported")
        return sid

    def node(self, rec: R.Record, proxy) -> None:
        if proxy.id in self.joins:
            self.ids[proxy.id] = self.joins[proxy.id]
            return
        name = proxy.caption
        pid = stable_id("ftm", proxy.id, name, proxy.id)
        owner = f"entity {proxy.id} ({rec.where})"
        if proxy.schema.is_a("Person"):
            self.ids[proxy.id] = (pid, "person")
            self.out.declare("entities", "person", pid, owner, f"person {pid} {quote(name)} src={self.source(rec, proxy)}")
            return
        kind = next(k for s, k in KINDS if proxy.schema.is_a(s))
        self.ids[proxy.id] = (pid, "entity")
        self.out.declare("entities", "entity", pid, owner,
                         f"entity {pid} {quote(name)} kind={kind} src={self.source(rec, proxy)}")

    def _ends(self, rec, proxy, *props) -> Optional[Tuple[str, str]]:
        got = []
        for p in props:
            v = proxy.first(p)
            if v is None or v not in self.ids:
                self.report.leave(f"{proxy.schema.name} whose {p} is not in the import (import the file that "
                                  "holds it too)", rec)
                return None
            got.append(self.ids[v])
        return tuple(got)

    def _dates(self, proxy) -> str:
        since, until = day(proxy.first("startDate")), day(proxy.first("endDate"))
        return (f" since={since}" if since else "") + (f" until={until}" if until else "")

    def _state(self, rec, proxy, file: str, keyword: str, key: str, text: str, twice: str) -> None:
        """Add one statement citing the entity's source (declared only when the statement is written)."""
        if self.out.add(file, keyword, key, f"{text} src={self.source_id(proxy)}"):
            self.source(rec, proxy)
        else:
            self.report.leave(twice, rec)

    def link(self, rec: R.Record, proxy) -> None:
        s = proxy.schema
        if s.is_a("Ownership"):
            ends = self._ends(rec, proxy, "owner", "asset")
            if not ends:
                return
            (hid, _), (aid, _) = ends
            raw = proxy.first("percentage")
            share = Decimal(_number_text(raw)) if raw else None  # a number: checked as the entity was read
            if share is None or not 0 <= share <= 100:
                self.report.leave("Ownership with no percentage from 0 to 100", rec)
                return
            try:
                text = f"stake {hid} {aid} {pct(share)}{self._dates(proxy)}"
            except Unwritable as e:
                self.report.leave(f"Ownership whose percentage the fact language cannot write ({e})", rec)
                return
            self._state(rec, proxy, "structure", "stake", f"{hid} {aid}", text,
                        "a second Ownership for the same owner and asset (one stake per pair)")
        elif s.is_a("Directorship") or s.is_a("Employment"):
            director = s.is_a("Directorship")
            ends = self._ends(rec, proxy, *(("director", "organization") if director else ("employee", "employer")))
            if not ends:
                return
            (pid, pkind), (oid, okind) = ends
            if pkind != "person":
                self.report.leave(f"{s.name} held by an entity (roles are people's)", rec)
                return
            role = (_word_kind(proxy.first("role") or "", DIRECTOR_ROLES) or "director") if director else "employee"
            self._state(rec, proxy, "structure", "role", f"{pid} {role} {oid}",
                        f"role {pid} {role} {oid}{self._dates(proxy)}", f"a second {s.name} for the same role")
        elif s.is_a("Payment"):
            ends = self._ends(rec, proxy, "payer", "beneficiary")
            if not ends:
                return
            (payer, _), (payee, _) = ends
            words = " ".join(filter(None, (proxy.first("purpose"), proxy.first("programme"), proxy.first("summary"))))
            kind = _word_kind(words, PAYMENT_KINDS)
            if kind is None:
                self.report.leave("Payment whose purpose names no money kind (grant, fee, investment, ...)", rec)
                return
            self._state(rec, proxy, "structure", "money", f"{payer} {payee} {kind} {proxy.id}",
                        f"money {payer} {payee} {kind}{self._amount(rec, proxy)}", "a Payment given twice")
        else:
            self.report.leave(f"FtM schema {s.name}: no provlog statement for it", rec)

    def _amount(self, rec: R.Record, proxy) -> str:
        """` amount= currency= year=` of a Payment, as far as the fact language can state them."""
        attrs = ""
        amount, currency = proxy.first("amount"), (proxy.first("currency") or "").upper()
        if amount:
            try:
                written = number(_number_text(amount))  # a number: checked as the entity was read
            except Unwritable as e:
                self.report.leave(f"Payment amount the fact language cannot write ({e}): flow kept, amount left out", rec)
            else:
                if written.startswith("-") or currency not in CURRENCIES:
                    self.report.leave("Payment amount negative, or not in USD, EUR or GBP: flow kept, amount left out",
                                      rec)
                else:
                    attrs += f" amount={written} currency={currency}"
        year = (day(proxy.first("date")) or day(proxy.first("startDate")) or "")[:4]
        return attrs + (f" year={year}" if year else "")


def _read(files, report: Report, model) -> Tuple[list, List[Refusal]]:
    """Every entity of the files as (record, proxy), and the bad ones (located)."""
    from followthemoney.exc import InvalidData

    good, bad = [], []
    seen: Dict[str, R.Record] = {}  # entity id -> where it was read
    for rec in (r for p in files for r in R.read(p)):
        report.files[rec.file] += 1
        try:
            proxy = model.get_proxy(rec.data, cleaned=False)
        except (InvalidData, TypeError, ValueError, RecursionError) as e:
            bad.append(Refusal(rec.where, None, f"not a FollowTheMoney entity: {str(e)[:200] or type(e).__name__}"))
            continue
        if not proxy.id:
            bad.append(Refusal(rec.where, None, "a FollowTheMoney entity needs an id"))
            continue
        if proxy.id in seen:
            if seen[proxy.id].data != rec.data:
                bad.append(Refusal(rec.where, proxy.id, f"entity {proxy.id} is also at {seen[proxy.id].where}, with "
                                   "other content: an id names one entity"))
            else:
                report.leave("an entity given twice (same id, same content): read once", rec)
            continue
        seen[proxy.id] = rec
        errs = _bad_numbers(rec, proxy)
        if errs:
            bad.extend(errs)
            continue
        good.append((rec, proxy))
    return good, bad


def import_ftm(paths: Sequence, out, world=None, skip_bad: bool = False, force: bool = False) -> Report:
    """Import FollowTheMoney entities into the `.facts` folder ``out`` (``world``, ``force`` as for BODS)."""
    model = _model()
    target, report, names, files = begin(paths, out, world, force)
    good, bad = _read(files, report, model)
    if bad and not skip_bad:
        raise R.ImportFailure(list(map(str, bad)), f"{len(bad)} bad entities; nothing was written "
                                                    "(--skip-bad leaves them out)")
    report.skipped.extend(bad)
    nodes, links = [], []
    for rec, proxy in sorted(good, key=lambda t: t[1].id):
        report.read[proxy.schema.name] += 1
        report.records[proxy.schema.name] += 1
        (nodes if proxy.schema.is_a("LegalEntity") else links).append((rec, proxy))
    joins = join_by_name([(p.id, rec, p.caption, p.schema.is_a("Person")) for rec, p in nodes], names, report)
    m = _Mapper(report, joins)
    for rec, proxy in nodes:
        m.node(rec, proxy)
    for rec, proxy in links:
        m.link(rec, proxy)
    return finish(m.out, report, target, world)
