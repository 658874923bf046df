"""``provlog outreach WORLD OUT/``: the letters a registry sends before each publication (docs/outreach.md).

One letter per org (and, with ``people``, per named person) as Markdown, JSON and a ``.eml`` draft
(queries/letters.py says what a letter holds, queries/mail.py writes it). ``since``, the world at an
earlier revision (read as ``provlog diff`` reads a side, queries/diff.py ``side``), keeps the letters
of the subjects whose letter moved since: its digest (card, evidence, document requests, roles)
differs, or the subject is new.

    >>> from provlog import World                                           # doctest: +SKIP
    >>> [l["subject"] for l in chosen(World.load("w"), people=False)][:1]    # doctest: +SKIP
    ['bastrel']
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

from ..errors import ProvlogError, UnknownName
from .letters import digest, letters, org_letter, person_letter, subjects
from .mail import SENDER, to_eml, to_markdown


class OutreachError(ProvlogError):
    """OUT cannot take the letters (a file, an unwritable folder): exit 1."""

    exit_code = 1


def digests(world, people: bool) -> Dict[str, str]:
    """Each subject's letter digest (what it says, less its dates)."""
    orgs = {o: org_letter(world, o) for o in sorted(world.orgs)}
    return {s: digest(orgs[s] if s in orgs else person_letter(world, s, orgs)) for s in subjects(world, people)}


def chosen(world, people: bool = False, only: Optional[Iterable[str]] = None, since=None) -> List[Dict[str, Any]]:
    """The letters to write: every subject's, ``only`` these, and with ``since`` (a World) only those
    whose letter moved since."""
    known = set(subjects(world, people))
    only = None if only is None else set(only)
    for s in sorted(only or ()):
        if s not in known:
            what = "an org or a named person (with --people)" if not people else "an org or a named person"
            raise UnknownName(f"unknown subject {s!r}: --only takes {what} of the world")
    if since is not None:
        before = digests(since, people)
        moved = {s for s, d in digests(world, people).items() if before.get(s) != d}
        only = moved if only is None else only & moved
    return letters(world, people, only)


def write(letters_: List[Dict[str, Any]], out: str, sender: str = SENDER) -> List[str]:
    """Each letter as ``OUT/<id>.md``, ``.json`` and ``.eml``; the files written, in order."""
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise OutreachError(f"{out} is not a folder: outreach writes its letters into a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
        written = []
        for l in letters_:
            body = {"md": to_markdown(l).encode("utf-8"), "eml": to_eml(l, sender),
                    "json": (json.dumps(l, sort_keys=True, ensure_ascii=False, indent=2) + "\n").encode("utf-8")}
            for ext in ("md", "json", "eml"):
                (root / f"{l['subject']}.{ext}").write_bytes(body[ext])
                written.append(f"{l['subject']}.{ext}")
    except OSError as e:
        raise OutreachError(f"cannot write the letters to {out}: {e.strerror or e}") from None
    return written
