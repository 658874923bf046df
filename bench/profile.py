"""Where provlog's derivation spends its time, per relation.

    python -m bench.profile --orgs 200 [--seed 1] [--top 25] [--cprofile]
    python -m bench.profile path/to/world.facts [--top 25]   # a world file instead

pyDatalog's engine is compiled (Cython), so cProfile sees one opaque call per
question (``pyParser.ask``). This module instead wraps provlog's
``Program.ask`` and ``Program.relation`` while ``World(facts)`` runs and records each question the
derivation asks, its CPU time and its number of answers. Since provlog
evaluates stratum by stratum (logic/strata.py: each relation is asked once,
lowest first, and its answers replace its rules), the time of a question is
the cost of that relation's own rules over facts: the list, sorted, says which
rules to restructure. The remaining CPU (building the EDB, loading rules,
numbering derived signals, keeping answers) is reported beside it.
"""
from __future__ import annotations

import argparse
import re
import time
from typing import Dict, List, Optional


def relation_times(facts, top: Optional[int] = None) -> Dict:
    """Run ``World(facts)`` once with every question to the engine timed; the questions by CPU, and totals."""
    from provlog.logic import engine, strata
    from provlog.queries.api import World

    asked: List[Dict] = []
    orig_ask, orig_relation = engine.Program.ask, engine.Program.relation

    def timed(goal, call):
        t = time.process_time()
        rows = call()
        asked.append({"relation": _name(goal), "goal": goal, "cpu": round(time.process_time() - t, 4),
                      "answers": len(rows)})
        return rows

    def compile_timed(rules, program, defining=None):
        join = orig_compile(rules, program, defining)
        if join is None:
            return None
        return lambda: timed(f"{rules[0].head_name} (Python join)", join)

    orig_compile = strata.compile_rules
    strata.compile_rules = compile_timed
    engine.Program.ask = lambda self, goal: timed(goal, lambda: orig_ask(self, goal))
    engine.Program.relation = lambda self, name, n, bound=None: timed(
        f"{name}({', '.join(repr(bound[i]) if bound and i in bound else f'V{i}' for i in range(n))})",
        lambda: orig_relation(self, name, n, bound))
    try:
        t = time.process_time()
        World(facts)
        total = time.process_time() - t
    finally:
        engine.Program.ask, engine.Program.relation = orig_ask, orig_relation
        strata.compile_rules = orig_compile
    in_asks = sum(q["cpu"] for q in asked)
    ranked = sorted(asked, key=lambda q: -q["cpu"])
    return {"total_cpu": round(total, 3), "asks_cpu": round(in_asks, 3), "other_cpu": round(total - in_asks, 3),
            "questions": len(asked), "relations": ranked[:top] if top else ranked}


def _name(goal: str) -> str:
    m = re.match(r"\s*\(?\s*([a-z_][A-Za-z0-9_]*)", goal)
    return m.group(1) if m else goal


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.profile")
    ap.add_argument("world", nargs="?", help="a .facts file or world folder (default: a generated world)")
    ap.add_argument("--orgs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--cprofile", action="store_true", help="also cProfile World(facts) (Python-level only)")
    a = ap.parse_args(argv)
    from provlog.facts import load_text, load_world

    from bench.generate import generate_text

    if a.world:
        facts, what = load_world(a.world), a.world
    else:
        facts, what = load_text(generate_text(a.orgs, a.seed), f"generated-{a.orgs}.facts"), f"{a.orgs} orgs"
    r = relation_times(facts, a.top)
    print(f"{what}, {len(facts)} statements: World(facts) {r['total_cpu']} s CPU, of which "
          f"{r['asks_cpu']} s in {r['questions']} questions (to pyDatalog, or joined in Python) and {r['other_cpu']} s elsewhere")
    for q in r["relations"]:
        print(f"{q['cpu']:9.3f} s {q['answers']:8d}  {q['goal']}")
    if a.cprofile:
        import cProfile
        import pstats

        from provlog.queries.api import World

        pr = cProfile.Profile()
        pr.enable()
        World(facts)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
