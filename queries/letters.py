"""What a letter before publication says (RULES sections 11-12, X.1): the card, its evidence, the
documents asked for, the reply-by date. queries/mail.py writes it as Markdown and as a .eml draft.

An org's letter carries its card under the site's policy (standard), per value the sources its proof
cites (with the quoted spans), and every **open question**: for each value below 4, each way
`why-not` finds to the next value (explain/why.py) and what would lift it, phrased as a request for a
document, never as a suspicion. A named person's letter carries their public roles only (section 12:
no motive, no timing) and the requests of every org's letter whose facts name them (their gift or
role). The letter's **digest** is a SHA-256 of what it says, less its dates: a contact records it
(``letter=``) and ``check`` warns when the subject's letter has moved since (W130).

    >>> from provlog import World                                       # doctest: +SKIP
    >>> org_letter(World.load("facts/worlds/example"), "lodevane")["requests"][0]["dim"]  # doctest: +SKIP
    'F'
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Dict, List, Optional

from ..explain import to_json
from ..facts import DIMS
from .records import DEFAULT_POLICY
from .windows import state

#: the RULES' names of the eight dimensions (sections 1-8)
DIM_NAMES = {"F": "Funding", "G": "Governance", "P": "Personnel", "A": "Access depth, lab-granted",
             "S": "Scope control", "R": "Publication rights", "M": "Method transparency",
             "X": "Role incompatibility"}

ASK = "please send it, or tell us where it is published"

# a lift's tail that points at a statement of the world: the letter asks for the document instead
_UNLESS = re.compile(r":? unless (?:the statement|`.*`)(?: at \S+)? is corrected$")
_RECORDED = re.compile(r"^(\S+) is recorded under (\S+): it lifts only when retired")
_GENERIC = re.compile(r"^a signal that (floors|caps) \S+ ([A-Z]) at (\d) under a clause of the RULES")
_AT = re.compile(r"(?: at |@)[^\s`]+?(?:\.facts|>):\d+")  # a file:line of the world: nothing the reader holds


def request_text(dim: str, value: int, target: int, clause: Optional[str], lift: str) -> Optional[str]:
    """One lift of why-not as a request for a document (None: a lift that asks nothing of the reader).

        >>> request_text("P", 2, 3, "P.5", "a signal that floors e P at 3 under a clause of the RULES, "
        ...              "admissible under standard")
        'P is 2: a published document that supports P at 3 under a clause of the RULES would make it 3: please send it, or tell us where it is published.'
        >>> request_text("F", 2, 3, "F.7", "F.7: lab employee ana gives e a donation above 10% of revenue: "
        ...              "cap 2: unless the statement at w.facts:3 is corrected")
        'F is 2 (F.7) because lab employee ana gives e a donation above 10% of revenue: cap 2. If that is not so, a document that shows it would make F 3: please send it, or tell us where it is published.'
    """
    lift = lift.strip()
    if not lift or lift.startswith("no rule derives"):
        return None
    rule = f" ({clause})" if clause else ""
    m = _GENERIC.match(lift)
    if m:
        return (f"{dim} is {value}: a published document that supports {dim} at {m.group(3)} under a clause of "
                f"the RULES would make it {target}: {ASK}.")
    m = _RECORDED.match(lift)
    if m:
        return (f"{dim} is {value}{rule} on the evidence recorded as {m.group(1)}. If it no longer holds, a "
                f"document that shows it would make {dim} {target}: {ASK}.")
    said = _AT.sub("", lift)
    if clause and said.startswith(f"{clause}: "):
        said = said[len(clause) + 2:]
    if _UNLESS.search(lift):
        said = _UNLESS.sub("", said)
        return (f"{dim} is {value}{rule} because {said}. If that is not so, a document that shows it would make "
                f"{dim} {target}: {ASK}.")
    return f"{dim} is {value}{rule}: {said}. A document that shows otherwise would make {dim} {target}: {ASK}."


_NAMED = re.compile(r" at (\S+?(?:\.facts|>):\d+) is corrected$")


def _facts_of(way: Dict[str, Any], lift: str) -> List[str]:
    """The statements a lift is about: the one it names (``unless the statement at LOC is corrected``),
    else every statement of its way."""
    m = _NAMED.search(lift)
    named = [f["statement"] for f in way["facts"] if m and f["loc"] == m.group(1)]
    return named or [f["statement"] for f in way["facts"]]


def _requests(world, org: str, dim: str, value: Optional[int]) -> List[Dict[str, Any]]:
    """The open questions of one value: each why-not way to the next value and its lifts."""
    if value is None or value >= 4:
        return []
    out = []
    for way in world.why_not(org, dim, value + 1, DEFAULT_POLICY)["ways"]:
        if way["way"] == "resolution":  # a conflict's resolution is the curator's to write, not a document
            continue
        clause = way["blocked_by"].get("clause") or way.get("rule")
        for lift in way["lift"]:
            text = request_text(dim, value, value + 1, clause, lift)
            if text is not None:
                out.append({"dim": dim, "value": value, "target": value + 1, "clause": clause, "text": text,
                            "facts": _facts_of(way, lift)})
    seen, kept = set(), []
    for r in out:  # two ways may lift through the same condition: ask once
        if r["text"] not in seen:
            seen.add(r["text"])
            kept.append(r)
    return kept


def _evidence(world, org: str, dim: str) -> List[Dict[str, Any]]:
    """The sources the value's proof cites, each with the span quoted from it (one row each)."""
    with world._lock:
        root, graph = world._proof(org, dim, DEFAULT_POLICY)
        g = to_json(graph, root)
    rows = {}
    for n in g["nodes"]:
        for s in n.get("sources") or ():
            f = world.facts.sources.get(s["id"])
            rows[(s["id"], s.get("span") or "")] = {"source": s["id"], "title": f["title"] if f is not None else s["id"],
                                                    "span": s.get("span")}
    return [rows[k] for k in sorted(rows)]


