"""``provlog log`` over a history of one-statement edits of every kind, against one cold derivation (issue 42).

    python -m bench history --orgs 200 --commits 100 [--seed 1] [--out bench/out/history.json]
    python -m bench history --table bench/out/history.json

On the generated world (``bench/out/worlds/``, written if missing) plus bench/edits.py's EXTRA (a
result and an assessment), in a fresh git repository: the world committed, then ``--commits``
commits, each editing one statement, the kinds in turn (bench/edits.py ``EDITS``: signal, cite,
source, stake, money, role, org, policy, invest, resolution, assessment, result; each time the next
statement of the kind, so no two commits hold the same world). Then, each a new
process timed by its CPU (bench/store.py ``timed``):

* ``cold``: ``provlog card w o00001`` with an empty store: parse, derive the world whole, store it
  (the ratios' denominator);
* ``first``: ``provlog log w``: the walk, the oldest commit derived whole, every later one written
  from the one before by the edit path, each pair compared and its moves proved;
* ``second``: ``provlog log w`` again: every pair read from ``.provlog/history.sqlite``.
"""
from __future__ import annotations

import argparse
import re
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

from .diff import _git
from .edits import EDITS, EXTRA
from .store import ROOT, one_world_args, one_world_main, provlog, timed, wall_cpu


#: per kind, the line it matches and how it is edited (bench/edits.py's, with the numbers that add
#: halved instead, so that any statement of the kind, edited once, stays in range)
HISTORY_EDITS = dict(EDITS, **{
    "stake": (r"^stake \S+ \S+ (\d+)", lambda m: str(int(m.group(1)) // 2)),
    "money": (r"^money .*share=(\d+)", lambda m: str(int(m.group(1)) // 2)),
    "result": (r"^result .*percentile=(\d+)", lambda m: str(int(m.group(1)) // 2)),
})


def edit_nth(world: Path, kind: str, n: int) -> Optional[str]:
    """Edit the ``n``-th statement of ``kind`` (in file order, counting on past those the edit would
    leave as they are); its file:line, or None if there is none."""
    pattern, to = HISTORY_EDITS[kind]
    rx = re.compile(pattern, re.M)
    found = [(path, m) for path in sorted(world.glob("*.facts")) for m in rx.finditer(path.read_text())]
    for path, m in found[n:]:
        new = to(m)
        if new != m.group(1):
            text = path.read_text()
            path.write_text(text[:m.start(1)] + new + text[m.end(1):])
            return f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}"
    return None


def build(src: Path, work: Path, commits: int) -> List[str]:
    """The repository: ``src`` copied to ``work/w`` with EXTRA, committed, then ``commits`` edits, one
    commit each, the kinds in turn, each time the next statement of its kind (so that no two commits
    hold the same world); a kind with no statement left is passed over. The kinds edited."""
    w = work / "w"
    shutil.copytree(src, w)
    (w / "extra.facts").write_text(EXTRA)
    _git(work, "init", "-q")
    _git(work, "add", "w")
    _git(work, "commit", "-qm", "the world")
    kinds, done, i = list(HISTORY_EDITS), [], 0
    while len(done) < commits and i < commits * 3:
        kind = kinds[i % len(kinds)]
        at = edit_nth(w, kind, i // len(kinds))
        i += 1
        if at is None:
            continue
        _git(work, "commit", "-qam", f"edit a {kind} at {at}")
        done.append(kind)
    return done


def edited(world: Path) -> Dict[str, int]:
    """How the log's stores were written: by the edit path, or whole."""
    out = {"edited": 0, "whole": 0}
    for p in (world / ".provlog").glob("log-*.sqlite"):
        con = sqlite3.connect(p)
        try:
            out["edited" if con.execute("SELECT 1 FROM _meta WHERE k = 'edit'").fetchone() else "whole"] += 1
        finally:
            con.close()
    return out


def one(orgs: int, seed: int, worlds: Path, commits: int) -> Dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.generate import kept

    src = kept(orgs, seed, worlds)
    work = Path(tempfile.mkdtemp(prefix=f"provlog-history-{orgs}-"))
    try:
        kinds = build(src, work, commits)
        provlog(["--no-store", "check", "w"], work)  # warm-up: compiles provlog's bytecode
        res: Dict[str, Any] = {"orgs": orgs, "seed": seed, "commits": len(kinds),
                               "kinds": sorted(set(kinds)),
                               "cold": timed(["--store", str(work / "cold.sqlite"), "card", "w", "o00001"], work)}
        res["first"] = timed(["log", "w"], work)
        res["stores"] = edited(work / "w")
        res["second"] = timed(["log", "w"], work)
        _, out = provlog(["log", "w"], work)
        res["listed"] = out.count("\ncommit ") + out.startswith("commit ")
        for k in ("first", "second"):
            res[f"{k}_ratio"] = round(res[k]["cpu"] / res["cold"]["cpu"], 2)
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


def table(r: Dict[str, Any]) -> str:
    return "\n".join([
        f"{r['orgs']} orgs, {r['commits']} commits of one-statement edits ({', '.join(r['kinds'])}); "
        f"{r['listed']} listed",
        "| run | wall / CPU s | CPU / cold derivation |", "|---|---|---|",
        f"| cold derivation (card, empty store) | {wall_cpu(r['cold'])} | 1 |",
        f"| log, first | {wall_cpu(r['first'])} | {r['first_ratio']}x |",
        f"| log, second | {wall_cpu(r['second'])} | {r['second_ratio']}x |",
        f"stores of the first log: {r['stores']['edited']} by the edit path, {r['stores']['whole']} derived whole"])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench history", description=__doc__.splitlines()[0])
    one_world_args(ap, "history")
    ap.add_argument("--commits", type=int, default=100)
    a = ap.parse_args(argv)
    return one_world_main(a, lambda: one(a.orgs, a.seed, a.worlds, a.commits), table)
