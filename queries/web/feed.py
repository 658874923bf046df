"""The site's Atom feed of moves (``feed.xml``, RFC 4287): one entry per commit that moved something
(issue 42; docs/history.md), so readers can follow the registry.

    >>> body = atom(log("world", rng="HEAD~20..HEAD", policy="standard"), "world")   # doctest: +SKIP
"""
from __future__ import annotations

from typing import Dict, List
from xml.sax.saxutils import escape, quoteattr

from ..history import Entry, History
from .links import fname

NS = "http://www.w3.org/2005/Atom"


def _el(tag: str, text: str) -> str:
    return f"<{tag}>{escape(text)}</{tag}>"


def by_org(h: History) -> Dict[str, List[Entry]]:
    """Each org's entries (newest first) that moved something of it; each entry's rows the org's alone."""
    out: Dict[str, List[Entry]] = {}
    for e in h.listed():
        orgs = sorted({r.org for r in e.rows})
        for org in orgs:
            out.setdefault(org, []).append(Entry(e.commit, e.parent, [r for r in e.rows if r.org == org]))
    return out


def atom(h: History, title: str) -> bytes:
    """The feed: its id names the world's path, ``updated`` the newest entry's date."""
    moved = [e for e in h.listed() if e.rows]
    updated = moved[0].commit.date if moved else (h.walk.commits[0].date if h.walk.commits else "1970-01-01T00:00:00Z")
    out = ['<?xml version="1.0" encoding="utf-8"?>', f'<feed xmlns="{NS}">',
           _el("id", f"urn:provlog:world:{h.walk.path}"), _el("title", f"provlog: what moved in {title}"),
           _el("updated", updated), '<link rel="alternate" href="index.html"/>',
           f"<generator>provlog</generator>"]
    for e in moved:
        c = e.commit
        orgs = sorted({r.org for r in e.rows})
        lines = [f"{r.org}: {r.label}: {r.old_shown} -> {r.new_shown} (rule {r.old_rule or '-'} -> {r.new_rule or '-'})"
                 + "".join(f"\n    {x.line()}" for x in r.rests) for r in e.rows]
        out += ["<entry>", _el("id", f"urn:provlog:commit:{c.id}"),
                _el("title", f"{c.short} {c.subject}: {', '.join(orgs)}"), _el("updated", c.date),
                f"<author>{_el('name', c.author or 'unknown')}</author>",
                f"<link rel=\"alternate\" href={quoteattr('org/' + fname(orgs[0]) + '.html')}/>",
                f'<content type="text">{escape(chr(10).join(lines))}</content>', "</entry>"]
    return ("\n".join(out + ["</feed>"]) + "\n").encode("utf-8")
