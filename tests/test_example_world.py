"""The shipped example world: loads, its expects hold, it verifies, every org has a card."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.queries.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "facts" / "worlds" / "example"


@pytest.fixture(scope="module")
def world():
    return World.load(EXAMPLE)


def test_expects_hold(world):
    results = world.check_expects()
    assert len(results) >= 190
    assert [r for r in results if not r.ok] == []


def test_verify_passes(world):
    assert world.verify() == []


def test_every_org_has_a_card(world):
    for org in world.orgs:
        card = world.card(org).to_json()
        assert set(card["values"]) == set("FGPASRMX")
        assert card["band"] in ("disqualifying", "conditional", "clear")


def test_readme_command_prints_a_card():
    r = CliRunner().invoke(main, ["card", str(EXAMPLE), "quorvell"])
    assert r.exit_code == 0, r.output
    assert "quorvell" in r.output and "band=clear" in r.output


def test_python_m_provlog_runs():
    r = subprocess.run([sys.executable, "-m", "provlog", "test", str(EXAMPLE)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert " passed, 0 failed" in r.stdout
