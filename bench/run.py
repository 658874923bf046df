"""Time provlog on synthetic worlds, one subprocess per size.

    python -m bench run --sizes 50,200,1000 [--seed N] [--out bench/out/results.json] [--clingo]
                        [--timeout SECONDS] [--worlds bench/out/worlds] [--profile]

Per size, in a fresh subprocess (so that peak memory is the size's own):

* ``generate``: write the world (not part of provlog's time);
* ``load``: parse and check it (``load_world``);
* ``derive``: ``World(facts)``, which runs the whole derivation (every value
  under all five policies, bands, roles, hops);
* ``values``: read ``w.value`` for every org x dimension x policy;
* ``card``, ``hops``: one ``w.card(org)``, one ``w.hops(org)``;
* ``why``: one proof of a value (``World.why`` or ``provlog.explain``), if
  provlog offers one, skipped with a note otherwise; ``why_again``: a second
  proof, of another org, in the same world;
* ``peak_rss``: the subprocess's peak resident set size, from
  ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` (not tracemalloc, which would
  slow pyDatalog down several times and misses C++ allocations);
* with ``--clingo``: the independent ASP evaluation (bench/clingo_check.py)
  of the same world, its time, the ratio provlog/clingo, and every
  (org, dim, policy) where the two disagree.

Times are wall-clock seconds (``perf_counter``) with CPU seconds of the
process (``process_time``) beside them: on a shared machine CPU time is the
steadier number; ``gc`` beside them is the part spent in Python's cyclic
garbage collector (``gc.callbacks``). ``--profile`` adds a cProfile of the derivation (top
functions) and per-relation timings (bench/profile.py) to the JSON.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ("leads-included", "standard", "against-interest", "verified-spans", "primary-only")
DIMS = "FGPASRMX"


class _GC:
    """Seconds spent in Python's cyclic garbage collector (gc.callbacks), by generation."""

    def __init__(self):
        self.total = 0.0
        self.by_gen = [0.0, 0.0, 0.0]
        self._t = 0.0
        gc.callbacks.append(self._cb)

    def _cb(self, phase, info):
        if phase == "start":
            self._t = time.perf_counter()
        else:
            dt = time.perf_counter() - self._t
            self.total += dt
            self.by_gen[info.get("generation", 2)] += dt


class _Clock:
    def __init__(self):
        self.out: Dict[str, Dict[str, float]] = {}
        self.gc = _GC()

    def __call__(self, name: str):
        clock = self

        class _T:
            def __enter__(self):
                self.w, self.c, self.g = time.perf_counter(), time.process_time(), clock.gc.total

            def __exit__(self, *exc):
                clock.out[name] = {"wall": round(time.perf_counter() - self.w, 4),
                                   "cpu": round(time.process_time() - self.c, 4),
                                   "gc": round(clock.gc.total - self.g, 4)}
        return _T()


def _peak_rss_mib() -> float:
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return round(kib / 1024, 1)


def _why(w, org: str, dim: str, policy: str):
    """One proof of a value, by whatever provlog offers; (result, note)."""
    if hasattr(w, "why"):
        return w.why(org, dim, policy), "World.why"
    try:
        import provlog.explain as ex  # noqa: F401
    except ImportError:
        return None, "skipped: provlog.explain is not importable"
    if hasattr(ex, "why"):
        return ex.why(w.derivation, org, dim, policy), "provlog.explain.why"
    if hasattr(ex, "explain_value"):
        return ex.explain_value(w.derivation, org, dim, policy), "provlog.explain.explain_value"
    return None, "skipped: provlog.explain offers no why"


