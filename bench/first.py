"""The first question on a world nobody has asked about (issue 27): when does its answer come?

    python -m bench first --sizes 1000 [--seed 1] [--repeat 3] [--vs-python OTHER/python] [--out FILE]

Per size, on the generated world (``bench/out/worlds/``, written if missing), each a new ``provlog``
process, in turn:

* ``yardstick``: ``provlog --no-store card W ORG``: load, derive, answer; nothing stored;
* ``first``: ``provlog --store NEW card W ORG`` on an empty store: the CPU seconds the process had used
  when the first line of its answer reached us (``answer``, read from ``/proc/PID/stat`` as that line
  arrives), and in all once it ends (``total``: the store written after the answer).

The ratio is ``answer / yardstick`` (the target: at most 1.2), each pair run back to back. With
``--vs-python`` the same pairs also run under another interpreter whose ``provlog`` is another checkout
(the code before a change), alternating with this one: before and after in one run. CPU is the steadier
figure on a shared machine; wall seconds are beside it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def run(python: str, args: List[str], cwd: Path) -> Dict[str, float]:
    """One ``provlog ARGS`` process: wall and CPU at its first line of output, and at its end."""
    import resource

    env = dict(os.environ)
    env.pop("PROVLOG_STORE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.Popen([python, "-m", "provlog", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    first = p.stdout.readline()
    answer = {"wall": time.perf_counter() - t, "cpu": _cpu_of(p.pid)} if first else None
    p.stdout.read()
    if p.wait() != 0:
        raise RuntimeError(f"provlog {' '.join(args)} failed ({p.returncode})")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = {"wall": time.perf_counter() - t,
             "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}
    return {"answer_wall": round(answer["wall"], 3), "answer_cpu": round(answer["cpu"], 3),
            "wall": round(total["wall"], 3), "cpu": round(total["cpu"], 3)}


def pair(python: str, world: Path, org: str, work: Path) -> Dict[str, Any]:
    """The yardstick and the first question, back to back, under ``python``."""
    store = work / "store.sqlite"
    if store.exists():
        store.unlink()
    yard = run(python, ["--no-store", "card", str(world), org], work)
    first = run(python, ["--store", str(store), "card", str(world), org], work)
    return {"yardstick": yard, "first": first, "ratio": round(first["answer_cpu"] / yard["cpu"], 3),
            "ratio_total": round(first["cpu"] / yard["cpu"], 3)}


def one_size(orgs: int, seed: int, worlds: Path, repeat: int, pythons: Dict[str, str]) -> Dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.generate import kept

    world = kept(orgs, seed, worlds)
    work = Path(tempfile.mkdtemp(prefix=f"provlog-first-{orgs}-"))
    try:
        copy = work / "world"
        shutil.copytree(world, copy)
        org = "o00001"
        for python in pythons.values():  # warm-up: compiles each checkout's bytecode
            run(python, ["--no-store", "check", str(copy)], work)
        runs: Dict[str, List] = {name: [] for name in pythons}
        for _ in range(repeat):
            for name, python in pythons.items():
                runs[name].append(pair(python, copy, org, work))
                print(f"[first] {orgs} orgs, {name}: {json.dumps(runs[name][-1])}", file=sys.stderr, flush=True)
        out: Dict[str, Any] = {"orgs": orgs, "seed": seed, "org": org, "runs": runs}
        for name, rs in runs.items():
            out[name] = {k: round(statistics.median(r[k] for r in rs), 3) for k in ("ratio", "ratio_total")}
            for part in ("yardstick", "first"):
                out[name][part] = {k: round(statistics.median(r[part][k] for r in rs), 3) for k in rs[0][part]}
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def table(results: List[Dict[str, Any]]) -> str:
    lines = ["| orgs | code | load + derive + answer, no store (s) | first card: answer printed (s) | "
             "first card: stored, process ends (s) | answer / no store | end / no store |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    for r in results:
        for name in r["runs"]:
            m = r[name]
            y, f = m["yardstick"], m["first"]
            lines.append(f"| {r['orgs']:,} | {name} | {y['wall']:.2f} / {y['cpu']:.2f} | "
                         f"{f['answer_wall']:.2f} / {f['answer_cpu']:.2f} | {f['wall']:.2f} / {f['cpu']:.2f} | "
                         f"**{m['ratio']:.2f}** | {m['ratio_total']:.2f} |")
    return "\n".join(lines) + "\n\nwall / CPU seconds, medians; ratios of CPU, pair by pair"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench first", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--vs-python", default=None, help="another interpreter, whose provlog is the code before")
    ap.add_argument("--worlds", type=Path, default=ROOT / "bench" / "out" / "worlds")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "first.json")
    a = ap.parse_args(argv)
    pythons = {"this": sys.executable}
    if a.vs_python:
        pythons["before"] = a.vs_python
    results = [one_size(int(n), a.seed, a.worlds, a.repeat, pythons) for n in a.sizes.split(",")]
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps({"results": results}, indent=2))
    print(table(results))
    return 0
