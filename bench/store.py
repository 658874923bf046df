"""The stored model end to end: each question a new ``provlog`` process, as a user asks it (issue 14).

    python -m bench store --sizes 200,1000 [--seed 1] [--repeat 3] [--out bench/out/store.json]
    python -m bench store --table bench/out/store.json [more.json ...]

Per size, on the generated world (``bench/out/worlds/``, written if missing) and a fresh store folder:

* ``cold``: ``provlog card`` with an empty store: parse, derive, write the store;
* ``card``, ``why``: the same world unchanged, store warm, each a new process (median of ``--repeat``);
* ``check``: ``provlog --no-store check`` (parse and validate; no derivation), and ``check warm`` with the
  store (answered from it, no parsing);
* ``edit``: one statement edited (the first cap signal's bound, in a copy of the world), then ``provlog
  card`` of its org: what a curator waits for after fixing a line. The store misses; since the edit
  touches one signal, only its org is derived again (logic/edit.py) and ``edit_path`` says so
  (``orgs: 1``), else ``whole``; ``add``: then a signal and its cite added above it (every later
  statement moves down two lines), and ``card`` again;
* the store's size.

Times are wall seconds with the child's CPU seconds (user + sys, ``os.wait4``) beside them: on a shared
machine the CPU time is the steadier. Children run with bytecode caching on (a user's default), after one
warm-up run that compiles provlog.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
_CAP = re.compile(r"^(signal \S+ (\S+) \S+ \S+ cap )([0-4])\b", re.M)


def _env() -> Dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PROVLOG_STORE", None)
    return env


def provlog(args: List[str], cwd: Path) -> Tuple[float, str]:
    """Run ``provlog ARGS`` in a new process; (wall seconds, stdout)."""
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "provlog", *args], cwd=cwd, env=_env(), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    out, err = p.communicate()
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise RuntimeError(f"provlog {' '.join(args)} failed ({p.returncode}): {err.strip()[-400:]}")
    return wall, out


def timed(args: List[str], cwd: Path) -> Dict[str, float]:
    """Wall and CPU seconds of one ``provlog`` process (its CPU: RUSAGE_CHILDREN before and after)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, _ = provlog(args, cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": round(wall, 3), "cpu": round(cpu, 3)}


def wall_cpu(v: Optional[Dict[str, float]]) -> str:
    """A child's figures as the tables print them: ``wall / CPU`` seconds (``-`` if not run)."""
    return "-" if v is None else f"{v['wall']:.2f} / {v['cpu']:.2f}"


def one_world_args(ap: argparse.ArgumentParser, name: str) -> None:
    """The options of a bench run on one generated world: --orgs, --seed, --worlds, --out (bench/out/NAME.json)
    and --table (print a saved run's table)."""
    ap.add_argument("--orgs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=Path, default=ROOT / "bench" / "out" / "worlds")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / f"{name}.json")
    ap.add_argument("--table", type=Path, help="print the table of a saved run and stop")


def one_world_main(a: argparse.Namespace, run, table) -> int:
    """Print the table of the saved run ``a.table``; or ``run()``, save its result in ``a.out``, print its table."""
    if a.table:
        print(table(json.loads(a.table.read_text())))
        return 0
    res = run()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2))
    print(table(res))
    return 0


def median(runs: List[Dict[str, float]]) -> Dict[str, float]:
    return {k: round(statistics.median(r[k] for r in runs), 3) for k in ("wall", "cpu")}


def one_size(orgs: int, seed: int, worlds: Path, repeat: int, edit: bool = True) -> Dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.generate import kept

    world = kept(orgs, seed, worlds)
    work = Path(tempfile.mkdtemp(prefix=f"provlog-store-{orgs}-"))
    try:
        copy = work / "world"
        shutil.copytree(world, copy)
        store = work / "store.sqlite"
        text = (copy / "signals.facts").read_text()
        m = _CAP.search(text)
        org = m.group(2)
        res: Dict[str, Any] = {"orgs": orgs, "seed": seed, "org": org}
        provlog(["--no-store", "check", str(copy)], work)  # warm-up: compiles provlog's bytecode
        res["check"] = median([timed(["--no-store", "check", str(copy)], work) for _ in range(repeat)])
        res["cold"] = timed(["--store", str(store), "card", str(copy), org], work)
        res["store_mib"] = round(store.stat().st_size / 2**20, 1)
        res["card"] = median([timed(["--store", str(store), "card", str(copy), org], work) for _ in range(repeat)])
        res["why"] = median([timed(["--store", str(store), "why", str(copy), org, "F"], work) for _ in range(repeat)])
        res["check_warm"] = median([timed(["--store", str(store), "check", str(copy)], work) for _ in range(repeat)])
        if not edit:
            return res
        bound = int(m.group(3))
        edited = text[:m.start(3)] + str(bound - 1 if bound else 1) + text[m.end(3):]
        (copy / "signals.facts").write_text(edited)
        res["edit"] = timed(["--store", str(store), "card", str(copy), org], work)
        res["edit_path"] = edit_path(store)
        res["card_after_edit"] = timed(["--store", str(store), "card", str(copy), org], work)
        added = f'signal {org}-added {org} F against cap 2 rule=F.9\ncite {org}-added s-{org}-card "added"\n'
        (copy / "signals.facts").write_text(edited[:m.start()] + added + edited[m.start():])
        res["add"] = timed(["--store", str(store), "card", str(copy), org], work)
        res["add_path"] = edit_path(store)
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


def edit_path(store: Path) -> str:
    """How the last command wrote the store: ``orgs: N`` if an edit derived N orgs again, else ``whole``."""
    import sqlite3

    con = sqlite3.connect(store)
    try:
        got = con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()
    finally:
        con.close()
    return f"orgs: {json.loads(got[0])['orgs']}" if got else "whole"


def table(results: List[Dict[str, Any]]) -> str:
    def f(r, k):
        return wall_cpu(r.get(k))

    lines = ["| orgs | cold card s | repeated card s | repeated why s | check s (no store) | check s (store warm) "
             "| edit, then card s | edit derived | signal added, then card s | store MiB |",
             "|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in sorted(results, key=lambda r: r["orgs"]):
        lines.append(f"| {r['orgs']:,} | {f(r, 'cold')} | {f(r, 'card')} | {f(r, 'why')} | {f(r, 'check')} | "
                     f"{f(r, 'check_warm')} | {f(r, 'edit')} | {r.get('edit_path', '-')} | {f(r, 'add')} | "
                     f"{r.get('store_mib', '-')} |")
    return "\n".join(lines) + "\n\nwall / CPU seconds, each a new `provlog` process"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench store", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="200,1000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--worlds", type=Path, default=ROOT / "bench" / "out" / "worlds")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "store.json")
    ap.add_argument("--no-edit", action="store_true", help="skip the edit (a second whole derivation)")
    ap.add_argument("--table", type=Path, nargs="*", help="print the table of saved runs and stop")
    a = ap.parse_args(argv)
    if a.table:
        print(table([r for p in a.table for r in json.loads(p.read_text())["results"]]))
        return 0
    results = []
    for n in (int(s) for s in a.sizes.split(",")):
        results.append(one_size(n, a.seed, a.worlds, a.repeat, not a.no_edit))
        print(json.dumps(results[-1]), flush=True)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps({"results": results}, indent=2))
    print(table(results))
    return 0
