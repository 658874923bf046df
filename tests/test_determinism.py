"""The same world gives the same bytes (issue 7).

`value --json`, `card --json`, `hops --json` and `matrix --json` of four
worlds in tests/worlds/structure/ are byte-identical across two runs (two
processes with different hash seeds, so that no answer leans on set or dict
order), and across a permutation of the world's statements (its lines
shuffled with a fixed seed; derived signal ids `<rule>/<org>/<n>` must not
depend on statement order). Under the permutation only `loc` (the file:line
a money row was written at) may change, and nothing else, not even the order
of rows.

Each process loads every world once (the CLI's World.load is memoised in it)
and runs the commands through click's CliRunner, so the bytes compared are the
CLI's own output.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

# Worlds rich in derived signals, chains, cycles and money rows (every world would cost minutes).
WORLDS = [Path(__file__).resolve().parent / "worlds" / "structure" / name
          for name in ("cycles.facts", "f1_g6_ownership.facts", "f5_revenue.facts", "hops.facts")]
SEED = 20250314

# Run in a fresh process: every command's output for every world named on the command line.
RUN = r"""
import json, sys
from click.testing import CliRunner
from provlog.queries import cli
from provlog.queries.api import World

cache = {}

class Cached(World):
    @classmethod
    def load(cls, path, strict=False, as_of=None, **_):
        if path not in cache:
            cache[path] = World.load(path, strict=strict, as_of=as_of)
        return cache[path]

cli.World = Cached
runner = CliRunner()

def run(*args):
    r = runner.invoke(cli.main, list(args))
    if r.exit_code != 0:
        raise SystemExit(f"{' '.join(args)}: exit {r.exit_code}: {r.output}{r.exception!r}")
    return r.stdout

out = {}
for world in sys.argv[1:]:
    got = out[world] = {}
    got["matrix"] = run("matrix", world, "--json")
    for org in Cached.load(world).orgs:
        got[f"card {org}"] = run("card", world, org, "--json")
        got[f"hops {org}"] = run("hops", world, org, "--json")
        for dim in "FGPASRMX":
            got[f"value {org} {dim}"] = run("value", world, org, dim, "--json")
json.dump(out, sys.stdout, sort_keys=True)
"""


def shuffled(text: str, seed: int) -> str:
    """The statements of ``text`` in another order (a continuation line stays with its statement)."""
    stmts = []
    for line in text.splitlines():
        if line[:1] in (" ", "\t") and stmts:
            stmts[-1] += "\n" + line
        else:
            stmts.append(line)
    random.Random(seed).shuffle(stmts)
    return "\n".join(stmts) + "\n"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Three processes: the worlds (hash seed 1); the worlds, then each shuffled (hash seed 2)."""
    base = tmp_path_factory.mktemp("determinism")
    orig, shuf = base / "orig", base / "shuf"
    orig.mkdir(), shuf.mkdir()
    names = [p.name for p in WORLDS]
    for p in WORLDS:
        text = p.read_text(encoding="utf-8")
        (orig / p.name).write_text(text, encoding="utf-8")
        mixed = shuffled(text, SEED)
        assert mixed != text and sorted(mixed.splitlines()) == sorted(text.splitlines())
        (shuf / p.name).write_text(mixed, encoding="utf-8")

    def start(cwd, seed):
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        return subprocess.Popen([sys.executable, "-c", RUN, *names], cwd=cwd, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    procs = {"first": start(orig, 1), "second": start(orig, 2), "shuffled": start(shuf, 3)}
    out = {}
    for key, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr[-3000:]
        out[key] = json.loads(stdout)
    return out


def test_worlds_exist():
    assert all(p.is_file() for p in WORLDS)


@pytest.mark.parametrize("world", [p.name for p in WORLDS])
def test_two_runs_give_identical_bytes(runs, world):
    first, second = runs["first"][world], runs["second"][world]
    assert first.keys() == second.keys() and len(first) > 1
    for key in first:
        assert first[key] == second[key], f"{world}: `{key} --json` differs between two runs"


_LOC = re.compile(r'"loc": "[^"]*"')


@pytest.mark.parametrize("world", [p.name for p in WORLDS])
def test_statement_order_changes_nothing(runs, world):
    first, mixed = runs["first"][world], runs["shuffled"][world]
    assert first.keys() == mixed.keys()
    for key in first:
        assert _LOC.sub('"loc": "-"', first[key]) == _LOC.sub('"loc": "-"', mixed[key]), (
            f"{world}: `{key} --json` depends on statement order")


def test_derived_signal_ids_are_in_the_outputs(runs):
    """The comparison covers derived signal ids: some deciding signal is a derived `<rule>/<org>/<n>`."""
    ids = [json.loads(v)["signal"] for w in runs["first"].values() for k, v in w.items() if k.startswith("value ")]
    assert any(s and s.count("/") == 2 for s in ids)


def test_hop_rows_that_tie_do_not_follow_statement_order(tmp_path):
    """Two grants from one payer to one org differ only in amount: their order in
    `hops --json` must not follow the order they were written in."""
    from click.testing import CliRunner

    from provlog.queries.cli import main

    head = 'lab acme "Acme"\norg o "O" type=nonprofit\n'
    rows = ["money acme o grant amount=5M", "money acme o grant amount=1M"]
    outs = []
    for order in (rows, rows[::-1]):
        p = tmp_path / f"w{len(outs)}.facts"
        p.write_text(head + "\n".join(order) + "\n")
        r = CliRunner().invoke(main, ["hops", str(p), "o", "--json"])
        assert r.exit_code == 0
        outs.append(_LOC.sub('"loc": "-"', r.stdout))
    assert outs[0] == outs[1]
