"""Readings provlog takes where SEMANTICS leaves a choice (docs/readings.md), each with its near miss."""
from provlog import World

BASE = '''lab acme "Acme"
org e "E" type=nonprofit evaluated=yes
person pat "Pat"
entity reg "Registry" kind=public
source s1 "filing" publisher=reg status=confirmed tier=1
'''


def test_a_past_until_ends_a_role():
    # P.1 needs a present lab board seat; a seat that ended (until= passed) is a former tie.
    present = World.from_text(BASE + 'role pat director e src=s1 span="director"\nrole pat board acme src=s1 span="board"\n')
    former = World.from_text(BASE + 'role pat director e src=s1 span="director"\n'
                             'role pat board acme until=2020 src=s1 span="board"\n')
    future = World.from_text(BASE + 'role pat director e src=s1 span="director"\n'
                             'role pat board acme until=2999 src=s1 span="board"\n')
    assert present.value("e", "P").value == 0
    assert former.value("e", "P").value is None
    assert future.value("e", "P").value == 0


def test_a_past_until_ends_a_stake():
    held = World.from_text(BASE + 'stake acme e 25% src=s1 span="25%"\n')
    sold = World.from_text(BASE + 'stake acme e 25% until=2021-06 src=s1 span="25%"\n')
    assert held.value("e", "F").value == 0
    assert sold.value("e", "F").value is None


def test_lower_bound_of_a_range_and_strict_above():
    # F.1 needs 20% certainly: 15-25% is only 15% for sure (F.4's 5% applies instead).
    rng = World.from_text(BASE + 'stake acme e 15-25% src=s1 span="x"\n')
    assert (rng.value("e", "F").value, rng.value("e", "F").rule) == (1, "F.4")
    # F.2 needs a share over 5%: >5% is, 5% is not.
    over = World.from_text(BASE + 'money acme e compute operating share=>5% src=s1\n')
    at = World.from_text(BASE + 'money acme e compute operating share=5% src=s1\n')
    assert over.value("e", "F").value == 2
    assert at.value("e", "F").value is None


def test_resolution_signal_is_null_and_rule_is_the_resolutions():
    w = World.from_text(BASE + '''signal c e R against cap 2 rule=R.6
cite c s1 "cap"
signal f e R for floor 4 rule=R.5
cite f s1 "floor"
resolution e R value=3 rule=R.6
''')
    v = w.value("e", "R")
    assert (v.value, v.signal, v.rule, v.conflict, v.resolved) == (3, None, "R.6", True, True)
