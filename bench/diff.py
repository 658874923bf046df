"""``provlog diff`` end to end: each diff a new process, as a curator or CI runs it (issue 28).

    python -m bench diff --orgs 1000 [--seed 1] [--repeat 3] [--out bench/out/diff.json]

On the generated world (``bench/out/worlds/``, written if missing), copied into a fresh git repository
and committed:

* ``cold``: ``provlog card`` of the working tree (derive and store), and ``rev cold``: the first ``provlog
  diff HEAD w`` (the revision's side read from git, derived and stored);
* per kind of statement (signal, cite, source, stake, money, role, org, policy, invest, resolution): the
  first statement of that kind edited in the tree, ``provlog card`` once (the new side stored: by the
  edit path where it applies, else whole; ``new side``), then ``provlog diff HEAD w --format json``: the
  diff with both stores warm (median of ``--repeat``), with the rows it reports moved;
* what-ifs on the unedited world, store warm: ``--set SOURCE status=unaudited`` and ``--without
  SOURCE`` (a source that signals cite), ``--set SIGNAL bound=N`` and ``--without SIGNAL``.

Times are wall / CPU seconds of the child (bench/store.py ``timed``); the CPU time is the steadier on a
shared machine.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

from .store import ROOT, _env, edit_path, median, one_world_args, one_world_main, provlog, timed, wall_cpu

#: per kind: the first line it matches, and how it is edited
EDITS = {
    "signal": (r"^signal \S+ \S+ \S+ \S+ cap ([0-4])\b", lambda m: str((int(m.group(1)) + 1) % 4)),
    "cite": (r'^cite \S+ \S+( "[^"]*")', lambda m: ""),
    "source": (r"^source .*status=(confirmed)", lambda m: "unaudited"),
    "stake": (r"^stake \S+ \S+ (\d+)", lambda m: str(int(m.group(1)) + 7)),
    "money": (r"^money .*share=(\d+)", lambda m: str(int(m.group(1)) + 40)),
    "role": (r"^role \S+ \S+ \S+ .*recusal=(\w+)", lambda m: "personal" if m.group(1) == "none" else "none"),
    "org": (r"^org .*type=(\w+)", lambda m: "vc" if m.group(1) != "vc" else "nonprofit"),
    "policy": (r"^policy \S+ \S+ since=(\d+)", lambda m: str(int(m.group(1)) - 1)),
    "invest": (r"^invest \S+ \S+ (led|co-led)\b", lambda m: "co-led" if m.group(1) == "led" else "led"),
    "resolution": (r"^resolution .*value=([0-4])", lambda m: str((int(m.group(1)) + 1) % 5)),
}


def edit_first(world: Path, kind: str, edits: Optional[Dict[str, Any]] = None) -> Optional[str]:
    """Edit the first statement of ``kind`` in the world's files (by ``edits``, this module's EDITS if
    None); the file:line edited, or None."""
    pattern, to = (EDITS if edits is None else edits)[kind]
    rx = re.compile(pattern, re.M)
    for path in sorted(world.glob("*.facts")):
        text = path.read_text()
        m = rx.search(text)
        if m:
            path.write_text(text[:m.start(1)] + to(m) + text[m.end(1):])
            return f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}"
    return None


def _git(cwd: Path, *args: str) -> None:
    env = dict(_env(), GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.org",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.org")
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _cited_only_by_signals(world: Path) -> str:
    """A confirmed source that signals and cites cite and nothing else (so --without takes only those)."""
    text = {p.name: p.read_text() for p in world.glob("*.facts")}
    for m in re.finditer(r"^source (s-o\d+-\w+) .*status=confirmed", text["sources.facts"], re.M):
        sid = m.group(1)
        if all(sid not in t for n, t in text.items() if n not in ("sources.facts", "signals.facts")) \
                and re.search(rf"^cite \S+ {re.escape(sid)}\b", text["signals.facts"], re.M):
            return sid
    raise SystemExit("no source cited by signals only")


def one(orgs: int, seed: int, worlds: Path, repeat: int) -> Dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from bench.generate import kept

    src = kept(orgs, seed, worlds)
    work = Path(tempfile.mkdtemp(prefix=f"provlog-diff-{orgs}-"))
    try:
        w = work / "w"
        shutil.copytree(src, w)
        _git(work, "init", "-q")
        _git(work, "add", "w")
        _git(work, "commit", "-qm", "world")
        res: Dict[str, Any] = {"orgs": orgs, "seed": seed}
        provlog(["--no-store", "check", "w"], work)  # warm-up: compiles provlog's bytecode
        res["cold"] = timed(["card", "w", "o00001"], work)
        res["rev_cold"] = timed(["diff", "HEAD", "w"], work)
        res["unchanged"] = median([timed(["diff", "HEAD", "w"], work) for _ in range(repeat)])
        store = next((w / ".provlog").glob("w-*.sqlite"))
        kept = work / "orig.sqlite"
        shutil.copyfile(store, kept)
        originals = {p.name: p.read_text() for p in w.glob("*.facts")}
        res["edits"] = {}
        for kind in EDITS:
            at = edit_first(w, kind)
            if at is None:
                continue
            one_edit = {"at": at, "new_side": timed(["card", "w", "o00001"], work), "new_path": edit_path(store)}
            one_edit["diff"] = median([timed(["diff", "HEAD", "w"], work) for _ in range(repeat)])
            _, out = provlog(["diff", "HEAD", "w", "--format", "json"], work)
            one_edit["moved"] = json.loads(out)["moved"]
            res["edits"][kind] = one_edit
            print(kind, json.dumps(one_edit), flush=True)
            for name, text in originals.items():
                (w / name).write_text(text)
            shutil.copyfile(kept, store)
        source = _cited_only_by_signals(w)
        signal = re.search(r"^signal (\S+) \S+ \S+ \S+ cap", originals["signals.facts"], re.M).group(1)
        res["what_if"] = {}
        for label, args in (("set source status", ["--set", source, "status=unaudited"]),
                            ("without source", ["--without", source]),
                            ("set signal bound", ["--set", signal, "bound=1"]),
                            ("without signal", ["--without", signal])):
            got = median([timed(["diff", "w", *args], work) for _ in range(repeat)])
            _, out = provlog(["diff", "w", *args, "--format", "json"], work)
            res["what_if"][label] = dict(got, moved=json.loads(out)["moved"], id=args[1])
            print(label, json.dumps(res["what_if"][label]), flush=True)
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


def table(r: Dict[str, Any]) -> str:
    f = wall_cpu
    lines = [f"{r['orgs']:,} orgs (seed {r['seed']}): first card (derive + store) {f(r['cold'])}; first diff HEAD w "
             f"(the revision derived + stored) {f(r['rev_cold'])}; diff, nothing changed {f(r['unchanged'])}", "",
             "| edit of one | new side stored by | then card | diff HEAD w, both stores warm | rows moved |",
             "|---|---|---:|---:|---:|"]
    for kind, e in r["edits"].items():
        lines.append(f"| {kind} | {e['new_path']} | {f(e['new_side'])} | {f(e['diff'])} | {e['moved']} |")
    lines += ["", "| what-if (store warm) | diff WORLD ... | rows moved |", "|---|---:|---:|"]
    for label, e in r["what_if"].items():
        lines.append(f"| {label} `{e['id']}` | {f(e)} | {e['moved']} |")
    return "\n".join(lines) + "\n\nwall / CPU seconds, each a new `provlog` process"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench diff", description=__doc__.split("\n\n")[0])
    one_world_args(ap, "diff")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    return one_world_main(a, lambda: one(a.orgs, a.seed, a.worlds, a.repeat), table)
