"""Edits of every kind of statement, updated in place, equal a cold derivation (issue 27; logic/edit.py,
logic/spread.py).

A generated world of a few orgs (bench/generate.py) with a result, an assessment and a resolution of
its own is edited again and again, a seeded random edit of one kind (or two kinds at once) after
another, each from the store the edit before wrote, as a curator works; after each, the store the edit
path wrote is compared with a whole derivation's of the same world, every relation row for row (values,
conflicts, bands, roles, hops, derived signals, statements, meta), and the proofs (``why``) of the orgs
the edit re-derived are compared text for text.
"""
import os
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

from provlog import World
from provlog.logic import store as S

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:  # bench/ is run from the repository root, never installed
        sys.path.insert(0, p)

from test_edit import dump  # noqa: E402

from bench.edits import EXTRA as RESULT_AND_ASSESSMENT  # noqa: E402

#: a result that derives an M floor (M.3: a verified third-party run of its org's own open tasks), an
#: assessment and a resolution, which the generated world has none or few of (bench/edits.py's, dated)
EXTRA = "as-of 2026-06-01\n" + RESULT_AND_ASSESSMENT + "resolution o00003 G value=2 rule=G.1\n"

KINDS = ["signal", "cite", "source", "stake", "money", "role", "org", "policy", "invest", "resolution",
         "assessment", "result", "lines"]


def _sub(line, rx, values, rnd):
    """``line`` with the first group of ``rx`` replaced by another of ``values`` (None: no match)."""
    m = re.search(rx, line)
    if m is None:
        return None
    a, b = (m.start(1), m.end(1)) if m.group(1) is not None else (m.end(0), m.end(0))  # an optional group
    return line[:a] + rnd.choice([v for v in values if v != (m.group(1) or "")]) + line[b:]


#: per kind: (regex of the field edited, the values it may take), or a list of them to choose from; a kind
#: may also be deleted (DELETABLE)
FIELDS = {
    "signal": (r" (?:cap|floor) ([0-4])\b", list("01234")),
    "cite": (r'^cite \S+ \S+( "[^"]*")?', ["", ' "a span"', ' "another span"']),
    "source": (r"status=(\w+)", ["confirmed", "unaudited"]),
    "stake": [(r"^stake \S+ \S+ ([\d.]+%)", ["1%", "4%", "6%", "15%", "25%", "30%", "55%"]),
              (r'span="([^"]*)"', ["a quote", "another quote"])],
    "money": (r" (grant|investment|revenue|fee|donation|in-kind|credits|compute)\b", ["grant", "fee", "revenue"]),
    "role": (r"^role \S+ (\w+)", ["founder", "director", "advisor", "employee", "board"]),
    "org": (r"type=(\w+)", ["nonprofit", "academic", "vc", "bigtech", "pbc"]),
    "policy": (r"since=(\d+)", ["2016", "2020", "2024", "2026"]),
    "invest": (r"^invest \S+ \S+( led| co-led)?(?=\s|$)", ["", " led", " co-led"]),
    "resolution": (r"value=([0-4])", list("0123")),
    "assessment": (r"value=([0-4])", list("01234")),
    "result": (r"^result .* catalog=[\w-]+( own-tasks)?", ["", " own-tasks"]),
}
DELETABLE = ("stake", "money", "role", "policy", "invest", "resolution", "cite")


