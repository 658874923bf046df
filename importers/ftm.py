"""FollowTheMoney in: companies, people, ownerships, directorships, employments and payments.

Entities are read with the followthemoney package's own schema model (so a
`Company` is a `LegalEntity`, an `Ownership` an `Interest`, properties are
typed and validated by it). One JSON object a line (`.jsonl`, the way FtM
exports are written) or a JSON array. docs/import.md has the mapping.

    >>> from provlog.importers.ftm import import_ftm          # doctest: +SKIP
    >>> print(import_ftm(["entities.ftm.jsonl"], "out").render())  # doctest: +SKIP
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from . import records as R
from .common import day, norm, number, pct, world_names
from .world import Report, WorldOut, quote, slug, stable_id

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


def _model():
    try:
        from followthemoney import model
    except ImportError:
        raise R.ImportFailure(["FollowTheMoney import needs the followthemoney package: pip install 'provlog[import]'"]) from None
    return model


def _word_kind(text: str, table) -> Optional[str]:
    low = text.lower()
    return next((kind for word, kind in table if word in low), None)


class _Mapper:
    def __init__(self, report: Report, names: Dict[str, Tuple[str, str]]):
        self.report = report
        self.names = names
        self.out = WorldOut("Imported from FollowTheMoney by `provlog import ftm` (docs/import.md).\n"
                            "Each statement cites a source naming its FtM entity and file:line.")
        self.ids: Dict[str, Tuple[str, str]] = {}

    def source(self, rec: R.Record, proxy) -> str:
        pub = proxy.first("publisher") if "publisher" in proxy.schema.properties else None
        pname = pub or "FollowTheMoney dataset"
        pid = stable_id("publisher", pname, pname)
        self.out.add("entities", "entity", pid, f"entity {pid} {quote(pname)} kind=other")
        sid = f"ftm-{slug(proxy.id, 24)}-" + stable_id("ftm", proxy.id)[len("ftm-"):]
        title = f"FtM {proxy.schema.name} {proxy.id} ({rec.where})"
        url = proxy.first("sourceUrl") if "sourceUrl" in proxy.schema.properties else None
        if url:
            title += f" {url}"
        self.out.add("sources", "source", sid, f"source {sid} {quote(title)} publisher={pid} status=imported")
        return sid

    def node(self, rec: R.Record, proxy) -> None:
        name = proxy.caption
        known = self.names.get(norm(name)) if name else None
        if known:
            self.ids[proxy.id] = known
            self.report.matched[proxy.id] = known[0]
            return
        pid = stable_id("ftm", proxy.id, name)
        if proxy.schema.is_a("Person"):
            self.ids[proxy.id] = (pid, "person")
            self.out.add("entities", "person", pid, f"person {pid} {quote(name)} src={self.source(rec, proxy)}")
            return
        kind = next(k for s, k in KINDS if proxy.schema.is_a(s))
        self.ids[proxy.id] = (pid, "entity")
        self.out.add("entities", "entity", pid, f"entity {pid} {quote(name)} kind={kind} src={self.source(rec, proxy)}")

    def _ends(self, rec, proxy, *props) -> Optional[Tuple[str, str]]:
        got = []
        for p in props:
            v = proxy.first(p)
            if v is None or v not in self.ids:
                self.report.leave(f"{proxy.schema.name} whose {p} is not in the import", rec.where)
                return None
            got.append(self.ids[v])
        return tuple(got)

    def _dates(self, proxy) -> str:
        since, until = day(proxy.first("startDate")), day(proxy.first("endDate"))
        return (f" since={since}" if since else "") + (f" until={until}" if until else "")

    def link(self, rec: R.Record, proxy) -> None:
        s = proxy.schema
        if s.is_a("Ownership"):
            ends = self._ends(rec, proxy, "owner", "asset")
            if not ends:
                return
            (hid, _), (aid, _) = ends
            raw = proxy.first("percentage")
            try:
                share = Decimal(raw.strip().rstrip("%")) if raw else None
            except InvalidOperation:
                share = None
            if share is None or not 0 <= share <= 100:
                self.report.leave("Ownership with no percentage from 0 to 100", rec.where)
                return
            text = f"stake {hid} {aid} {pct(share)}{self._dates(proxy)} src={self.source(rec, proxy)}"
            if not self.out.add("structure", "stake", f"{hid} {aid}", text):
                self.report.leave("a second Ownership for the same owner and asset (one stake per pair)", rec.where)
        elif s.is_a("Directorship") or s.is_a("Employment"):
            director = s.is_a("Directorship")
            ends = self._ends(rec, proxy, *(("director", "organization") if director else ("employee", "employer")))
            if not ends:
                return
            (pid, pkind), (oid, okind) = ends
            if pkind != "person":
                self.report.leave(f"{s.name} held by an entity (roles are people's)", rec.where)
                return
            role = (_word_kind(proxy.first("role") or "", DIRECTOR_ROLES) or "director") if director else "employee"
            self.out.add("structure", "role", f"{pid} {role} {oid}",
                         f"role {pid} {role} {oid}{self._dates(proxy)} src={self.source(rec, proxy)}")
        elif s.is_a("Payment"):
            ends = self._ends(rec, proxy, "payer", "beneficiary")
            if not ends:
                return
            (payer, _), (payee, _) = ends
            words = " ".join(filter(None, (proxy.first("purpose"), proxy.first("programme"), proxy.first("summary"))))
            kind = _word_kind(words, PAYMENT_KINDS)
            if kind is None:
                self.report.leave("Payment whose purpose names no money kind (grant, fee, investment, ...)", rec.where)
                return
            attrs = ""
            amount, currency = proxy.first("amount"), (proxy.first("currency") or "").upper()
            if amount:
                try:
                    value = Decimal(amount)
                except InvalidOperation:
                    value = None
                if value is None or value < 0 or currency not in CURRENCIES:
                    self.report.leave("Payment amount not in USD, EUR or GBP (or not a number): flow kept, amount left out",
                                      rec.where)
                else:
                    attrs += f" amount={number(value)} currency={currency}"
            year = (day(proxy.first("date")) or day(proxy.first("startDate")) or "")[:4]
            if year:
                attrs += f" year={year}"
            self.out.add("structure", "money", f"{payer} {payee} {kind} {proxy.id}",
                         f"money {payer} {payee} {kind}{attrs} src={self.source(rec, proxy)}")
        else:
            self.report.leave(f"FtM schema {s.name}: no provlog statement for it", rec.where)


def import_ftm(paths: Sequence, out, world=None, skip_bad: bool = False) -> Report:
    """Import FollowTheMoney entities into the `.facts` folder ``out`` (``world`` as for BODS)."""
    model = _model()
    from followthemoney.exc import InvalidData

    report = Report(out=str(out))
    names = world_names(Path(world), Path(out)) if world is not None else {}
    m = _Mapper(report, names)
    nodes, links, bad = [], [], []
    for rec in (r for p in R.files(paths) for r in R.read(p)):
        try:
            proxy = model.get_proxy(rec.data, cleaned=False)
        except (InvalidData, TypeError, ValueError) as e:
            bad.append(f"{rec.where}: not a FollowTheMoney entity: {e}")
            continue
        if not proxy.id:
            bad.append(f"{rec.where}: a FollowTheMoney entity needs an id")
            continue
        report.read[proxy.schema.name] += 1
        (nodes if proxy.schema.is_a("LegalEntity") else links).append((rec, proxy))
    if bad and not skip_bad:
        raise R.ImportFailure(bad, f"{len(bad)} bad entities; nothing was written (--skip-bad leaves them out)")
    report.skipped.extend(bad)
    for rec, proxy in sorted(nodes, key=lambda t: t[1].id):
        m.node(rec, proxy)
    for rec, proxy in sorted(links, key=lambda t: t[1].id):
        m.link(rec, proxy)
    m.out.write(Path(out), Path(world) if world is not None else None)
    report.written = m.out.count()
    return report
