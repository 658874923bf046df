"""The explorer's pages: registry, org card, proof (why and why-not), money, people, matrix.

Each route reads the world through ``the_world()`` (app.py loads it once) and the data functions of
data.py, and renders a template; nothing is written. A name not in the world is a 404.
"""
from __future__ import annotations

import re
from typing import Callable, Optional

from flask import abort, current_app, render_template, request

from ...facts import DIMS
from ...facts.schema import POLICY_NAMES
from ..api import DEFAULT_POLICY, World
from . import data

#: why-not's value: one ASCII digit 0-4 ("²".isdigit() is true, and int("٣") is 3: neither is a value here)
_NOT_VALUE = re.compile("[0-4]")


def chosen_policy(default: str) -> str:
    """The page's policy: ``?policy=P``, else ``default``; an unknown policy is a 404."""
    p = request.args.get("policy", default)
    if p not in POLICY_NAMES:
        abort(404, f"unknown policy {p!r}: one of {', '.join(POLICY_NAMES)}")
    return p


def known(w: World, org: Optional[str] = None, dim: Optional[str] = None) -> None:
    """404 unless ``org`` is an org of ``w`` and ``dim`` one of the eight dimensions."""
    if org is not None and not data.is_org(w, org):
        abort(404, f"unknown org {org!r}")
    if dim is not None and dim not in DIMS:
        abort(404, f"unknown dimension {dim!r}: one of {' '.join(DIMS)}")


def why_not_value(text: str) -> Optional[int]:
    """The ``?not=N`` of a proof page: None when absent, else 0-4; anything else is a 404.

    >>> why_not_value(" 3 "), why_not_value("")
    (3, None)
    """
    text = text.strip()
    if not text:
        return None
    if not _NOT_VALUE.fullmatch(text):
        abort(404, "why-not takes a value from 0 to 4")
    return int(text)


def held(w: World, subject: str):
    """The page that stands for ``subject`` while the public site withholds it (data.withheld), or None."""
    says = data.withheld(w, subject, current_app.config.get("PROVLOG_GATE", False))
    if not says:
        return None
    return render_template("withheld.html", subject=subject, name=data.name_of(w, subject), says=says)


def org_card(w: World, org: str, policy: str):
    """The org page, with its history: the site's, made at export (``PROVLOG_HISTORY``), or the
    explorer's, asked now under the page's policy (history.py), with its bound and any note."""
    asked = current_app.extensions.get("provlog.history")
    if asked is None:
        history = {"history": current_app.config.get("PROVLOG_HISTORY", {}).get(org)}
    else:
        shown = asked.of(org, policy)
        history = {"history": shown.entries, "history_bound": shown.bound, "history_note": shown.note}
    return render_template("org.html", o=data.policies(w, org), hops=w.hops(org), amount=data.amount, policy=policy,
                           people=data.people_at(w, org), **history)


def register(app, the_world: Callable[[], World], policy: str) -> None:
    """Add the pages to ``app``; ``policy`` is the one shown when a page names none."""

    @app.get("/")
    def registry():
        w = the_world()
        p = chosen_policy(policy)
        reg = data.placed(w, p, current_app.config.get("PROVLOG_GATE", False))
        values = {r["org"]: r["values"] for sec in reg["sections"] for r in sec["rows"]}
        return render_template("registry.html", policy=p, reg=reg, reg_values=values)

    @app.get("/org/<org>")
    def org_page(org):
        w = the_world()
        known(w, org)
        return held(w, org) or org_card(w, org, chosen_policy(policy))

    @app.get("/why/<org>/<dim>")
    def why(org, dim):
        w = the_world()
        known(w, org, dim)
        if (page := held(w, org)):
            return page
        p = chosen_policy(policy)
        not_n = why_not_value(request.args.get("not", ""))
        ways = None if not_n is None else data.why_not(w, org, dim, not_n, p)
        return render_template("why.html", pf=data.proof(w, org, dim, p), ways=ways,
                               not_n="" if not_n is None else str(not_n), name=data.name_of(w, org))

    @app.get("/money/<entity>")
    def money(entity):
        w = the_world()
        if entity not in w.facts.nodes:
            abort(404, f"unknown entity {entity!r}")
        return (w.facts.nodes[entity].kind in ("org", "person") and held(w, entity)) or render_template("money.html", t=data.ties(w, entity), name=data.name_of(w, entity),
                               linkable=w.facts.nodes)

    @app.get("/person/<pid>")
    def person(pid):
        w = the_world()
        fact = w.facts.nodes.get(pid)
        if fact is None or fact.kind != "person":
            abort(404, f"unknown person {pid!r}")
        return held(w, pid) or render_template("person.html", c=data.person(w, pid), policy=DEFAULT_POLICY)

    @app.get("/people")
    def people():
        w = the_world()
        return render_template("people.html", people=[(p, data.name_of(w, p)) for p in data.people(w)])

    @app.get("/candidates")
    def candidates():
        return render_template("candidates.html", c=data.candidates(the_world()))

    @app.get("/matrix")
    def matrix():
        return render_template("matrix.html", m=data.matrix(the_world(), current_app.config.get("PROVLOG_GATE", False)),
                               amount=data.amount)
