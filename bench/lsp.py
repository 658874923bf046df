"""The language server's diagnostics after a one-line change (issue 43): ``provlog lsp``'s live
loader (facts/live.py) and the session's diagnostics (queries/lsp/session.py: the loader's errors,
``check``'s warnings), as the server computes them on each didChange, in CPU seconds.

    python -m bench lsp --orgs 1000 [--seed 1] [--repeat 5]

On the generated world (bench/out/worlds/, written if missing): the first load (cold), then
``--repeat`` times each of: a one-line change in the middle of the largest file (a signal's bound
edited, its line count kept), the same change breaking a reference (an org id misspelt: an E110
appears) and mending it, and a line inserted above the middle (every statement below moves). Prints
the median of each, and the target (<= 0.3 s CPU for the one-line change).
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import List, Optional

from .generate import kept


def _cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench lsp")
    ap.add_argument("--orgs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    from provlog.queries.lsp.session import Session

    world = kept(args.orgs, args.seed, Path(__file__).parent / "out" / "worlds")
    big = max(world.glob("*.facts"), key=lambda p: p.stat().st_size)
    s = Session(world, store=False)
    cold = _cpu(s.diagnostics)
    text = big.read_text()
    lines = text.split("\n")
    k = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("signal ") and " cap " in lines[i])
    org = lines[k].split()[2]
    figures = {"edit": [], "break": [], "mend": [], "insert": []}
    for n in range(args.repeat):
        bound = lines[k].split(" cap ")[1].split()[0]
        lines[k] = lines[k].replace(f" cap {bound}", f" cap {(int(bound) + 1) % 4}", 1)
        s.change(big, "\n".join(lines))
        figures["edit"].append(_cpu(s.diagnostics))
        broken = lines[k].replace(f" {org} ", f" {org}x ", 1)
        s.change(big, "\n".join(lines[:k] + [broken] + lines[k + 1:]))
        t = time.process_time()
        got = s.diagnostics()
        figures["break"].append(time.process_time() - t)
        assert any(d.code == "E110" for ds in got.values() for d in ds)
        s.change(big, "\n".join(lines))
        figures["mend"].append(_cpu(s.diagnostics))
        s.change(big, "\n".join(lines[:k] + ["# inserted"] + lines[k:]))
        figures["insert"].append(_cpu(s.diagnostics))
        s.change(big, "\n".join(lines))
        s.diagnostics()
    print(f"lsp diagnostics at {args.orgs} orgs ({big.name}, {len(lines)} lines), CPU seconds, "
          f"median of {args.repeat}:")
    print(f"  cold (first load)      {cold:.3f}")
    for name, xs in figures.items():
        print(f"  {name:<22} {statistics.median(xs):.3f}   (min {min(xs):.3f}, max {max(xs):.3f})")
    edit = statistics.median(figures["edit"])
    print(f"  target: one-line change <= 0.3 s: {'met' if edit <= 0.3 else 'NOT met'} ({edit:.3f})")
    return 0
