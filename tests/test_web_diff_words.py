"""The explorer's diff page counts as the text report does: "1 org", not "1 orgs" (found by an audit)."""
import pytest

pytest.importorskip("flask")

from test_web_diff import client  # noqa: E402,F401  (the stake world, committed then edited)


def test_the_summary_counts_in_words(client):  # noqa: F811
    # test_stake's edit (20% -> 19.99%) beside SIGNALS, under each of the five policies: F 0 -> 1, G 0 -> 3
    # (G.6's cap 0 gone, o1-g's floor 3 decides), the band, and the G conflict (floor 3 > cap 0) gone:
    # 4 x 5 = 20 rows, all o1's
    html = client.get("/diff?rev=HEAD").get_data(as_text=True)
    assert "20 rows moved in 1 org." in " ".join(html.split())
    assert "1 orgs" not in " ".join(html.split())
