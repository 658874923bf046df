"""The Flask application: configuration, headers, the host and method guard, error pages; the routes are
pages.py's and diff.py's, which call data.py; templates render; nothing is written.

Read-only and local by default: GET only, bound to 127.0.0.1 by `provlog
serve`, a Content-Security-Policy that lets the page load only its own
scripts and styles (the graph library ships in static/vendor/), every value
escaped by Jinja2, data for scripts passed as JSON (``|tojson``), never as code.
"""
from __future__ import annotations

import os
import threading
from typing import Optional, Tuple

from flask import Flask, abort, render_template, request
from markupsafe import Markup

from ...errors import CONTROLS
from ...facts import DIMS, LoadError
from ...facts.schema import POLICY_NAMES
from ..api import DEFAULT_POLICY, UnknownName, World
from . import diff, pages
from .links import page_path, relative




def visible(value):
    """Jinja's finalize: every printed value with its control and bidi characters as [U+XXXX].

    >>> visible("a\u202eb\x07")
    'a[U+202E]b[U+0007]'
    """
    if not isinstance(value, str):
        return value
    shown = CONTROLS.sub(lambda m: f"[U+{ord(m.group()):04X}]", value)
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


#: the names a browser on this machine calls the explorer by (the bind is 127.0.0.1 unless --host says)
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")
#: binding these serves every interface: the Host header is whatever name the machine is reached by
WILDCARD = ("0.0.0.0", "::", "[::]")


def host_served(header: str, hosts: Tuple[str, ...]) -> bool:
    """Whether a request's ``Host`` header names this explorer: its name (the port aside) is one of
    ``hosts``. A page of another site whose name resolves to 127.0.0.1 (DNS rebinding) sends its own
    name, and is refused.

    >>> host_served("localhost:8470", LOOPBACK), host_served("evil.example:8470", LOOPBACK)
    (True, False)
    >>> host_served("[::1]:8470", LOOPBACK), host_served("127.0.0.1", LOOPBACK)
    (True, True)
    """
    name = header.rsplit(":", 1)[0] if not header.endswith("]") else header
    return name.lower() in hosts


def create_app(world: str, policy: str = DEFAULT_POLICY, as_of: Optional[str] = None, site: bool = False,
               loaded_world: Optional[World] = None, host: str = "127.0.0.1", gate: bool = False,
               preview: bool = False, history: Optional[str] = None, history_last: Optional[int] = None) -> Flask:
    """A Flask app over the world at ``world`` (a .facts file or folder); ``policy`` is the default shown,
    ``as_of`` the date the world is read at (default: its own as-of statement, else today). ``site``: render
    for the static export (``provlog site``): relative links between files, no policy switch, no diff pages;
    ``loaded_world``: the World already loaded from ``world`` (the export loads it once); ``host``: the
    address served (``provlog serve --host``): requests must name it or a loopback name. ``gate``: withhold
    each subject still in its reply window (the public site, docs/outreach.md); ``preview``: mark every
    page a preview (``provlog site --preview``). ``history``: a range of the world's git history (its
    newest ``history_last`` commits): each org page shows what moved of it there, under the page's
    policy (the explorer; the site's export sets its own, docs/history.md)."""
    if policy not in POLICY_NAMES:
        raise UnknownName(f"unknown policy {policy!r}: one of {', '.join(POLICY_NAMES)}")
    app = Flask(__name__)
    app.jinja_env.finalize = visible
    app.config.update(PROVLOG_WORLD=world, PROVLOG_POLICY=policy, JSON_SORT_KEYS=False, PROVLOG_GATE=gate,
                      PROVLOG_PREVIEW=preview)
    loaded = _Loaded(world, as_of)
    loaded.world = loaded_world

    def the_world() -> World:
        w = loaded.get()
        if w is None:
            abort(503)
        return w

    if history is not None and not site:
        from .history import Histories

        app.extensions["provlog.history"] = Histories(world, history, history_last, as_of)
    _guard(app, host)
    _common(app, world, policy, site)
    pages.register(app, the_world, policy)
    diff.register(app, the_world, world, as_of)  # the diff pages (issue 28): routes and templates of their own
    _errors(app, loaded)
    return app


def _guard(app: Flask, host: str) -> None:
    """GET and HEAD only, and only for a request that names the served host (or a loopback name)."""
    # an IPv6 address is named in brackets in a Host header ([fe80::5]:8470)
    hosts = None if host in WILDCARD else LOOPBACK + (host.lower(), f"[{host.lower()}]")

    @app.before_request
    def read_only_here():
        if request.method not in ("GET", "HEAD"):  # Flask answers OPTIONS itself unless stopped here
            abort(405)
        if hosts is not None and not host_served(request.host, hosts):
            abort(400, f"this explorer serves {host}, not {request.host!r}")


def _common(app: Flask, world: str, policy: str, site: bool) -> None:
    """What every template sees, and the headers of every answer (the CSP above)."""
    @app.context_processor
    def common():
        out = {"policies": POLICY_NAMES, "dims": DIMS, "dim_names": DIM_NAMES, "world_path": world,
               "default_policy": policy, "site": site, "csp": CSP, "preview": app.config["PROVLOG_PREVIEW"]}
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


def _errors(app: Flask, loaded: _Loaded) -> None:
    """The error pages: the world's load errors (503), unknown names (404), other hosts (400), methods (405)."""
    @app.errorhandler(503)
    def not_loaded(_):
        return render_template("errors.html", error=loaded.error), 503

    @app.errorhandler(404)
    def not_found(e):
        return render_template("notfound.html", message=e.description), 404

    @app.errorhandler(400)
    def not_served(e):
        return render_template("notfound.html", message=e.description), 400

    @app.errorhandler(405)
    def read_only(_):
        return render_template("notfound.html", message="this explorer is read-only"), 405, {"Allow": "GET, HEAD"}
