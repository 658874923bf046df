"""An edit of one statement of each kind, then ``provlog card``, against a whole derivation (issue 27).

    python -m bench edits --orgs 1000 [--seed 1] [--files N] [--repeat N] [--outside] [--out bench/out/edits.json]
    python -m bench edits --table bench/out/edits.json

On the generated world (``bench/out/worlds/``, written if missing) plus a file with a result (an M.3
run of o00001's own tasks) and an assessment, which the generator does not write, copied to a fresh
folder:

* ``whole``: ``provlog card`` with an empty store: parse, derive the world whole, write the store (the
  ratio's denominator, measured in the same run);
* per kind of statement (signal, cite, source, stake, money, role, org, policy, invest, resolution,
  assessment, result): from the world and its store as they were, the first statement of that kind
  edited (bench/diff.py ``EDITS``), then ``provlog card`` of o00001, a new process, which finds the
  store missed and writes it by the edit path (logic/edit.py): what it re-derived (``orgs``, the
  EDB ``tables`` rewritten, the global ``relations`` that moved) is read from the store's ``edit``
  meta; ``whole`` if it derived the world whole.

``--outside``: each edit is also measured with the world named from outside it (by its absolute path,
from a folder beside it), from the same store written from the world's parent folder (issue 39: the
key holds no working directory, and the edit path re-reads the file wherever the world lies).

``--files N``: the world's statements split into about N files (each generated file into parts in
proportion to its size, at statement boundaries), so that an edit in one file of a world of many
files can be measured (it re-reads only that file's changed lines, logic/reread.py).

Wall / CPU seconds of the child (bench/store.py ``timed``): one run each (an edit is paid once), or
with ``--repeat N`` the median of N runs, each from the store as it was (on a shared machine one run
moves by a fifth between minutes; the median of five by a few percent).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

from . import diff
from .diff import EDITS as DIFF_EDITS
from .store import ROOT, one_world_args, one_world_main, provlog, timed, wall_cpu

#: a result (M.3: a verified, third-party documented run of o00001's own open tasks) and an assessment
EXTRA = """\
entity ci "CI Runner" kind=company
source ci-log "https://ci.example/runs/1" publisher=ci status=confirmed tier=2
benchmark-source cat-ci "https://ci.example/workflows/ci.yml" lane=verified
result r1 o00001 bench@1 percentile=80 lane=verified catalog=cat-ci own-tasks run-at=2026-01-15
    dataset-hash=1111111111111111111111111111111111111111111111111111111111111111
    input-hash=8181818181818181818181818181818181818181818181818181818181818181
    attestor="https://ci.example/workflows/bench@1" src=ci-log span="re-ran the open tasks: pass"
assessment o00002 F value=3
"""

#: per kind: the first line it matches, and how it is edited (bench/diff.py's, plus the two above)
EDITS = dict(DIFF_EDITS, **{
    "assessment": (r"^assessment \S+ \S+ value=([0-4])", lambda m: str((int(m.group(1)) + 1) % 5)),
    "result": (r"^result .*percentile=(\d+)", lambda m: str(int(m.group(1)) - 30)),
})


def edit_first(world: Path, kind: str) -> Optional[str]:
    """Edit the first statement of ``kind`` in the world's files (by EDITS); its file:line, or None."""
    return diff.edit_first(world, kind, EDITS)


def note(store: Path) -> str:
    """What the last command's edit re-derived (the store's ``edit`` meta), or ``whole``."""
    con = sqlite3.connect(store)
    try:
        got = con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()
    finally:
        con.close()
    if not got:
        return "whole"
    e = json.loads(got[0])
    read = f"; read {e['read']['statements']} statements" if "read" in e else "; read whole"
    return f"orgs {e['orgs']}; tables {len(e.get('tables', []))}; relations {','.join(e.get('relations', [])) or '-'}{read}"


