"""A letter (queries/letters.py) as Markdown and as a ready-to-send ``.eml`` draft; nothing is sent.

The draft is a plain-text message (Python's ``email`` package) with the Markdown as its body, dated
the world's as-of date at midnight UTC, its Message-ID made from its bytes, ``X-Unsent: 1`` (a mail
client opens it as a draft) and the subject's name as an empty address group (``To: "Name":;``): the
registry fills in the address. The same letter gives the same bytes.

    >>> from email import message_from_bytes, policy
    >>> m = message_from_bytes(to_eml(EXAMPLE), policy=policy.default)
    >>> m["To"], m["Date"], m["X-Unsent"]
    ('Ana Reyes:;', 'Tue, 01 Sep 2026 00:00:00 +0000', '1')
    >>> "Reply by: 2026-10-01" in m.get_content()
    True
"""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from email import policy
from email.headerregistry import Address, Group
from email.message import EmailMessage
from email.utils import format_datetime, parseaddr
from typing import Any, Dict, List

#: the draft's From: when none is given (an address that cannot be delivered to: RFC 2606)
SENDER = "The registry <registry@example.invalid>"

EXAMPLE = {"subject": "ana", "kind": "person", "name": "Ana Reyes", "roles": [], "requests": [], "digest": "0" * 64,
           "dates": {"written": "2026-09-01", "sent": None, "window": 30, "reply_by": "2026-10-01",
                     "status": "unsent"}}


def _shown(v) -> str:
    return "-" if v is None else str(v)


def _intro(letter: Dict[str, Any]) -> List[str]:
    d = letter["dates"]
    who = ("Named individuals appear in it through their public roles only (RULES section 12). "
           if letter["kind"] == "person" else "")
    return [f"# Before publication: {letter['name']}", "",
            f"To: {letter['name']} ({letter['subject']})  ",
            f"Written: {d['written']}  ", f"Reply by: {d['reply_by']}", "",
            "We keep a public registry of the organizations that evaluate frontier AI models, read under the "
            f"published independence RULES. {who}Before anything about you is published you receive your card and "
            f"a reply window of {d['window']} days (RULES section 12). Nothing about you is published before "
            f"{d['reply_by']} unless you reply sooner; your reply, and every document it points to, is read "
            "before publication.", ""]


def _card(letter: Dict[str, Any]) -> List[str]:
    c = letter["card"]
    out = [f"## Your card ({letter['policy']} policy)", "", "| | dimension | value | rule |", "|---|---|---|---|"]
    out += [f"| {v['dim']} | {v['name']} | {_shown(v['value'])} | {v['rule'] or ''} |" for v in c["values"]]
    out += ["", f"Band: {c['band']}. Role: {c['role']}.", "", "## The evidence each value rests on", ""]
    for e in letter["evidence"]:
        out.append(f"### {e['dim']} = {_shown(e['value'])}" + (f" ({e['rule']})" if e["rule"] else ""))
        out.append("")
        if not e["sources"]:
            out.append("- no evidence: the value is unevidenced" if e["value"] is None else "- no source cited")
        for s in e["sources"]:
            quote = f': "{s["span"]}"' if s["span"] else " (no span quoted)"
            out.append(f"- {s['source']}, {s['title']}{quote}")
        out.append("")
    return out


def _roles(letter: Dict[str, Any]) -> List[str]:
    out = ["## Your public roles", ""]
    if not letter["roles"]:
        out.append("- none recorded")
    for r in letter["roles"]:
        rec = f", recusal: {r['recusal']}" if r["recusal"] else ""
        src = f"; source: {', '.join(r['sources'])}" if r["sources"] else ""
        out.append(f"- {r['role']} at {r['at_name']} ({r['at']}){rec}{src}")
    return out + [""]


def _requests(letter: Dict[str, Any]) -> List[str]:
    out = ["## Documents we ask you for", ""]
    if not letter["requests"]:
        return out + ["We have no open questions.", ""]
    out += ["Each item says what holds a value where it is and the document that would move it.", ""]
    for i, r in enumerate(letter["requests"], 1):
        about = f"(your {' and '.join(r['about'])}, for {r['org_name']}) " if "about" in r else ""
        out.append(f"{i}. {about}{r['text']}")
    return out + [""]


def to_markdown(letter: Dict[str, Any]) -> str:
    """The letter as Markdown."""
    body = _intro(letter) + (_roles(letter) if letter["kind"] == "person" else _card(letter)) + _requests(letter)
    body += ["---", "", f"Reference: {letter['digest']}", ""]
    return "\n".join(body)


def to_eml(letter: Dict[str, Any], sender: str = SENDER) -> bytes:
    """The letter as an RFC 5322 draft (CRLF line ends), never sent."""
    text = to_markdown(letter)
    msg = EmailMessage(policy=policy.SMTP)
    name, addr = parseaddr(sender)
    msg["From"] = Address(display_name=name, addr_spec=addr) if addr else sender
    msg["To"] = Group(display_name=letter["name"])
    msg["Subject"] = f"Before publication: your card in the registry (reply by {letter['dates']['reply_by']})"
    day = datetime.fromisoformat(letter["dates"]["written"]).replace(tzinfo=timezone.utc)
    msg["Date"] = format_datetime(day)
    made = hashlib.sha256((sender + "\n" + text).encode("utf-8")).hexdigest()[:32]
    msg["Message-ID"] = f"<{made}.{letter['subject']}@example.invalid>"
    msg["X-Unsent"] = "1"
    msg.set_content(text, subtype="plain", charset="utf-8", cte="quoted-printable")
    return msg.as_bytes()
