"""Where each page of the static site lives, and relative links between them (``provlog site``).

A world's ids are any bare word (grammar/facts.lark WORD), so an id becomes a
file name by a fixed, one-to-one spelling: ``a-z 0-9 _ -`` stay, every other
byte is ``~`` and two hex digits (capitals too, so that case-insensitive disks
keep ``Org`` and ``org`` apart; dots too, so no id is ``..``).

    >>> fname("quorvell"), fname("../x"), fname("Ab")
    ('quorvell', '~2e~2e~2fx', '~41b')
"""
from __future__ import annotations

import re
from typing import Optional

_SAFE = re.compile(rb"[a-z0-9_-]")


def fname(node_id: str) -> str:
    return "".join(chr(b) if _SAFE.fullmatch(bytes([b])) else f"~{b:02x}" for b in node_id.encode("utf-8"))


def page_path(endpoint: str, values: dict) -> Optional[str]:
    """The file (relative to the site's root) an endpoint with ``values`` is written to; None: not in the site."""
    if endpoint == "registry":
        return "index.html"
    if endpoint in ("people", "matrix"):
        return f"{endpoint}.html"
    if endpoint == "org_page":
        return f"org/{fname(values['org'])}.html"
    if endpoint == "why":
        return f"why/{fname(values['org'])}/{values['dim']}.html"
    if endpoint == "money":
        return f"money/{fname(values['entity'])}.html"
    if endpoint == "person":
        return f"person/{fname(values['pid'])}.html"
    if endpoint == "static":
        return f"static/{values['filename']}"
    return None


def relative(target: str, current: str) -> str:
    """``target`` (a site path) as a link from the page at ``current``.

    >>> relative("org/a.html", "why/a/F.html"), relative("index.html", "index.html")
    ('../../org/a.html', 'index.html')
    >>> relative("why/a/G.html", "why/a/F.html"), relative("why/ab/G.html", "why/a/F.html")
    ('G.html', '../ab/G.html')

    (posixpath.relpath would give the same, but asks the disk for the working folder on every link.)
    """
    here, there = current.split("/")[:-1], target.split("/")
    same = 0  # both are paths inside the site, no "." or "..": the common folders, then up and down
    while same < len(here) and same < len(there) - 1 and here[same] == there[same]:
        same += 1
    return "/".join([".."] * (len(here) - same) + there[same:])
