"""The `provlog diff` example of docs/diff.md and README.md, run on the shipped example world: the
pages show what the command prints (they showed a G move that the G.7 reading of issue 25 had
already made, so the command printed "nothing moved").

By hand (RULES section 0, C14, C16): Quorvell's qv-r-adverse (R.5, floor 4) cites its own report
(confirmed, tier 2, with a span) and ledger-v4-dispute (confirmed, tier 3). Downgraded to unaudited,
ledger-v4-dispute leaves a signal with a confirmed and an unaudited source: C14 holds its floor at 3.
qv-r-redact (R.1) floors R at 3 too; of two recorded floors of 3 the smallest id decides: R 4 -> 3,
rule R.5 both sides, resting on the source edited. Under against-interest the own report drops
from the for-signal, ledger-v4-dispute alone (unaudited) is no confirmed source: 3 -> -.
"""
import os
import shutil
import subprocess
from pathlib import Path

from click.testing import CliRunner

from provlog.queries.cli import main

ROOT = Path(__file__).resolve().parent.parent
MOVE = "value R standard: 4 -> 3   rule R.5 -> R.5"


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org"))


def test_the_documented_example_prints_what_the_pages_show(tmp_path):
    shutil.copytree(ROOT / "facts" / "worlds" / "example", tmp_path / "world",
                    ignore=shutil.ignore_patterns(".provlog"))
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "world")
    _git(tmp_path, "commit", "-qm", "example")
    sources = tmp_path / "world" / "sources.facts"
    lines = sources.read_text().splitlines(keepends=True)
    assert lines[96].startswith("source ledger-v4-dispute ") and "status=confirmed" in lines[97]
    lines[97] = lines[97].replace("status=confirmed", "status=unaudited")
    sources.write_text("".join(lines))
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        run = CliRunner().invoke
        got = run(main, ["--no-store", "diff", "HEAD", "world", "--policy", "standard", "--exit-code"])
        assert got.exit_code == 1, got.output
        assert "1 changed, 0 removed, 0 added statements; 1 row moved in 1 org" in got.output
        assert MOVE in got.output
        assert "(world/sources.facts:97; was status=confirmed)" in got.output
        every = run(main, ["--no-store", "diff", "HEAD", "world"]).output
        assert "value R against-interest: 3 -> -   rule R.5 -> -" in every
        # the what-if before the edit moves the same row
        _git(tmp_path, "checkout", "--", "world")
        what_if = run(main, ["--no-store", "diff", "world", "--set", "ledger-v4-dispute", "status=unaudited",
                             "--policy", "standard"])
        assert MOVE in what_if.output, what_if.output
    finally:
        os.chdir(here)
    for page in ("docs/diff.md", "README.md"):
        assert MOVE in (ROOT / page).read_text(), page
