"""Time the explorer's pages with the world loaded: a card page and a proof page.

    python -m bench web --orgs 1000 [--seed 1] [--repeat 5]

Generates a world (bench/generate.py), loads it into the app once (the load
and derivation are timed apart: a server pays them once), then times GET of
the registry, one org's page (its card under every policy), and one proof
page with the Flask test client, each the median of ``--repeat`` runs over
different orgs. Target (issue 18): card and proof pages under 0.5 s at 1,000
orgs.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench web", description=__doc__.splitlines()[0])
    ap.add_argument("--orgs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)
    from provlog.queries.web import create_app

    from .generate import write

    with tempfile.TemporaryDirectory() as tmp:
        world = write(a.orgs, a.seed, Path(tmp) / "world")
        app = create_app(str(world))
        client = app.test_client()
        t0 = time.perf_counter()
        assert client.get("/matrix").status_code == 200  # the first request loads and derives
        load = time.perf_counter() - t0
        orgs = _orgs(client)[: a.repeat]

        def timed(url):
            t = time.perf_counter()
            r = client.get(url)
            assert r.status_code == 200, (url, r.status_code)
            return time.perf_counter() - t

        registry = timed("/")
        cards = [timed(f"/org/{o}") for o in orgs]
        proofs = [timed(f"/why/{o}/F") for o in orgs]
        print(f"{a.orgs} orgs: load and derive {load:.1f} s (once per server)")
        print(f"registry page (every card) {registry:.2f} s")
        print(f"org page (card under 5 policies): median {statistics.median(cards):.3f} s, max {max(cards):.3f} s")
        print(f"proof page: median {statistics.median(proofs):.3f} s, max {max(proofs):.3f} s")
    return 0


def _orgs(client):
    import re

    return re.findall(r'<tr data-org="([^"]+)">', client.get("/").get_data(as_text=True))


if __name__ == "__main__":
    raise SystemExit(main())
