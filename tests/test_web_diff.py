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


def test_a_revision_s_moves_link_to_both_proofs(client):
    html = client.get("/diff?rev=HEAD").get_data(as_text=True)
    assert "<code>HEAD:w</code> → <code>w</code>" in html
    # F.1 -> F.4 (test_stake): F 0 -> 1 under standard, its old proof on the revision, its new one the world's
    # the same move under every policy, on the same statement: one row, a pair of proof links per policy
    row = next(r for r in html.split('<tr class="move">') if "value F leads-included, standard, against" in r)
    assert re.search(r'class="value">0<.*class="value">1<', row, re.S) and "F.1 → F.4" in row
    assert row.count('class="old-proof"') == 5
    old = re.search(r'class="old-proof" href="([^"]+policy=standard[^"]*)"', row).group(1).replace("&amp;", "&")
    new = re.search(r'class="new-proof" href="([^"]+policy=standard[^"]*)"', row).group(1)
    assert old == "/diff/why/o1/F?policy=standard&side=old&rev=HEAD" and new == "/why/o1/F?policy=standard"
    page = client.get(old).get_data(as_text=True)
    assert "in <code>HEAD:w</code>" in page and "F.1" in page and "HEAD:w/a.facts:7" in page


def test_a_what_if_page(client):
    html = client.get("/diff?without=s1").get_data(as_text=True)
    assert "w (--without s1)" in html and "value G leads-included, standard, against-interest" in html
    row = next(r for r in html.split('<tr class="move">') if "value G " in r and "standard" in r)
    assert re.search(r'class="old-proof" href="/why/o1/G\?policy=standard"', row)


def test_refusals_are_pages_not_tracebacks(client):
    assert client.get("/diff?set=s1&to=status%3Dmaybe").status_code == 404  # the loader's E104
    assert client.get("/diff?rev=--output%3D/tmp/x").status_code == 404
    assert client.get("/diff?rev=HEAD").status_code == 200
    assert client.get("/diff/why/o1/Q?rev=HEAD&side=old").status_code == 404
    assert client.get("/diff").status_code == 200  # the form alone
