"""What-ifs and revisions at scale (issue 38).

    python -m bench whatif [--orgs 110] [--flags 1000] [--repeat 3] [--blob-mb 150]

* ``without``: the what-if of ``--flags`` ``--without`` flags (sources, each with its cites and its id in
  every ``src=`` list, then signals with theirs) on the generated world of ``--orgs`` orgs: the edited files as the loader reads
  them (facts/whatif.py ``Rewrite``, one reading of the world for all the flags), CPU seconds, median of
  ``--repeat``; beside it a plain load of the same world, the floor any what-if pays.
* ``revision``: the peak memory (max RSS of the provlog process itself, by ``wait4``; its git
  children are apart) of ``provlog --no-store diff HEAD w`` for a small
  world in a repository that also holds a ``--blob-mb`` MB blob, against the same diff without the blob.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from .generate import generate


def _cpu(fn, repeat: int) -> float:
    got = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        got.append(time.process_time() - t)
    return median(got)


def without(orgs: int, flags: int, repeat: int) -> dict:
    from provlog.facts import load_world
    from provlog.facts.whatif import Rewrite

    with tempfile.TemporaryDirectory() as d:
        w = Path(d) / "w"
        w.mkdir()
        for name, text in generate(orgs, 1).items():
            (w / name).write_text(text)
        facts = load_world(w)
        ids = ([f["id"] for f in facts.facts if f.kind == "source"]
               + [f["id"] for f in facts.facts if f.kind == "signal"])[:flags]

        def edited():
            edit = Rewrite(without=ids)
            got = load_world(w, rewrite=edit)
            edit.check()
            return edit.delta(facts.by_fid, got.facts)

        removed, _ = edited()
        return {"statements": len(facts.facts), "flags": len(ids), "removed": len(removed),
                "what_if_cpu_s": round(_cpu(edited, repeat), 3),
                "plain_load_cpu_s": round(_cpu(lambda: load_world(w), repeat), 3)}


def _git(cwd, *args, data=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.org", GIT_COMMITTER_NAME="b",
               GIT_COMMITTER_EMAIL="b@example.org", GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, input=data, env=env)


def _peak_kb(cwd) -> int:
    """The max RSS (KiB) of one ``provlog --no-store diff HEAD w`` child."""
    child = subprocess.Popen([sys.executable, "-m", "provlog", "--no-store", "diff", "HEAD", "w"], cwd=cwd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own usage (and its git children's are not in it)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss


def revision(blob_mb: int) -> dict:
    out = {}
    for label, size in (("no_blob", 0), ("with_blob", blob_mb)):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "w").mkdir()
            (Path(d) / "w" / "a.facts").write_text('lab acme "Acme AI"\n')
            if size:
                with open(Path(d) / "big.bin", "wb") as f:  # a MB at a time: this process stays small
                    for _ in range(size):
                        f.write(os.urandom(2**20))
            _git(d, "init", "-q")
            _git(d, "add", "-A")
            _git(d, "commit", "-qm", "one")
            out[f"{label}_peak_mb"] = round(_peak_kb(d) / 1024, 1)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench whatif", description=__doc__.splitlines()[0])
    ap.add_argument("--orgs", type=int, default=110)
    ap.add_argument("--flags", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--blob-mb", type=int, default=150)
    a = ap.parse_args(argv)
    # the revision first: a forked child's max RSS counts the pages it shares with this process before exec
    print("revision", revision(a.blob_mb), flush=True)
    print("without", without(a.orgs, a.flags, a.repeat), flush=True)
    return 0
