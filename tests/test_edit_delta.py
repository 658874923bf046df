"""An edit re-reads only the lines that changed (issue 27; logic/reread.py, logic/edit_delta.py).

On a generated world of 4 orgs in five files (tests/test_edit_kinds.py's), one edit after another,
each from the store the one before wrote: every edit in one file must take the delta path (the store's
``edit`` note names the lines re-read) and write the store a cold derivation writes (every relation
row for row, the statements with their numbers, lines and fact ids, the canonical texts, the files'
texts, the fingerprint), and the edited orgs' proofs must read the same. Edits in the middle of the
big signals file, statements inserted and deleted (the later ones move), a multi-line statement.
What the delta path cannot prove (a declaration removed, two files changed, a file added, removed or
renamed) takes the whole path, with the same store. A bad edit fails as a cold load fails, located,
and the old store stays as it was.
"""
import hashlib
import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from provlog import World
from provlog.facts import LoadError, load_world
from provlog.logic import edb
from provlog.logic.locality import EDITED

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

from test_edit_kinds import EXTRA, _check, stored_copy  # noqa: E402


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The generated world in ``orig/`` and the store of its copy ``w/`` (``orig.sqlite``), made once."""
    return stored_copy(tmp_path_factory.mktemp("delta"), 4, 3, EXTRA)


@pytest.fixture
def w(made, tmp_path, monkeypatch):
    """A fresh copy of the world and its store; ``w.files``: name -> lines."""
    monkeypatch.chdir(made)
    world, store = made / "w", tmp_path / "e.sqlite"
    shutil.rmtree(world)
    shutil.copytree(made / "orig", world)
    shutil.copyfile(made / "orig.sqlite", store)
    files = {p.name: p.read_text().splitlines() for p in sorted(world.glob("*.facts"))}
    return world, store, files, tmp_path


def note(store):
    con = sqlite3.connect(store)
    try:
        got = con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()
    finally:
        con.close()
    return json.loads(got[0]) if got else None


def step(w, delta=True):
    """Write the files, load the world from its store (the edit path), compare with a cold derivation."""
    world, store, files, tmp = w
    for name, lines in files.items():
        (world / name).write_text("\n".join(lines) + "\n")
    got = World.load(world, store=store)
    got.derivation
    assert got.edited is not None
    assert ("read" in note(store)) == delta, note(store)
    _check(world, store, tmp / "whole.sqlite", got.edited)
    return note(store)


def find(lines, prefix, nth=0):
    """The index of the ``nth`` line starting with ``prefix``, counted from the middle of ``lines``."""
    at = [i for i, line in enumerate(lines) if line.startswith(prefix)]
    return sorted(at, key=lambda i: (i < len(lines) // 2, i))[nth]


def test_edits_in_the_middle_of_a_file_reread_their_lines_and_equal_a_cold_derivation(w):
    _, store, files, _ = w
    sig = files["signals.facts"]
    i = find(sig, "signal ")
    sig[i] = sig[i].replace(" cap 3", " cap 1").replace(" cap 2", " cap 0").replace(" floor 1", " floor 2")
    e = step(w)
    assert e["read"]["file"].endswith("signals.facts") and e["read"]["statements"] <= 5
    j = find(sig, "cite ")  # a citation inserted: every later statement of the file moves down a line
    sig.insert(j, sig[j].split('"')[0].rstrip() + ' "an added span"')
    step(w)
    del sig[find(sig, "cite ", 2)]  # ... and one deleted: they move up
    step(w)
    st = files["structure.facts"]
    k = find(st, "stake ")
    st[k] = re.sub(r"\d+(\.\d+)?%", "7%", st[k], count=1)
    step(w)
    del st[find(st, "stake ", 1)]  # later stakes, money rows and roles change their fact ids (kind@file:line)
    step(w)
    st.insert(1, "# a comment above everything")
    step(w)
    ent = files["entities.facts"]
    o = find(ent, "org ")
    kind = re.search(r"type=(\w+)", ent[o]).group(1)
    ent[o] = ent[o].replace(f"type={kind}", "type=" + ("academic" if kind == "nonprofit" else "nonprofit"))
    step(w)
    ex = files["extra.facts"]  # a statement of several lines (continued lines)
    r = find(ex, "result ")
    ex[r] = ex[r].replace("percentile=80", "percentile=40")
    step(w)
    fresh = World.load(w[0]).fingerprint()  # no store: hashed from the parsed statements
    assert json.loads(sqlite3.connect(store).execute("SELECT v FROM _meta WHERE k = 'fingerprint'").fetchone()[0]) == fresh


def test_a_declaration_added_rereads_and_one_removed_is_loaded_whole(w):
    _, _, files, _ = w
    ent = files["entities.facts"]
    ent.insert(len(ent) // 2, 'entity zz-new "A New Fund" kind=fund')
    step(w)
    files["structure.facts"].insert(3, "stake zz-new o00001 6%")  # and named from another file
    step(w)
    sig = files["signals.facts"]
    sid = sig[find(sig, "signal ")].split()[1]
    sig[:] = [line for line in sig if not line.startswith((f"signal {sid} ", f"cite {sid} "))]
    step(w, delta=False)  # a statement elsewhere might name it: only a whole load can say


def test_two_files_changed_or_a_file_added_removed_renamed_are_loaded_whole(w):
    world, _, files, _ = w
    files["structure.facts"].insert(2, "# moved")
    files["entities.facts"].insert(2, "# moved")
    step(w, delta=False)
    files["more.facts"] = ['entity zz-more "More" kind=fund']
    step(w, delta=False)
    del files["more.facts"]
    (world / "more.facts").unlink()
    step(w, delta=False)
    files["extra2.facts"] = files.pop("extra.facts")
    (world / "extra.facts").unlink()
    step(w, delta=False)
    files["entities.facts"].insert(4, "# and a delta again")
    step(w)


BAD = {
    "an undeclared holder": ("structure.facts", "stake nobody-at-all o00001 6%"),
    "an id declared twice": ("entities.facts", 'org o00002 "Again" type=nonprofit'),
    "a syntax error": ("signals.facts", 'cite o00001-a1 "unterminated'),
    "a second resolution of one org and dimension": ("extra.facts", "resolution o00003 G value=1 rule=G.1"),
    "a reference to a signal": ("structure.facts", "stake o00001-a1 o00002 6%"),
}


@pytest.mark.parametrize("bad", list(BAD))
def test_a_bad_edit_fails_as_a_cold_load_and_keeps_the_store(w, bad):
    world, store, files, _ = w
    name, line = BAD[bad]
    lines = files[name]
    at = next((i for i in range(len(lines) // 2, len(lines)) if lines[i][:1].isalpha()), len(lines))
    lines.insert(at, line)  # before a statement, not inside one of several lines
    (world / name).write_text("\n".join(lines) + "\n")
    kept = hashlib.sha256(store.read_bytes()).hexdigest()
    with pytest.raises(LoadError) as cold:
        load_world(world)
    with pytest.raises(LoadError) as edited:
        World.load(world, store=store).derivation
    assert edited.value.diagnostics == cold.value.diagnostics and "facts:" in str(cold.value)
    assert hashlib.sha256(store.read_bytes()).hexdigest() == kept
    del lines[at]  # the near miss: the line taken out again, the store answers as it was
    (world / name).write_text("\n".join(lines) + "\n")
    assert World.load(world, store=store).edited is None


def test_each_edb_table_but_the_signals_is_made_by_one_kind(made):
    """logic/edit_delta.py makes the tables an edit writes from every statement of the edited kinds
    (and reads the rest from the store): sound only if no table is made by two kinds."""
    facts = load_world(made / "orig")
    origins = edb.Origins()
    edb.rows(facts, None, origins)
    for pred, rows in origins._by.items():
        if pred in EDITED:
            continue
        kinds = {f.kind for row in rows for f in origins.get((pred, row))}
        assert len(kinds) <= 1, (pred, kinds)
    made_by = {f.kind for pred, rows in origins._by.items() for row in rows for f in origins.get((pred, row))}
    assert {"stake", "money", "role", "org", "source", "result", "policy", "invest"} <= made_by


def test_a_check_across_statements_sees_a_declaration_of_another_kind_edited(w):
    """E166 (a result attested by its own org, facts/results.py) is a check of results that looks up
    their org: an edit of the org alone, in another file, must fail it as a cold load does."""
    world, store, files, _ = w
    ent = files["entities.facts"]
    i = find(ent, "org o00001 ")
    was = ent[i]
    ent[i] = re.sub(r'"[^"]*"', '"https://ci.example/workflows/bench@1"', ent[i], count=1)
    (world / "entities.facts").write_text("\n".join(ent) + "\n")
    with pytest.raises(LoadError) as cold:
        load_world(world)
    assert "E166" in str(cold.value)
    with pytest.raises(LoadError) as edited:
        World.load(world, store=store).derivation
    assert edited.value.diagnostics == cold.value.diagnostics
    ent[i] = was.replace('"', '"Renamed ', 1)  # the near miss: another name, re-read by lines
    step(w)
