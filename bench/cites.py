"""Many citations on one signal: load, derive and peak memory (issue 12).

    python -m bench cites --cites 200000 [--mem-limit-gib 8]

Builds a world of one org with a floor-4 signal on each of ``--dims`` (F,
under F.12; X, under X.7; both ``negative``), each citing ``--cites``
sources: all from one publisher but the last, from a second; one tier-1 source
among them and a span on the first cite. Hand-derived, every test passes: C16
(a span and a tier-1 source), F.12 (negative, a tier-1 source, a second
publisher), X.7 (negative, a span, a second source), so every value is 4 under
standard; the run says whether it is. Each size runs in a fresh subprocess under an address-space
limit (``--mem-limit-gib``), so a blow-up is reported as a MemoryError, never
a kernel kill. Prints one line per size: load and derive seconds (wall/CPU),
peak RSS and the two values.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def world_text(n: int, dims: str = "FX") -> str:
    """The world: one org, a floor-4 signal on each of ``dims`` with ``n`` cites each."""
    out = ['org big "Big Evaluator" type=nonprofit evaluated=yes',
           'entity pub-a "Publisher A" kind=company',
           'entity pub-b "Publisher B" kind=company']
    for i in range(n):
        pub = "pub-b" if i == n - 1 else "pub-a"
        tier = 1 if i == 0 else 3
        out.append(f'source s{i} "https://a.example/{i}" publisher={pub} status=confirmed tier={tier}')
    for dim in dims:
        rule = {"F": "F.12", "X": "X.7"}[dim]
        out.append(f"signal big-{dim.lower()} big {dim} for floor 4 rule={rule} negative")
        out.append(f'cite big-{dim.lower()} s0 "no commercial products"')
        out.extend(f"cite big-{dim.lower()} s{i}" for i in range(1, n))
    return "\n".join(out) + "\n"


def child(n: int, dims: str) -> dict:
    from provlog.facts import load_world
    from provlog.queries.api import World

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cites.facts"
        path.write_text(world_text(n, dims))
        res = {"cites": n, "statements": 0}
        w0, c0 = time.perf_counter(), time.process_time()
        facts = load_world(path)
        res["statements"] = len(facts)
        res["load"] = (round(time.perf_counter() - w0, 2), round(time.process_time() - c0, 2))
        w0, c0 = time.perf_counter(), time.process_time()
        w = World(facts)
        res["derive"] = (round(time.perf_counter() - w0, 2), round(time.process_time() - c0, 2))
        res["values"] = {d: w.value("big", d, "standard").value for d in dims}
    res["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return res


def run_one(n: int, dims: str, mem_limit_gib: float) -> dict:
    """One size in a fresh subprocess under an address-space limit."""
    def limit():
        cap = int(mem_limit_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    p = subprocess.run([sys.executable, "-m", "bench.cites", "--child", str(n), "--dims", dims], capture_output=True, text=True,
                       preexec_fn=limit)
    if p.returncode == 0:
        return json.loads(p.stdout.strip().splitlines()[-1])
    last = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"cites": n, "failed": f"exit {p.returncode}: {last}"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench cites", description=__doc__.split("\n\n")[0])
    ap.add_argument("--cites", default="1000,200000", help="comma-separated cites per signal (default 1000,200000)")
    ap.add_argument("--dims", default="X", choices=("F", "X", "FX"),
                    help="one floor-4 signal on each (default X: X.7 and C16; F adds F.12)")
    ap.add_argument("--mem-limit-gib", type=float, default=6.0, help="address-space limit of each run (default 6)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child is not None:
        print(json.dumps(child(a.child, a.dims)))
        return 0
    print(f"signals on {a.dims}; cites/signal  statements  load s wall/cpu  derive s wall/cpu  peak MiB"
          f"  values (expected {' '.join('4' for _ in a.dims)})")
    for n in (int(x) for x in a.cites.split(",")):
        r = run_one(n, a.dims, a.mem_limit_gib)
        if "failed" in r:
            print(f"{n:>12,}  {r['failed']}")
        else:
            print(f"{n:>12,}  {r['statements']:>10,}  {r['load'][0]:>6}/{r['load'][1]:<7}  "
                  f"{r['derive'][0]:>7}/{r['derive'][1]:<8}  {r['peak_mib']:>8}  "
                  + " ".join(str(r["values"][d]) for d in a.dims))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
