"""Time `provlog site` on a generated world: load and derive apart, then every page and its JSON.

    python -m bench site --orgs 1000 [--seed 1] [--repeat 1]

Generates a world (bench/generate.py), loads it once (timed apart, as the CLI
pays it once), then writes the whole static site (queries/web/export.py) to a
temporary folder, ``--repeat`` times, and prints the median, the number of
files and bytes, and checks that two exports are byte-identical. Target
(issue 29): the site of 1,000 orgs written in under 60 s.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import tempfile
import time
from pathlib import Path


def _digest(root: Path):
    h, n, size = hashlib.sha256(), 0, 0
    for p in sorted(root.rglob("*")):
        if p.is_file():
            body = p.read_bytes()
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + body)
            n, size = n + 1, size + len(body)
    return h.hexdigest(), n, size


def _cpu():
    """CPU seconds (user and system) of this process and of its finished workers (the site's proofs)."""
    import resource  # POSIX only, as the workers' fork is

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench site", description=__doc__.splitlines()[0])
    ap.add_argument("--orgs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args(argv)
    from provlog.queries.api import World
    from provlog.queries.web.export import export

    from .generate import write

    with tempfile.TemporaryDirectory() as tmp:
        world = write(a.orgs, a.seed, Path(tmp) / "world")
        t0 = time.perf_counter()
        w = World.load(str(world))
        w.fingerprint()
        w.derivation  # derived on first use: here, so the export below times the pages alone
        load = time.perf_counter() - t0
        times, digests, cpu = [], set(), []
        for i in range(a.repeat):
            out = Path(tmp) / f"site{i}"
            t, c = time.perf_counter(), _cpu()
            export(str(world), str(out), loaded=w)
            times.append(time.perf_counter() - t)
            cpu.append(tuple(after - before for after, before in zip(_cpu(), c)))
            digest, n, size = _digest(out)
            digests.add(digest)
        print(f"{a.orgs} orgs: load and derive {load:.1f} s (once)")
        print(f"site: {n} files, {size / 1e6:.1f} MB; written in median {statistics.median(times):.1f} s "
              f"(runs: {', '.join(f'{x:.1f}' for x in times)})")
        # CPU seconds say more than the clock on a shared machine: the same work whatever the load
        print("CPU: " + "; ".join(f"this process {p:.1f} s + workers {k:.1f} s" for p, k in cpu)
              + f" (load average {os.getloadavg()[0]:.1f})")
        if a.repeat > 1:
            print(f"byte-identical across runs: {'yes' if len(digests) == 1 else 'NO'}")
    return 0 if len(digests) == 1 else 1  # one run: nothing to compare, 0


if __name__ == "__main__":
    raise SystemExit(main())
