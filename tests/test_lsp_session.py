"""The language server's session (queries/lsp/session.py; issue 43) without a client: the World it
answers from is the CLI's, read from the CLI's store, while every buffer is saved; the buffers'
own world, derived in memory and never stored, while one is not; and no file of the world is written."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from provlog.queries.cli import main
from provlog.queries.loading import store_for
from provlog.queries.lsp.answers import signal_hint
from provlog.queries.lsp.session import Session

EXAMPLE = Path(__file__).resolve().parents[1] / "facts" / "worlds" / "example"


def _facts(top: Path):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(top.rglob("*.facts"))}


def test_saved_buffers_answer_from_the_clis_store_and_unsaved_ones_in_memory(tmp_path, monkeypatch):
    top = tmp_path / "example"
    shutil.copytree(EXAMPLE, top)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["card", "example", "quorvell"]).exit_code == 0  # the CLI stores its derivation
    store = Path(store_for(os.environ.get("PROVLOG_STORE") or True, "example")).resolve()
    assert store.exists()
    before = _facts(top)
    s = Session(top)
    signals = top / "signals.facts"
    text = signals.read_text()
    s.open(signals, text)  # open, unchanged: the CLI's store answers
    w = s.world()
    assert Path(w._store.path).resolve() == store
    assert signal_hint(w, w.facts.signals["qv-g-board"]) == "decides G = 3, clamped 4 -> 3 (G.7)"
    # unsaved: quorvell's board floor is lowered below the policy floor; the buffers' world answers
    edited = text.replace("signal qv-g-board quorvell G for floor 4", "signal qv-g-board quorvell G for floor 1")
    assert edited != text
    s.change(signals, edited)
    w = s.world()
    assert w._store is None
    assert signal_hint(w, w.facts.signals["qv-g-board"]) == "outweighed by qv-g-policy"
    assert signal_hint(w, w.facts.signals["qv-g-policy"]) == "decides G = 3"
    assert _facts(top) == before  # nothing of the world written


def test_every_file_has_its_diagnostics_and_a_file_outside_is_checked_alone(tmp_path):
    top = tmp_path / "w"
    top.mkdir()
    (top / "orgs.facts").write_text('org evalco "Eval Co" type=nonprofit\n')
    (top / "stakes.facts").write_text("stake evalco evalco 20%\n")
    s = Session(top, store=False)
    s.open(top / "orgs.facts", 'org evalko "Eval Co" type=nonprofit\n')
    got = {p.name: [d.code for d in ds] for p, ds in s.diagnostics().items()}
    assert got == {"orgs.facts": [], "stakes.facts": ["E110", "E110"]}
    stray = tmp_path / "stray.facts"
    s.open(stray, 'lab acme "Acme"\n')
    assert [d.code for d in s.diagnostics()[stray.resolve()]] == ["W140"]
    assert s.world() is None  # the world has errors: no answers until they are fixed
