"""`why` on an F.8 hold by two amendments within 24 months says which day each is compared with.
Found by an audit: it read "the amendment of 2024-12-15 is below 24 months after the amendment, at
2025-01-15", naming neither amendment the 24 months run from.

By hand (F.8, "amended more than once in any 24-month window"): amendments 2023-01-15 and 2024-12-15
are 23 months apart: 2024-12-15 falls before 2025-01-15, 24 months after the first; held at 3.
"""
from provlog import World

WORLD = """\
as-of 2026-06-01
org ev "Evaluator" type=nonprofit
entity reg "Charity Register" kind=public
entity press "Press" kind=company
source filing "Charity register: Evaluator return" publisher=reg status=confirmed tier=1
source art "Press article" publisher=press status=confirmed tier=3
signal f4 ev F for floor 4 rule=F.12 negative
cite f4 filing "No funding from any AI developer was received."
cite f4 art "The evaluator takes no money from AI labs."
policy ev no-lab-money since=2020-01-01 amended=2023-01-15,2024-12-15
"""


def test_the_window_names_the_other_amendment(tmp_path):
    (tmp_path / "w.facts").write_text(WORLD)
    w = World.load(tmp_path / "w.facts")
    assert w.value("ev", "F").value == 3
    text = w.why("ev", "F")
    assert "the amendment of 2024-12-15 is below the day 24 months after the other amendment, 2025-01-15" in text
