"""The Flask application: routes call data.py, templates render; nothing is written.

Read-only and local by default: GET only, bound to 127.0.0.1 by `provlog
serve`, a Content-Security-Policy that lets the page load only its own
scripts and styles (the graph library ships in static/vendor/), every value
escaped by Jinja2, data for scripts passed as JSON (``|tojson``), never as code.
"""
from __future__ import annotations

import os
import re
import threading
from typing import Optional

from flask import Flask, abort, render_template, request
from markupsafe import Markup

from ...facts import DIMS, LoadError
from ...facts.schema import POLICY_NAMES
from ..api import DEFAULT_POLICY, UnknownName, World
from . import data
from .links import page_path, relative


#: what a page shows as a visible code, never as itself: C0 and C1 controls (not tab or newline) and the
#: bidirectional embeddings, overrides and isolates, which would reorder the text around a name
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(value):
    """Jinja's finalize: every printed value with its control and bidi characters as [U+XXXX].

    >>> visible("a\u202eb\x07")
    'a[U+202E]b[U+0007]'
    """
    if not isinstance(value, str):
        return value
    shown = _INVISIBLE.sub(lambda m: f"[U+{ord(m.group()):04X}]", value)
    return Markup(shown) if isinstance(value, Markup) else shown


def _site_link(endpoint: str, **values) -> str:
    """url_for for the static site: the target file, relative to the page being written (see links.py)."""
    target = page_path(endpoint, values)
    here = page_path(request.endpoint, request.view_args or {})
    if target is None or here is None:
        return "#"
    return relative(target, here)

# The graph library (static/vendor/cytoscape.min.js 3.35.0) positions its canvas with style attributes
# (style-src-attr) and adds one fixed stylesheet, allowed by its hash; no other inline style, no inline script.
CYTOSCAPE_STYLE = "'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' " + CYTOSCAPE_STYLE + "; "
       "style-src-attr 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DIM_NAMES = {"F": "funding", "G": "governance", "P": "personnel", "A": "access", "S": "scope",
             "R": "publication", "M": "methods", "X": "role incompatibility"}


class _Loaded:
    """The world, loaded once on first use; or its load errors, shown on every page."""

    def __init__(self, path: str, as_of: Optional[str] = None):
        self.path, self.as_of = path, as_of
        self._lock = threading.Lock()
        self.world: Optional[World] = None
        self.error: Optional[LoadError] = None

    def get(self) -> Optional[World]:
        with self._lock:
            if self.world is None and self.error is None:
                try:
                    self.world = World.load(self.path, as_of=self.as_of)
                    self.world.fingerprint()  # proofs carry it: hash the facts once, at start, not in a request
                except LoadError as e:
                    self.error = e
            return self.world


def create_app(world: str, policy: str = DEFAULT_POLICY, as_of: Optional[str] = None, site: bool = False,
               loaded_world: Optional[World] = None) -> Flask:
    """A Flask app over the world at ``world`` (a .facts file or folder); ``policy`` is the default shown,
    ``as_of`` the date the world is read at (default: its own as-of statement, else today). ``site``: render
    for the static export (``provlog site``): relative links between files, no policy switch, no diff pages;
    ``loaded_world``: the World already loaded from ``world`` (the export loads it once)."""
    if policy not in POLICY_NAMES:
        raise UnknownName(f"unknown policy {policy!r}: one of {', '.join(POLICY_NAMES)}")
    app = Flask(__name__)
    app.jinja_env.finalize = visible
    app.config.update(PROVLOG_WORLD=world, PROVLOG_POLICY=policy, JSON_SORT_KEYS=False)
    loaded = _Loaded(world, as_of)
    loaded.world = loaded_world

    def the_world() -> World:
        w = loaded.get()
        if w is None:
            abort(503)
        return w

    def chosen_policy() -> str:
        p = request.args.get("policy", policy)
        if p not in POLICY_NAMES:
            abort(404, f"unknown policy {p!r}: one of {', '.join(POLICY_NAMES)}")
        return p

    def known(w: World, org: Optional[str] = None, dim: Optional[str] = None) -> None:
        if org is not None and org not in w.orgs:
            abort(404, f"unknown org {org!r}")
        if dim is not None and dim not in DIMS:
            abort(404, f"unknown dimension {dim!r}: one of {' '.join(DIMS)}")

    @app.context_processor
    def common():
        out = {"policies": POLICY_NAMES, "dims": DIMS, "dim_names": DIM_NAMES, "world_path": world,
               "default_policy": policy, "site": site, "csp": CSP}
        if site:  # the export's pages link to each other's files, relative, so any folder or file:// serves them
            out["world_path"] = os.path.basename(os.path.normpath(world))
            out["url_for"] = _site_link
        return out

    @app.after_request
    def headers(resp):
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        return resp

    @app.get("/")
    def registry():
        w = the_world()
        p = chosen_policy()
        reg = data.placed(w, p)
        values = {r["org"]: r["values"] for sec in reg["sections"] for r in sec["rows"]}
        return render_template("registry.html", policy=p, reg=reg, reg_values=values)

    @app.get("/org/<org>")
    def org_page(org):
        w = the_world()
        known(w, org)
        return render_template("org.html", o=data.policies(w, org), hops=w.hops(org), amount=data.amount,
                               policy=chosen_policy(), people=data.people_at(w, org))

    @app.get("/why/<org>/<dim>")
    def why(org, dim):
        w = the_world()
        known(w, org, dim)
        p = chosen_policy()
        not_n = request.args.get("not", "").strip()
        ways = None
        if not_n:
            if not not_n.isdigit() or not 0 <= int(not_n) <= 4:
                abort(404, "why-not takes a value from 0 to 4")
            ways = data.why_not(w, org, dim, int(not_n), p)
        return render_template("why.html", pf=data.proof(w, org, dim, p), ways=ways, not_n=not_n,
                               name=data.name_of(w, org))

    @app.get("/money/<entity>")
    def money(entity):
        w = the_world()
        if entity not in w.facts.nodes:
            abort(404, f"unknown entity {entity!r}")
        return render_template("money.html", t=data.ties(w, entity), name=data.name_of(w, entity),
                               linkable=w.facts.nodes)

    @app.get("/person/<pid>")
    def person(pid):
        w = the_world()
        fact = w.facts.nodes.get(pid)
        if fact is None or fact.kind != "person":
            abort(404, f"unknown person {pid!r}")
        return render_template("person.html", c=data.person(w, pid), policy=DEFAULT_POLICY)

    @app.get("/people")
    def people():
        w = the_world()
        return render_template("people.html", people=[(p, data.name_of(w, p)) for p in data.people(w)])

    @app.get("/matrix")
    def matrix():
        return render_template("matrix.html", m=data.matrix(the_world()), amount=data.amount)

    from .diff import register  # the diff pages (issue 28): routes and templates of their own
    register(app, the_world, world, as_of)

    @app.errorhandler(503)
    def not_loaded(_):
        return render_template("errors.html", error=loaded.error), 503

    @app.errorhandler(404)
    def not_found(e):
        return render_template("notfound.html", message=e.description), 404

    @app.errorhandler(405)
    def read_only(_):
        return render_template("notfound.html", message="this explorer is read-only"), 405

    return app
