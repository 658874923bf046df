"""The publication cycle's statements (RULES sections 11-12): what was sent, and who was checked.

Before anything about an org or a named person is published, they receive
their card and a reply window (section 12); the registry records every
candidate checked for inclusion, the criterion applied and the result
(section 11). docs/outreach.md says the cycle; the statements::

    reply-window <days>                               # the world's default window
    contact <org|person> sent=<date> [window=<days>] [replied=<date> reply=<source>] [letter=<64 hex>]
    candidate <id> "<name>" criterion=system-card|statute|benchmark result=included|excluded|out-of-scope
        checked=<date> cited=<source> [org=<org>] [note="..."]

Each is checked like every statement (E180-E184 here, besides the common
codes): a reply before its letter, a reply without the source that holds it,
a window outside 1-365 days, a system-card citation whose source has no date
(the 24-month window counts from it), a candidate whose result contradicts
its org's status.

    >>> from provlog.facts import load_text
    >>> w = load_text('person ana "Ana"\\nreply-window 14\\ncontact ana sent=2026-08-01\\n')
    >>> [f["window"] for f in w.of("reply-window")], w.of("contact")[0]["subject"]
    ([14], 'ana')
"""
from __future__ import annotations

from typing import Any, Dict, List

from . import dates
from . import schema as S
from . import values as V

#: provlog's window when neither the contact's window= nor the world's reply-window says one
#: (the RULES give no number: say yours with ``reply-window``)
DEFAULT_WINDOW = 30

#: section 11's three criteria of inclusion, and what a check found
CRITERIA = ("system-card", "statute", "benchmark")
RESULTS = ("included", "excluded", "out-of-scope")

#: a system-card or government-report citation counts for this many months before the world's as-of (section 11)
CITATION_MONTHS = 24


def _days(text: str) -> int:
    """A reply window in whole days, 1 to 365 (E182)."""
    n = V.parse_int(text)
    if not 1 <= n <= 365:
        e = V.BadValue(f"a reply window is 1 to 365 days, got {n}")
        e.code = "E182"  # type: ignore[attr-defined]
        raise e
    return n


def _check_contact(values: Dict[str, Any], flags) -> list:
    """A reply comes after its letter (E180) and names the source that holds it (E181)."""
    sent, replied, reply = values.get("sent"), values.get("replied"), values.get("reply")
    if (replied is None) != (reply is None):
        given, missing = ("replied", "reply") if reply is None else ("reply", "replied")
        return [(given, "E181", f"{given}= needs {missing}=: a reply is recorded with its date (replied=) and "
                                f"the source that holds it (reply=)")]
    if replied is not None and sent is not None and replied < sent:
        return [("replied", "E180", f"replied={replied} is before sent={sent}: a reply comes after the letter "
                                    "(check both dates)")]
    return []


def _check_candidates(facts: List[Any], lookup) -> list:
    """A system-card citation's source is dated (E183); a candidate's result agrees with its org's
    status (E184: out-of-scope is a status, section 11)."""
    out = []
    for f in facts:
        src = lookup("source", f["cited"])
        if f["criterion"] == "system-card" and src is not None and not src["date"]:
            out.append((f, "E183", f"candidate {f['id']}: criterion=system-card counts a citation of the last "
                                   f"{CITATION_MONTHS} months, but source {f['cited']} has no date=: date it"))
        org = lookup("node", f["org"]) if f["org"] else None  # labs, orgs, entities, persons share "node"
        if org is not None:
            scoped = (org["status"] or "in-scope") != "out-of-scope"
            if (f["result"] == "out-of-scope") == scoped:
                out.append((f, "E184", f"candidate {f['id']}: result={f['result']} but org {f['org']} is "
                                       f"status={org['status'] or 'in-scope'}: say the same in both"))
    return out


def cited_within(cited: str, as_of: str) -> bool:
    """Whether a citation dated ``cited`` (possibly partial: its last day counts, the reading that
    favours inclusion) lies in the 24 months up to ``as_of`` (section 11).

        >>> cited_within("2024-09-02", "2026-09-01"), cited_within("2024-09-01", "2026-09-01")
        (True, False)
        >>> cited_within("2024-09", "2026-09-29")  # a month counts from its last day
        True
    """
    day, ends = citation_window(cited)
    return day <= dates.first_day(as_of) < ends


def citation_window(cited: str):
    """The days a citation dated ``cited`` counts in: from the last day its date can mean, up to
    (not including) the same day 24 months on (logic/population.py reads them as day numbers).

        >>> [d.isoformat() for d in citation_window("2024-02-29")]
        ['2024-02-29', '2026-03-01']
    """
    day = dates.last_day(cited)
    return day, dates.months_later(day, CITATION_MONTHS)


#: The cycle's statements (facts/language.py joins them to the RULES' own).
STATEMENTS = S.Language("independence")

STATEMENTS.declare(S.Decl("reply-window", (S.Field("window", _days),), evidence=False, unique=(),
                          summary="the world's default reply window in days, for a contact without window= "
                                  f"(none stated: {DEFAULT_WINDOW})"))
STATEMENTS.declare(S.Decl("contact", (S.Field("subject", ref=("org", "person")),), attrs=S._attrs(
    S.Field("sent", S._day), S.opt("window", _days), S.opt("replied", S._day), S.opt("reply", ref=("source",)),
    S.opt("letter", S._hex64)), unique=("subject", "sent"), check=_check_contact,
    summary="a letter sent to an org or a person: its window (days; default reply-window), the reply and the "
            "source that holds it, the digest of the letter sent (`provlog outreach` prints it)"))
STATEMENTS.declare(S.Decl("candidate", (S.Field("id"), S.Field("name", S._text, quoted=True)), declares="candidate",
                          attrs=S._attrs(S.Field("criterion", S.enum(*CRITERIA)), S.Field("result", S.enum(*RESULTS)),
                                         S.Field("checked", S._day), S.Field("cited", ref=("source",)),
                                         S.opt("org", ref=("org",)), S.opt("note", S._text, quoted=True)),
                          across=_check_candidates,
                          summary="a candidate checked for inclusion (section 11): the criterion applied, the "
                                  "result, when, and the source cited"))