def edit(files, kind, rnd):
    """One random edit of a statement of ``kind`` in ``files`` (name -> lines), in place."""
    if kind == "lines":  # a comment above everything: every later statement of the file moves down a line
        files[rnd.choice(sorted(files))].insert(0, "# moved")
        return
    at = [(n, i) for n, lines in files.items() for i, line in enumerate(lines) if line.startswith(kind + " ")]
    if not at:  # every statement of the kind deleted by earlier steps: this step edits nothing
        return
    n, i = rnd.choice(at)
    lines = files[n]
    if kind == "cite" and rnd.random() < .5:  # a citation added to a random signal
        sid = rnd.choice([line.split()[1] for line in lines if line.startswith("signal ")])
        src = rnd.choice([line.split()[2] for line in lines if line.startswith("cite ")])
        lines.insert(rnd.randrange(len(lines) + 1), f"cite {sid} {src}")
    elif kind == "signal" and rnd.random() < .3:  # a signal removed with its citations
        sid = lines[i].split()[1]
        lines[:] = [line for line in lines if not line.startswith((f"signal {sid} ", f"cite {sid} "))]
    elif kind in DELETABLE and rnd.random() < .3:
        del lines[i]
    else:
        ways = FIELDS[kind] if isinstance(FIELDS[kind], list) else [FIELDS[kind]]
        got = _sub(lines[i], *rnd.choice(ways), rnd)
        if got is None:  # the statement has no such field: a second try on another
            return edit(files, kind, rnd)
        lines[i] = got


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A generated world of 4 orgs plus EXTRA in ``orig/``, and the store of its copy ``w/`` (``orig.sqlite``),
    made once."""
    return stored_copy(tmp_path_factory.mktemp("kinds"), 4, 3, EXTRA)


def stored_copy(base: Path, orgs: int, seed: int, extra: str = "") -> Path:
    """``base/orig/``: bench/generate.py's world of ``orgs`` orgs (and ``extra.facts``, if given);
    ``base/w/``: its copy, derived and stored in ``base/orig.sqlite`` (file names relative to ``base``)."""
    from bench.generate import generate

    (base / "orig").mkdir()
    for name, text in generate(orgs, seed).items():
        (base / "orig" / name).write_text(text)
    if extra:
        (base / "orig" / "extra.facts").write_text(extra)
    shutil.copytree(base / "orig", base / "w")
    os.chdir(base)
    try:
        World.load(base / "w", store=base / "orig.sqlite").derivation
    finally:
        os.chdir(ROOT)
    return base


def _check(world, store, whole, edited):
    """The edited store equals a whole derivation's, row for row; the edited orgs' proofs read the same."""
    whole.unlink(missing_ok=True)
    cold = World.load(world, store=whole)
    cold.derivation
    a, b = dump(store), dump(whole)
    assert [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)] == []
    warm = World.load(world, store=store)
    assert isinstance(warm._store, S.Stored)
    for org in [o for o in edited if o in cold.orgs][:2]:  # (a route may name a lab or an entity too)
        for dim in "FGM":
            assert warm.why(org, dim) == cold.why(org, dim), (org, dim)


#: the seeds run (``PROVLOG_EDIT_SEEDS=1,2,3,4 pytest tests/test_edit_kinds.py`` for more; each ~40 s)
SEEDS = [int(s) for s in os.environ.get("PROVLOG_EDIT_SEEDS", "1").split(",")]


@pytest.mark.parametrize("seed", SEEDS)
def test_random_edits_of_every_kind_equal_a_cold_derivation(base, tmp_path, monkeypatch, seed):
    """Every kind once per seed, in a random order, sometimes with a second kind in the same edit."""
    monkeypatch.chdir(base)  # the store's world: w/ in this folder, as it was made
    world, store = base / "w", tmp_path / "e.sqlite"
    shutil.rmtree(world)
    shutil.copytree(base / "orig", world)
    shutil.copyfile(base / "orig.sqlite", store)
    rnd = random.Random(seed)
    files = {p.name: p.read_text().splitlines() for p in sorted(world.glob("*.facts"))}
    kinds = KINDS[:]
    rnd.shuffle(kinds)
    paths, undone = [], 0
    for kind in kinds:
        before = {name: list(lines) for name, lines in files.items()}
        edit(files, kind, rnd)
        if rnd.random() < .4:
            edit(files, rnd.choice(KINDS), rnd)
        for name, lines in files.items():
            (world / name).write_text("\n".join(lines) + "\n")
        w = World.load(world, store=store)
        w.derivation
        if files == before:  # the second edit undid the first (or the kind is gone): the store answers
            assert w.edited is None, kind
            undone += 1
            continue
        assert w.edited is not None, kind  # updated in place (never derived whole)
        paths.append((kind, w.edited))
        _check(world, store, tmp_path / "whole.sqlite", w.edited or [])
    assert len(paths) + undone == len(KINDS) and undone <= 2
