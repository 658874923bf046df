"""`provlog serve`: a local, read-only web explorer over the query API.

    >>> from provlog.queries.web import create_app             # doctest: +SKIP
    >>> app = create_app("facts/worlds/example")                # doctest: +SKIP
    >>> app.test_client().get("/").status_code                  # doctest: +SKIP
    200

Pages: the registry (every org's card under a policy), one org under every
policy, a value's proof (a collapsible tree and a graph) with why-not, the tie
graph from any entity to the labs, the money matrix, and a world's load
errors when it does not load. Every answer comes from :class:`World`; nothing
from a request reaches the engine but through the goal grammar; every fact
shown is escaped. Needs the `web` extra (Flask).
"""
from .app import create_app

__all__ = ["create_app"]