def split(world: Path, files: int) -> None:
    """Split each ``.facts`` file of ``world`` into parts (about ``files`` in all, in proportion to the
    files' sizes), at statement boundaries (a continued line stays with its statement)."""
    paths = sorted(world.glob("*.facts"))
    total = sum(p.stat().st_size for p in paths)
    for path in paths:
        lines = path.read_text().split("\n")
        parts = max(1, round(files * path.stat().st_size / total))
        size = -(-len(lines) // parts)
        chunks, at = [], 0
        while at < len(lines):
            end = min(at + size, len(lines))
            while end < len(lines) and not lines[end][:1].isalpha():
                end += 1  # a statement's continued lines, comments and blank lines stay with it
            chunks.append(lines[at:end])
            at = end
        path.unlink()
        for i, chunk in enumerate(chunks):
            (world / f"{path.stem}-{i:04}.facts").write_text("\n".join(chunk) + "\n")


def one(orgs: int, seed: int, worlds: Path, files: int = 0, repeat: int = 1, outside: bool = False) -> Dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.generate import kept

    src = kept(orgs, seed, worlds)
    work = Path(tempfile.mkdtemp(prefix=f"provlog-edits-{orgs}-"))
    try:
        w, store, kept = work / "w", work / "store.sqlite", work / "orig.sqlite"
        shutil.copytree(src, w)
        (w / "extra.facts").write_text(EXTRA)
        if files:
            split(w, files)
        originals = {p.name: p.read_text() for p in w.glob("*.facts")}
        provlog(["--no-store", "check", "w"], work)  # warm-up: compiles provlog's bytecode
        res: Dict[str, Any] = {"orgs": orgs, "seed": seed, "files": len(list(w.glob("*.facts"))), "repeat": repeat,
                               "whole": timed(["--store", str(store), "card", "w", "o00001"], work)}
        shutil.copyfile(store, kept)
        away = work / "away"
        away.mkdir()
        places = {"edits": (work, "w")}
        if outside:
            places["outside"] = (away, str(w))
        for place in places:
            res[place] = {}
        for kind in EDITS:
            for place, (cwd, typed) in places.items():
                at = edit_first(w, kind)
                if at is None:
                    break
                runs = []
                for i in range(repeat):
                    if i:
                        shutil.copyfile(kept, store)
                    runs.append(timed(["--store", str(store), "card", typed, "o00001"], cwd))
                got = {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu")}
                res[place][kind] = dict(got, at=at, path=note(store), ratio=round(got["cpu"] / res["whole"]["cpu"], 3))
                print(place, kind, json.dumps(res[place][kind]), flush=True)
                for name, text in originals.items():
                    (w / name).write_text(text)
                shutil.copyfile(kept, store)
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


def table(r: Dict[str, Any]) -> str:
    f = wall_cpu
    lines = [f"{r['orgs']:,} orgs (seed {r['seed']}, {r.get('files', 5)} files): whole derivation (first card: derive + store) {f(r['whole'])}", "",
             "| edit of one | re-derived | then card | CPU ratio to whole |", "|---|---|---:|---:|"]
    out = r.get("outside")
    if out:
        lines[2:] = ["| edit of one | re-derived | then card, world in the cwd | ratio | then card, named from outside | "
                     "re-derived from outside | ratio |", "|---|---|---:|---:|---:|---|---:|"]
    for kind, e in r["edits"].items():
        o = out.get(kind) if out else None
        more = f" {f(o)} | {o['path']} | {o['ratio']:.2f} |" if o else ""
        lines.append(f"| {kind} | {e['path']} | {f(e)} | {e['ratio']:.2f} |{more}")
    runs = "one run" if r.get("repeat", 1) == 1 else f"median of {r['repeat']} runs"
    return "\n".join(lines) + f"\n\nwall / CPU seconds, each a new `provlog` process, {runs}"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench edits", description=__doc__.split("\n\n")[0])
    one_world_args(ap, "edits")
    ap.add_argument("--files", type=int, default=0, help="split the world into about this many files")
    ap.add_argument("--repeat", type=int, default=1, help="runs per kind of edit (their median)")
    ap.add_argument("--outside", action="store_true", help="also name the world from a folder outside it")
    a = ap.parse_args(argv)
    return one_world_main(a, lambda: one(a.orgs, a.seed, a.worlds, a.files, a.repeat, a.outside), table)
