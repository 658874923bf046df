"""The explorer's diff pages (queries/web/diff.py): a revision's and a what-if's report, values linked
to their old and new proofs, refusals as pages. The moves are test_diff.py's, derived there by hand."""
import os
import re

import pytest

pytest.importorskip("flask")

from provlog.queries.web import create_app  # noqa: E402
from test_diff import PRELUDE, SIGNALS, STAKE, _git  # noqa: E402


@pytest.fixture
def client(tmp_path):
    """The stake world committed, then edited in the tree (20% -> 19.99%), served."""
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(PRELUDE + STAKE + SIGNALS)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "w")
    _git(tmp_path, "commit", "-qm", "one")
    (tmp_path / "w" / "a.facts").write_text(PRELUDE + STAKE.replace("20%", "19.99%") + SIGNALS)
    here = os.getcwd()
    os.chdir(tmp_path)
    yield create_app("w").test_client()
    os.chdir(here)


def _head() -> str:
    """HEAD's commit id, as a revision's side names its files (its first 12 digits)."""
    import subprocess

    return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout[:12]


def test_a_revision_s_moves_link_to_both_proofs(client):
    html = client.get("/diff?rev=HEAD").get_data(as_text=True)
    head = _head()
    assert f"<code>{head}:w</code> → <code>w</code>" in html
    # F.1 -> F.4 (test_stake): F 0 -> 1 under standard, its old proof on the revision, its new one the world's
    # the same move under every policy, on the same statement: one row, a pair of proof links per policy
    row = next(r for r in html.split('<tr class="move">') if "value F leads-included, standard, against" in r)
    assert re.search(r'class="value">0<.*class="value">1<', row, re.S) and "F.1 → F.4" in row
    assert row.count('class="old-proof"') == 5
    old = re.search(r'class="old-proof" href="([^"]+policy=standard[^"]*)"', row).group(1).replace("&amp;", "&")
    new = re.search(r'class="new-proof" href="([^"]+policy=standard[^"]*)"', row).group(1)
    assert old == "/diff/why/o1/F?policy=standard&side=old&rev=HEAD" and new == "/why/o1/F?policy=standard"
    page = client.get(old).get_data(as_text=True)
    assert f"in <code>{head}:w</code>" in page and "F.1" in page and f"{head}:w/a.facts:7" in page


def test_a_what_if_page(client):
    html = client.get("/diff?without=s1").get_data(as_text=True)
    assert "w (--without s1)" in html and "value G leads-included, standard, against-interest" in html
    row = next(r for r in html.split('<tr class="move">') if "value G " in r and "standard" in r)
    assert re.search(r'class="old-proof" href="/why/o1/G\?policy=standard"', row)


def test_refusals_are_pages_not_tracebacks(client):
    assert client.get("/diff?set=s1&to=status%3Dmaybe").status_code == 400  # the loader's E104
    assert client.get("/diff?rev=--output%3D/tmp/x").status_code == 400
    assert client.get("/diff?rev=HEAD").status_code == 200
    assert client.get("/diff/why/o1/Q?rev=HEAD&side=old").status_code == 404
    assert client.get("/diff").status_code == 200  # the form alone


# -- hostile use (issue 38) ------------------------------------------------------------------------------
def test_a_rev_is_a_revision_of_the_world_s_repository_and_nothing_else(client, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "a.facts").write_text('lab secret "Secret Lab Elsewhere"\n')
    for rev in ("/etc/passwd", str(elsewhere), str(elsewhere / "a.facts"), "HEAD:w", "HEAD:../x", "HEAD\x00",
                "HE\nAD", "--output=/tmp/x"):
        got = client.get("/diff", query_string={"rev": rev})
        body = got.get_data(as_text=True)
        assert got.status_code == 400, rev
        assert "root:" not in body and "Secret Lab" not in body and "Traceback" not in body
    assert client.get("/diff?rev=HEAD%00").status_code == 400
    assert client.get("/diff?rev=no-such-branch").status_code == 404


def test_a_what_if_on_the_web_is_checked_as_set_is(client):
    got = client.get("/diff", query_string={"set": "s1", "to": 'status=unaudited\nsource evil "x"'})
    assert got.status_code == 400 and "--set:1:17" in got.get_data(as_text=True)
    got = client.get("/diff", query_string={"set": "s1", "to": "status=unaudited#x"})
    assert got.status_code == 400 and "E104" in got.get_data(as_text=True)
    # o1-g renamed while its cite names it: the edited file's E110 at the cite
    got = client.get("/diff", query_string={"set": "o1-g", "to": "id=o1-new"})
    assert got.status_code == 400 and "E110" in got.get_data(as_text=True)
    assert client.get("/diff", query_string={"set": "s1", "to": "status=unaudited"}).status_code == 200


def test_kept_sides_follow_the_commit_and_are_bounded(client, tmp_path):
    kept = client.application.extensions["provlog.diff.kept"]
    first = client.get("/diff?rev=HEAD").get_data(as_text=True)
    assert "value F " in first and "standard" in first  # one row names every policy it moves under (issue 42)
    # every spelling of one commit is one side
    for rev in ("HEAD^0", "HEAD~0", "HEAD^0^0~0", _head()):
        assert client.get("/diff", query_string={"rev": rev}).status_code == 200
    assert len(kept) == 1
    # HEAD moves to a commit of the tree's world (19.99%): nothing moves against it now
    _git(tmp_path, "commit", "-qam", "two")
    now = client.get("/diff?rev=HEAD").get_data(as_text=True)
    assert "value F " not in now and "nothing moved" in now and _head() in now
    for rev in ("HEAD~1", "HEAD", "HEAD~1^0"):
        client.get("/diff", query_string={"rev": rev})
    for without in ("s1", "s2", "o1-g"):
        client.get("/diff", query_string={"without": without})
    assert len(kept) == 4
