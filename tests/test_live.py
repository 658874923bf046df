"""The live loader of `provlog lsp` (issue 43, facts/live.py): a world read over open buffers, the
unsaved text standing for its file, re-read one changed statement at a time, and saying exactly
what `load_world` says of the same text (the same errors, at the same places, with the same codes)."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from provlog.facts import LoadError, load_world
from provlog.facts.live import LiveWorld

EXAMPLE = Path(__file__).resolve().parents[1] / "facts" / "worlds" / "example"

ORGS = 'org evalco "Eval Co" type=nonprofit\nlab acme "Acme AI"\n'
STAKES = "stake acme evalco 20%\n"


def _world(tmp_path: Path, files) -> Path:
    top = tmp_path / "w"
    for name, text in files.items():
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        (top / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    return top


def _codes(snap):
    return {name: [(d.line, d.col, d.code) for d in ds] for name, ds in snap.diagnostics.items() if ds}


def _cold(top: Path):
    """What load_world says of the folder as it is on disk (names relative to the folder, as the live world's)."""
    try:
        load_world(top, root=top)
    except LoadError as e:
        return sorted(d.render() for d in e.diagnostics)
    return []


def test_an_unsaved_edit_breaks_a_reference_in_another_file_and_mends_it(tmp_path):
    top = _world(tmp_path, {"orgs.facts": ORGS, "stakes.facts": STAKES})
    live = LiveWorld(top)
    assert live.load().ok
    # the buffer renames the org: the stake (another file, unchanged) names an undeclared id at its subject
    live.set_text(top / "orgs.facts", ORGS.replace("evalco", "evalko"))
    snap = live.load()
    assert _codes(snap) == {"stakes.facts": [(1, 12, "E110")]} and snap.facts is None
    assert (top / "orgs.facts").read_text() == ORGS  # nothing written
    live.set_text(top / "orgs.facts", ORGS)  # typed back
    assert live.load().ok and _codes(live.load()) == {}
    # the near miss: the stake's subject now names the lab (a node of another kind is still a node)
    live.set_text(top / "stakes.facts", "stake acme acme 20%\n")
    assert live.load().ok


def test_a_reference_of_the_wrong_kind_and_a_duplicate_id(tmp_path):
    top = _world(tmp_path, {"orgs.facts": ORGS, "roles.facts": 'person ann "Ann"\nrole ann director evalco\n'})
    live = LiveWorld(top)
    assert live.load().ok
    live.set_text(top / "roles.facts", 'person ann "Ann"\nrole ann director evalco\nrole evalco director acme\n')
    assert _codes(live.load()) == {"roles.facts": [(3, 6, "E111")]}  # role's <person> is a person, evalco an org
    live.set_text(top / "roles.facts", 'person evalco "Ann"\n')
    assert _codes(live.load()) == {"roles.facts": [(1, 1, "E112")]}  # the later of the two is the duplicate


def test_closing_an_unsaved_buffer_reads_the_disk_again_and_a_saved_change_is_seen(tmp_path):
    top = _world(tmp_path, {"orgs.facts": ORGS, "stakes.facts": STAKES})
    live = LiveWorld(top)
    live.set_text(top / "stakes.facts", "stake acme nobody 20%\n")
    assert _codes(live.load()) == {"stakes.facts": [(1, 12, "E110")]}
    live.drop_text(top / "stakes.facts")
    assert live.load().ok
    (top / "stakes.facts").write_text("stake acme evalco 120%\n")  # saved by another program
    assert _codes(live.load()) == {"stakes.facts": [(1, 19, "E120")]}


def test_a_new_unsaved_file_is_part_of_the_folder_world(tmp_path):
    top = _world(tmp_path, {"orgs.facts": ORGS})
    live = LiveWorld(top)
    live.set_text(top / "sub" / "new.facts", "stake acme ghost 20%\n")
    assert _codes(live.load()) == {"sub/new.facts": [(1, 12, "E110")]}
    assert live.holds(top / "sub" / "new.facts") and not live.holds(tmp_path / "elsewhere.facts")


def test_only_the_changed_statement_is_read_again(tmp_path):
    top = _world(tmp_path, {"orgs.facts": "".join(f'org o{i} "O{i}" type=nonprofit\n' for i in range(50))})
    live = LiveWorld(top)
    live.load()
    before = list(live.files[(top / "orgs.facts").resolve()].blocks)
    text = (top / "orgs.facts").read_text().replace('org o20 "O20" type=nonprofit', 'org o20 "O20" type=pbc')
    live.set_text(top / "orgs.facts", text)
    snap = live.load()
    after = live.files[(top / "orgs.facts").resolve()].blocks
    kept = sum(a is b for a, b in zip(before, after))
    assert kept == 48 and len(after) == 50  # o19 (the block before the change) and o20 were read again
    assert snap.facts.nodes["o20"]["type"] == "pbc"


def test_lines_added_above_move_the_facts_below(tmp_path):
    top = _world(tmp_path, {"orgs.facts": ORGS, "stakes.facts": STAKES})
    live = LiveWorld(top)
    live.load()
    live.set_text(top / "orgs.facts", "# a comment\n\n" + ORGS)
    lab = live.load().facts.nodes["acme"]
    assert (lab.loc.line, lab.fid) == (4, "lab:acme")
    live.set_text(top / "orgs.facts", "# a comment\n\n" + ORGS + "stake acme evalco 5%\n")
    snap = live.load()  # a second stake for one holder and subject: at the later one, in the other file
    assert _codes(snap) == {"stakes.facts": [(1, 1, "E112")]}


def test_includes_are_followed_and_refused_as_the_loader_refuses_them(tmp_path):
    top = _world(tmp_path, {"main.facts": 'include "orgs.facts"\n' + STAKES, "orgs.facts": ORGS})
    (tmp_path / "outside.facts").write_text(ORGS)
    live = LiveWorld(top / "main.facts")  # a one-file world with what it includes
    assert live.load().ok
    live.set_text(top / "main.facts", 'include "gone.facts"\ninclude "../outside.facts"\n' + STAKES)
    assert _codes(live.load()) == {"main.facts": [(1, 9, "E150"), (2, 9, "E154"), (3, 7, "E110"), (3, 12, "E110")]}
    live.set_text(top / "orgs.facts", 'include "main.facts"\n' + ORGS)
    live.set_text(top / "main.facts", 'include "orgs.facts"\n' + STAKES)
    assert _codes(live.load()) == {"orgs.facts": [(1, 9, "E151")]}


def test_hostile_text_gives_diagnostics_never_an_exception(tmp_path):
    top = _world(tmp_path, {"orgs.facts": ORGS, "bad.facts": b'lab beta "Caf\xe9 Labs"\n'})
    live = LiveWorld(top)
    assert _codes(live.load()) == {"bad.facts": [(1, 14, "E152")]}  # the column counts characters
    live.set_text(top / "bad.facts", 'lab beta "Caf\udce9 Labs"\n')  # the same bytes, as an editor may send them
    assert _codes(live.load()) == {"bad.facts": [(1, 14, "E152")]}
    live.set_text(top / "bad.facts", "lab " + "x" * 10_000_000 + ' "Long"\n')  # a 10 MB line loads
    assert live.load().ok
    live.set_text(top / "bad.facts", '"' + "y" * 10_000_000)
    assert _codes(live.load())["bad.facts"][0][2] == "E100"


@pytest.mark.parametrize("seed", [1, 2])
def test_after_any_run_of_edits_the_live_world_says_what_a_cold_load_says(tmp_path, seed):
    top = tmp_path / "w"
    shutil.copytree(EXAMPLE, top)
    live = LiveWorld(top)
    live.load()
    rng = random.Random(seed)
    files = sorted(top.glob("*.facts"))
    for _ in range(40):
        p = rng.choice(files)
        lines = p.read_text().split("\n")
        k = rng.randrange(len(lines))
        edit = rng.randrange(6)
        if edit == 0:
            lines[k] = lines[k].replace("e", "x", 1)  # an id, keyword or value misspelt
        elif edit == 1:
            del lines[k]
        elif edit == 2:
            lines.insert(k, rng.choice(lines))  # a duplicate
        elif edit == 3:
            lines[k] = "  " + lines[k]  # a statement becomes the continuation of the one above
        elif edit == 4:
            lines[k] = lines[k][: len(lines[k]) // 2]  # half typed
        else:
            lines.insert(k, "# a comment")
        text = "\n".join(lines)
        live.set_text(p, text)
        p.write_text(text)
        snap = live.load()
        assert sorted(d.render() for ds in snap.diagnostics.values() for d in ds) == _cold(top)
