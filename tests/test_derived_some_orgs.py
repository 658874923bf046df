"""The derived signals an edit makes again are those of the orgs it reaches, numbered as a whole
derivation numbers them (issue 27; logic/program.py ``_derive_signals(only)``, logic/spread.py).

A derived signal's id is ``rule/org/i``, numbered within its rule and org, and its fields come from its
org's ``derive`` and ``uses`` rows and the statements they cite: so making one org's alone gives the
same signals as the whole derivation gives that org, and none of another org's.
"""
import sys
from pathlib import Path

from provlog import World
from provlog.logic.program import Derivation

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def world():
    from bench.generate import generate

    return World.from_text("\n".join(generate(6, 3).values()))


def test_one_orgs_derived_signals_equal_the_whole_derivations_and_no_others():
    d = world().derivation
    by_org = {}
    for s in d.derived.values():
        by_org.setdefault(s.org, {})[s.id] = s
    many = sorted(o for o, got in by_org.items() if len(got) > 1)
    assert many, "the generated world has an org with several derived signals"
    org = many[0]
    part = Derivation(d.facts, d.program)
    part._derive_signals({org})
    assert part.derived == by_org[org]
    # numbered from 1 within each rule, as the whole derivation numbers them
    for rule in {s.rule for s in by_org[org].values()}:
        ids = sorted(int(s.id.rsplit("/", 1)[1]) for s in by_org[org].values() if s.rule == rule)
        assert ids == list(range(1, len(ids) + 1))
    # the near miss: an org not asked for gets none, and no org nothing
    other = Derivation(d.facts, d.program)
    other._derive_signals(set())
    assert other.derived == {}
