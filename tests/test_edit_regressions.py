"""Edits that once went wrong, found by a referee of issue 27 (logic/edit.py, logic/store/pages.py), each
now a regression test: a damaged free list in the old store (no seal covers it) must never end in a new
store sealed as good over two tables sharing a page; an EDB table that an edit empties, or gives its first
row, is stored as a whole derivation stores it (empty: not EDB, of the default kinds; else EDB, each row
with its statements).

The world is tests/test_store.py's: acme's card reads "G ... acme-g (G.6)"; a signal edit (acme's G cap
0 -> cap 2) takes the edit path.
"""
import sqlite3
import struct
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog.logic import store as S
from provlog.queries.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_store import MAIN, MORE  # noqa: E402

#: a comment long enough that the file's text (``_texts``) fills overflow pages: an edit then frees and
#: takes pages from SQLite's free list
PAD = "\n" + "\n".join("# " + "x" * 70 for _ in range(200)) + "\n"


@pytest.fixture
def world(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # this test's own secret
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "main.facts").write_text(MAIN + PAD)
    (tmp_path / "w" / "more.facts").write_text(MORE)
    return tmp_path / "w" / "main.facts"


def _card(world, *opts):
    return CliRunner().invoke(main, [*opts, "card", str(world), "acme"])


def _free_list_naming(store: Path, unit: str) -> None:
    """A free list (a table made and dropped: sqlite_master as it was, every seal still matching) whose
    first leaf then names a page of table ``unit``: bytes no seal covers (seal.py hashes tables' pages and
    sqlite_master's rows, never the free list's trunk pages)."""
    con = sqlite3.connect(store)
    size = con.execute("PRAGMA page_size").fetchone()[0]
    victim = next(S.seal._spans(con.execute("SELECT pages FROM _sums WHERE unit = ?", (unit,)).fetchone()[0]))[0]
    con.execute("CREATE TABLE zz (x)")
    con.execute("INSERT INTO zz VALUES (?)", (b"\0" * size * 8,))
    con.commit()
    con.execute("DROP TABLE zz")
    con.commit()
    con.close()
    data = bytearray(store.read_bytes())
    trunk = (struct.unpack(">I", data[32:36])[0] - 1) * size  # the header names the first trunk page
    assert struct.unpack(">I", data[trunk + 4:trunk + 8])[0] > 0  # it lists leaves
    data[trunk + 8:trunk + 12] = struct.pack(">I", victim)
    store.write_bytes(bytes(data))


def test_a_damaged_free_list_in_the_old_store_is_never_sealed_as_good(world, tmp_path):
    store = tmp_path / "s.sqlite"
    assert _card(world, "--store", str(store)).exit_code == 0
    _free_list_naming(store, "value")  # acme's values: a table the edit writes
    assert S.open_store(store, None, quiet=True, every=True) is not None  # every seal of the old store matches
    world.write_text(MAIN.replace("G against cap 0", "G against cap 2") + PAD)
    plain = _card(world, "--no-store").stdout
    edited = _card(world, "--store", str(store))
    assert edited.exit_code == 0 and edited.stdout == plain
    # the new store: either refused (damage found) or sound; never a broken b-tree under good seals
    if S.open_store(store, None, quiet=True, every=True) is not None:
        con = sqlite3.connect(store)
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        con.close()
    again = _card(world, "--store", str(store))
    assert again.stdout == plain  # and the next answer is a whole derivation's


# -- the random edit sequences (tests/test_edit_kinds.py): seed 64 ends with the world's one negative signal
# removed; the smallest such world -------------------------------------------------------------------------
NEGATIVE = """\
entity reg "Registry" kind=public
source s1 "https://r.example/1" publisher=reg status=confirmed tier=1
org acme "Acme" type=nonprofit evaluated=yes
signal acme-m acme M for floor 1 rule=M.3 negative
cite acme-m s1 "acme quote"
signal acme-g acme G against cap 2 rule=G.6
cite acme-g s1 "acme g"
"""


def test_the_last_negative_signal_removed_equals_a_whole_derivation(tmp_path, monkeypatch):
    from provlog import World
    from test_edit import same_as_whole

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    world, store = tmp_path / "w", tmp_path / "s.sqlite"
    world.mkdir()
    (world / "main.facts").write_text(NEGATIVE)
    World.load(world, store=store).derivation
    same_as_whole(world, store, tmp_path)  # the near miss: before the edit, the same
    (world / "main.facts").write_text(NEGATIVE.replace(" negative\n", "\n"))  # acme-m no longer negative
    w = World.load(world, store=store)
    w.derivation
    assert w.edited == ["acme"]  # the edit path
    same_as_whole(world, store, tmp_path)


def test_the_first_negative_signal_added_equals_a_whole_derivation(tmp_path, monkeypatch):
    from provlog import World
    from test_edit import same_as_whole

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    world, store = tmp_path / "w", tmp_path / "s.sqlite"
    world.mkdir()
    (world / "main.facts").write_text(NEGATIVE.replace(" negative\n", "\n"))  # no negative signal yet
    World.load(world, store=store).derivation
    same_as_whole(world, store, tmp_path)  # the near miss: before the edit, the same
    (world / "main.facts").write_text(NEGATIVE)  # acme-m now negative: negative's first row
    w = World.load(world, store=store)
    w.derivation
    assert w.edited == ["acme"]  # the edit path
    same_as_whole(world, store, tmp_path)
