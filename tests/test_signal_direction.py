"""RULES section 0, Bounds: "an against-signal sets a cap ..., a for-signal sets a floor ..., and either
may be null when the signal is informational". Found by an audit: `signal x o R for cap 2` loaded, and
bounded R from above as any cap does; so did `against floor 3`. Now each is a located error (E104) at
the direction, saying which two ways it can be written; the what-if `--set x kind=cap` on a for-signal
is the same error."""
import pytest

from provlog.facts import LoadError, load_world

HEAD = """\
org ev "E" type=nonprofit
entity p "P" kind=company
source s "S" publisher=p status=confirmed tier=1
"""


def _load(tmp_path, line: str):
    (tmp_path / "w.facts").write_text(HEAD + line + "\n")
    return load_world(str(tmp_path / "w.facts"))


@pytest.mark.parametrize("line, message", [
    ("signal x ev R for cap 2 rule=R.2",
     "a for-signal sets a floor, not a cap (RULES section 0, Bounds): write `against cap 2` or `for floor 2`"),
    ("signal x ev R against floor 3 rule=R.1",
     "an against-signal sets a cap, not a floor (RULES section 0, Bounds): write `for floor 3` or `against cap 3`"),
])
def test_a_bound_against_its_direction_is_refused_where_it_stands(tmp_path, line, message):
    with pytest.raises(LoadError) as e:
        _load(tmp_path, line)
    d, = e.value.diagnostics
    assert (d.line, d.col, d.code, d.message) == (4, 15, "E104", message)


@pytest.mark.parametrize("line", ["signal x ev R for floor 3 rule=R.1", "signal x ev R against cap 2 rule=R.2",
                                  "signal x ev R for info rule=F.11", "signal x ev R against info rule=F.11"])
def test_the_near_misses_load(tmp_path, line):
    assert len(_load(tmp_path, line).of("signal")) == 1


def test_a_what_if_that_turns_a_floor_into_a_cap_is_refused(tmp_path):
    from provlog import World
    from provlog.facts.whatif import WhatIfError
    from provlog.queries.diff import what_if

    (tmp_path / "w.facts").write_text(HEAD + "signal x ev R for floor 3 rule=R.1\ncite x s\n")
    with pytest.raises(WhatIfError) as e:
        what_if(World.load(str(tmp_path / "w.facts")), sets=[("x", "kind=cap")])
    assert e.value.diagnostics[0].code == "E104" and "a for-signal sets a floor" in e.value.diagnostics[0].message