def child(size: int, seed: int, world_dir: Path, use_clingo: bool, profile: bool) -> Dict[str, Any]:
    """One size, measured in this process."""
    from bench.generate import write

    clock = _Clock()
    res: Dict[str, Any] = {"orgs": size, "seed": seed}
    path = world_dir / f"w{size}-s{seed}"
    with clock("generate"):
        write(size, seed, path)
    res["world"] = str(path)
    res["world_bytes"] = sum(p.stat().st_size for p in path.glob("*.facts"))

    from provlog.facts import load_world
    from provlog.queries.api import World

    with clock("load"):
        facts = load_world(path)
    res["statements"] = len(facts)
    res["signals"] = len(facts.of("signal"))
    res["cites"] = len(facts.of("cite"))
    res["rss_after_load_mib"] = _peak_rss_mib()
    if profile:
        import cProfile
        import io
        import pstats

        pr = cProfile.Profile()
        pr.enable()
    with clock("derive"):
        w = World(facts, name=str(path), freeze=True)
    if profile:
        pr.disable()
        buf = io.StringIO()
        pstats.Stats(pr, stream=buf).sort_stats("cumulative").print_stats(20)
        res["cprofile_derive"] = buf.getvalue()
    res["rss_after_derive_mib"] = _peak_rss_mib()
    res["derived_signals"] = len(w.derivation.derived)
    orgs = w.orgs
    with clock("values"):
        n = 0
        for o in orgs:
            for d in DIMS:
                for p in POLICIES:
                    w.value(o, d, p)
                    n += 1
    res["values_read"] = n
    org = orgs[len(orgs) // 2]
    res["probe_org"] = org
    with clock("card"):
        w.card(org)
    with clock("hops"):
        w.hops(org)
    # the first why after load, then a second one on another org (what a reader's next question costs)
    for key, o, d in (("why", org, "F"), ("why_again", orgs[0], "G")):
        try:
            with clock(key):
                got, note = _why(w, o, d, "standard")
            res["why_note"] = note
            if got is None:
                clock.out.pop(key, None)
        except Exception as e:  # report, do not hide: a failing why is a finding
            clock.out.pop(key, None)
            res["why_note"] = f"failed: {type(e).__name__}: {e}"
    res["times"] = clock.out
    res["peak_rss_mib"] = _peak_rss_mib()
    res["provlog_total"] = {k: round(sum(clock.out[s][k] for s in ("load", "derive", "values")), 4)
                            for k in ("wall", "cpu")}
    if use_clingo:
        from bench import clingo_check

        with clock("clingo"):
            cres = clingo_check.evaluate(facts)
        res["clingo"] = {"times": cres.times, "atoms": cres.stats}
        res["times"] = clock.out
        diff = clingo_check.compare(w, cres)
        res["disagreements"] = diff
        base = res["times"]["derive"]["cpu"] + res["times"]["values"]["cpu"]
        res["ratio_provlog_over_clingo"] = round(base / max(clock.out["clingo"]["cpu"], 1e-9), 1)
    if profile:
        from bench.profile import relation_times

        res["relation_times"] = relation_times(facts)
    return res


def _fmt(res: Dict[str, Any], key: str, scale: float = 1.0, digits: int = 2) -> str:
    t = res.get("times", {}).get(key)
    if t is None:
        return "-"
    return f"{t['wall'] * scale:.{digits}f}/{t['cpu'] * scale:.{digits}f}"


def table(results: List[Dict[str, Any]]) -> str:
    head = ["orgs", "stmts", "load s", "derive s", "of it gc", "values s", "card ms", "hops ms", "why s", "why 2nd s", "peak MiB",
            "clingo s", "ratio", "disagree"]
    rows = [head]
    for r in results:
        if "error" in r:
            rows.append([str(r["orgs"]), "-", r["error"]] + [""] * (len(head) - 3))
            continue
        rows.append([
            str(r["orgs"]), str(r["statements"]), _fmt(r, "load"), _fmt(r, "derive"),
            "-" if r["times"]["derive"].get("gc") is None else f"{r['times']['derive']['gc']:.2f}",
            _fmt(r, "values"),
            _fmt(r, "card", 1000, 1), _fmt(r, "hops", 1000, 1), _fmt(r, "why"), _fmt(r, "why_again"),
            str(r["peak_rss_mib"]), _fmt(r, "clingo"),
            str(r.get("ratio_provlog_over_clingo", "-")),
            str(len(r["disagreements"])) if "disagreements" in r else "-",
        ])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [" | ".join(c.rjust(wd) for c, wd in zip(row, widths)) for row in rows]
    lines.insert(1, "-+-".join("-" * wd for wd in widths))
    lines.append("(times: wall/cpu seconds; 'of it gc': seconds of derive spent in Python's cyclic GC; "
                 "peak = max RSS of the size's subprocess)")
    ok = [r for r in results if "error" not in r]
    for a, b in zip(ok, ok[1:]):
        ca, cb = a["times"]["derive"]["cpu"], b["times"]["derive"]["cpu"]
        sa, sb = a["statements"], b["statements"]
        if ca > 0 and sb != sa:
            k = math.log(cb / ca) / math.log(sb / sa)
            lines.append(f"derive cpu {a['orgs']} -> {b['orgs']} orgs: x{cb / ca:.2f} for x{sb / sa:.2f} statements "
                         f"(exponent {k:.2f}; {1000 * ca / sa:.2f} -> {1000 * cb / sb:.2f} ms per statement)")
    return "\n".join(lines)


def table_main(argv: Optional[List[str]] = None) -> int:
    """python -m bench table results.json: the table of a results file."""
    ap = argparse.ArgumentParser(prog="python -m bench table")
    ap.add_argument("results", type=Path, nargs="+")
    a = ap.parse_args(argv)
    results = []
    for p in a.results:
        data = json.loads(p.read_text(encoding="utf-8"))
        results += data["results"]
        print(f"{p}: provlog {data['meta'].get('provlog_commit', '?')}, {data['meta']['date']}")
    results.sort(key=lambda r: r["orgs"])
    print(table(results))
    return 0


def _revision() -> str:
    """provlog's commit when the run starts, ``+dirty`` if files outside bench/ differ from it."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench"],
                               cwd=ROOT, capture_output=True, text=True).stdout.strip()
        return (rev or "unknown") + ("+dirty" if dirty else "")
    except OSError:
        return "unknown"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench run")
    ap.add_argument("--sizes", default="50,200,1000", help="comma-separated org counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "results.json")
    ap.add_argument("--worlds", type=Path, default=ROOT / "bench" / "out" / "worlds")
    ap.add_argument("--clingo", action="store_true", help="also evaluate with clingo and compare")
    ap.add_argument("--profile", action="store_true", help="cProfile and per-relation times (slow)")
    ap.add_argument("--timeout", type=float, default=4 * 3600, help="seconds per size (default 4 h)")
    ap.add_argument("--mem-limit-gib", type=float, help="address-space limit of each size's subprocess "
                    "(RLIMIT_AS), so that a large size fails with MemoryError instead of swamping the machine")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child is not None:
        if a.mem_limit_gib:
            lim = int(a.mem_limit_gib * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
        res = child(a.child, a.seed, a.worlds, a.clingo, a.profile)
        print("BENCH-RESULT " + json.dumps(res))
        return 0
    sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    rev = _revision()
    a.worlds.mkdir(parents=True, exist_ok=True)
    results = []
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for size in sizes:
        cmd = [sys.executable, "-m", "bench", "run", "--child", str(size), "--seed", str(a.seed),
               "--worlds", str(a.worlds)] + (["--clingo"] if a.clingo else []) + (["--profile"] if a.profile else []) \
            + (["--mem-limit-gib", str(a.mem_limit_gib)] if a.mem_limit_gib else [])
        print(f"[bench] {size} orgs ...", file=sys.stderr, flush=True)
        t = time.perf_counter()
        try:
            p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            results.append({"orgs": size, "error": f"timeout after {a.timeout:.0f} s"})
            print(f"[bench] {size} orgs: timeout after {a.timeout:.0f} s", file=sys.stderr)
            continue
        line = next((l for l in p.stdout.splitlines() if l.startswith("BENCH-RESULT ")), None)
        if p.returncode != 0 or line is None:
            err = (p.stderr.strip().splitlines() or ["no output"])[-1]
            results.append({"orgs": size, "error": f"exit {p.returncode}: {err}"})
            print(p.stderr, file=sys.stderr)
            continue
        res = json.loads(line[len("BENCH-RESULT "):])
        res["subprocess_wall"] = round(time.perf_counter() - t, 2)
        results.append(res)
        print(f"[bench] {size} orgs: derive {res['times']['derive']['wall']:.1f} s wall", file=sys.stderr, flush=True)
        for d in res.get("disagreements", [])[:20]:
            print(f"[bench]   disagreement: {d}", file=sys.stderr)
    out = {
        "meta": {
            "provlog_commit": rev,
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "python": sys.version.split()[0],
            "platform": platform.platform(), "cpus": os.cpu_count(), "seed": a.seed,
            "memory": "peak RSS of each size's subprocess, resource.getrusage(RUSAGE_SELF).ru_maxrss",
            "times": "seconds, wall (perf_counter) and cpu (process_time)",
        },
        "results": results,
    }
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(table(results))
    print(f"written {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