def _name(world, node: str) -> str:
    f = world.facts.nodes.get(node)
    return f["name"] if f is not None else node


def org_letter(world, org: str) -> Dict[str, Any]:
    """An org's letter (without its dates: :func:`dated` adds them)."""
    c = world.card(org, DEFAULT_POLICY)
    values, evidence, requests = [], [], []
    for d in DIMS:
        sig, rule = c.deciders.get(d, (None, None))
        values.append({"dim": d, "name": DIM_NAMES[d], "value": c.values[d], "rule": rule})
        evidence.append({"dim": d, "value": c.values[d], "rule": rule,
                         "sources": _evidence(world, org, d) if c.values[d] is not None else []})
        requests += _requests(world, org, d, c.values[d])
    return {"subject": org, "kind": "org", "name": _name(world, org), "policy": DEFAULT_POLICY,
            "card": {"values": values, "band": c.band, "role": c.role}, "evidence": evidence,
            "requests": requests}


def concerns(statement: str, pid: str) -> Optional[str]:
    """What a statement of a way says of person ``pid``: ``gift`` (money they paid), ``role``, or None.

        >>> concerns("money ana e donation share=12%", "ana"), concerns("role ana employee lab1", "ana")
        ('gift', 'role')
        >>> concerns("money anabel e donation", "ana") is None
        True
    """
    words = statement.split()
    if words[:1] == ["money"] and words[1:2] == [pid]:
        return "gift"
    if words[:1] == ["role"] and words[1:2] == [pid]:
        return "role"
    return None


def person_letter(world, pid: str, org_letters: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """A named person's letter: public roles only, and each org letter's request whose facts concern
    their gift or role (section 12: it "goes to the person before it is published")."""
    roles = []
    for f in world.facts.of("role"):
        if f["person"] == pid:
            roles.append({"role": f["role"], "at": f["at"], "at_name": _name(world, f["at"]),
                          "recusal": f["recusal"], "sources": sorted(f.src or ()), "span": f.span})
    roles.sort(key=lambda r: (r["at"], r["role"], r["sources"]))
    requests = []
    for org in sorted(org_letters):
        for r in org_letters[org]["requests"]:
            about = sorted({a for s in r["facts"] if (a := concerns(s, pid))})
            if about:
                requests.append(dict(r, org=org, org_name=org_letters[org]["name"], about=about))
    return {"subject": pid, "kind": "person", "name": _name(world, pid), "roles": roles, "requests": requests}


def digest(letter: Dict[str, Any]) -> str:
    """SHA-256 of what a letter says, less its dates (canonical JSON)."""
    body = {k: v for k, v in letter.items() if k not in ("dates", "digest")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                                     default=str).encode("utf-8")).hexdigest()


def dated(world, letter: Dict[str, Any]) -> Dict[str, Any]:
    """The letter with its digest and dates: written on the world's as-of date; the reply-by date of
    the subject's letter if it was sent, else that of a letter sent today (the as-of date)."""
    w = state(world, letter["subject"])
    return dict(letter, digest=digest(letter),
                dates={"written": world.as_of, "sent": w.sent, "window": w.window, "reply_by": w.reply_by,
                       "status": w.status})


def subjects(world, people: bool) -> List[str]:
    """The orgs (and, with ``people``, the named persons) that receive a letter, sorted."""
    persons = sorted(k for k, f in world.facts.nodes.items() if f.kind == "person") if people else []
    return sorted(world.orgs) + persons


def letters(world, people: bool = False, only=None) -> List[Dict[str, Any]]:
    """Every letter of the world (orgs, then persons with ``people``), each :func:`dated`; ``only``: these
    subjects alone (a person's requests still come from every org's letter)."""
    orgs = {o: org_letter(world, o) for o in sorted(world.orgs)}
    out = []
    for s in subjects(world, people):
        if only is not None and s not in only:
            continue
        out.append(dated(world, orgs[s] if s in orgs else person_letter(world, s, orgs)))
    return out
