"""A generated BODS 0.4 register, and the time and memory `provlog import bods --within` takes on it.

    python -m bench bods --statements 1000000 [--within 2] [--seed 1] [--keep DIR]

The register (JSON Lines, one statement a line) holds companies and people
with shareholdings and board seats among them, scale-free enough that a few
companies have many holders; a small world of 3 labs and 5 orgs names some of
its companies, and `--within N` keeps what lies within N links of them. It
prints the register's size, the import's wall and CPU time, peak memory
(this process and DuckDB's together: the max RSS of the child), and how many
records were kept.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PUB = {"publicationDate": "2026-01-15", "bodsVersion": "0.4", "publisher": {"name": "Generated Register"}}
WORLD = """lab lab-0 "Lab Zero Systems"
lab lab-1 "Lab One Intelligence"
lab lab-2 "Lab Two AI"
org org-0 "Org Zero Evaluation" type=nonprofit
org org-1 "Org One Assurance" type=pbc
org org-2 "Org Two Institute" type=academic
org org-3 "Org Three Safety" type=private
org org-4 "Org Four Bench" type=nonprofit
"""
SEEDS = ["Lab Zero Systems Ltd", "Lab One Intelligence Ltd", "Lab Two AI Ltd", "Org Zero Evaluation",
         "Org One Assurance PBC", "Org Two Institute", "Org Three Safety Ltd", "Org Four Bench"]


def _statement(n: int, rid: str, rtype: str, details: dict) -> str:
    return json.dumps({"statementId": f"bench-statement-{n:012d}-0000-0000-0000", "declarationSubject": rid,
                       "statementDate": "2025-06-30", "publicationDetails": PUB, "recordId": rid,
                       "recordStatus": "new", "recordType": rtype, "recordDetails": details},
                      separators=(",", ":"))


def generate(path: Path, statements: int, seed: int) -> None:
    """About a third entities, a sixth people, the rest relationships (shareholdings, board seats)."""
    rnd = random.Random(seed)
    n_ent = statements // 3
    n_per = statements // 6
    n_rel = statements - n_ent - n_per
    with open(path, "w", encoding="utf-8") as fh:
        n = 0
        # the world's names sit at random places, not among the most held companies
        named = dict(zip(rnd.sample(range(n_ent), len(SEEDS)), SEEDS))
        for i in range(n_ent):
            name = named.get(i, f"Company {i} Ltd")
            fh.write(_statement(n, f"e{i}", "entity", {"isComponent": False, "entityType": {"type": "registeredEntity"},
                                                      "name": name}) + "\n")
            n += 1
        for i in range(n_per):
            fh.write(_statement(n, f"p{i}", "person", {"isComponent": False, "personType": "knownPerson",
                                                      "names": [{"type": "legal", "fullName": f"Person {i}"}]}) + "\n")
            n += 1
        for i in range(n_rel):
            # subjects drawn with a heavy head: a few companies have many holders
            subj = f"e{min(int(rnd.paretovariate(1.2)) - 1, n_ent - 1)}" if rnd.random() < 0.3 else f"e{rnd.randrange(n_ent)}"
            if rnd.random() < 0.7:
                party, interest = f"e{rnd.randrange(n_ent)}", {"type": "shareholding", "directOrIndirect": "direct",
                                                               "share": {"exact": rnd.randint(1, 60)}}
            else:
                party, interest = f"p{rnd.randrange(n_per)}", {"type": "boardMember", "directOrIndirect": "direct"}
            if party == subj:
                party = f"e{(int(party[1:]) + 1) % n_ent}" if party[0] == "e" else party
            fh.write(_statement(n, f"r{i}", "relationship", {"isComponent": False, "subject": subj,
                                                            "interestedParty": party, "interests": [interest]}) + "\n")
            n += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench bods", description=__doc__.splitlines()[0])
    ap.add_argument("--statements", type=int, default=1_000_000)
    ap.add_argument("--within", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, default=None, help="write the register and world here (else a temp dir)")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = a.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        reg = root / "register.jsonl"
        t0 = time.perf_counter()
        generate(reg, a.statements, a.seed)
        gen = time.perf_counter() - t0
        world = root / "world"
        world.mkdir(exist_ok=True)
        (world / "world.facts").write_text(WORLD, encoding="utf-8")
        cmd = [sys.executable, "-c", "from provlog.queries.cli import main; main()", "import", "bods", str(reg), "--world", str(world),
               "--out", str(world / "register"), "--within", str(a.within), "--json"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        run = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if run.returncode != 0:
            print(run.stdout, run.stderr, file=sys.stderr)
            return 1
        report = json.loads(run.stdout)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        size = os.path.getsize(reg) / 2**20
        print(f"register: {a.statements:,} statements, {size:,.0f} MiB (generated in {gen:.1f} s)")
        print(f"import --within {a.within}: wall {wall:.1f} s, cpu {cpu:.1f} s, peak RSS {after.ru_maxrss / 2**10:,.0f} MiB")
        kept = report.get("kept") or [0, 0]
        print(f"kept {kept[0]:,} of {kept[1]:,} records; wrote " + ", ".join(f"{n} {k}" for k, n in sorted(report["written"].items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
