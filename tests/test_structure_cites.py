"""Structural rules: citations, exact effective stakes, lab investor / owner
status, and deciding signals, for the worlds in tests/worlds/structure/.

Every expected value here is derived by hand from seeds/rules.txt and
spec/SEMANTICS.md (see the comment above each case in the .facts file it
loads); none was taken from program output.

API used (provlog):
    World.load(path); w.value(org, dim, policy=...) -> .value .signal .rule
    .conflict; w.signals(org) -> records with .id .org .dim .direction .kind
    .bound .rule .derived .cites [(source_id, span_or_None)];
    w.effective_stake(holder, subject) -> Fraction; w.is_lab_investor(id);
    w.is_lab_owner(id).
"""

from fractions import Fraction
from pathlib import Path

import pytest

from provlog import World

WORLDS = Path(__file__).resolve().parent / "worlds" / "structure"
DIMS = "FGPASRMX"


def _load(name):
    return World.load(WORLDS / name)


@pytest.fixture(scope="module")
def f1():
    return _load("f1_g6_ownership.facts")


@pytest.fixture(scope="module")
def f2():
    return _load("f2_inkind.facts")


@pytest.fixture(scope="module")
def f3():
    return _load("f3_fees.facts")


@pytest.fixture(scope="module")
def f4():
    return _load("f4_investors.facts")


@pytest.fixture(scope="module")
def f4b():
    return _load("f4b_owners.facts")


@pytest.fixture(scope="module")
def f5():
    return _load("f5_revenue.facts")


@pytest.fixture(scope="module")
def f6():
    return _load("f6_pooled.facts")


@pytest.fixture(scope="module")
def f7():
    return _load("f7_donations.facts")


@pytest.fixture(scope="module")
def g3():
    return _load("g3.facts")


@pytest.fixture(scope="module")
def pw():
    return _load("p1_p2_p4.facts")


@pytest.fixture(scope="module")
def xw():
    return _load("x_sells.facts")


@pytest.fixture(scope="module")
def cy():
    return _load("cycles.facts")


# ---------------------------------------------------------------- helpers

def derived(w, org, rule):
    return [s for s in w.signals(org) if s.derived and s.rule == rule]


def only(w, org, rule):
    sigs = derived(w, org, rule)
    assert len(sigs) == 1, [s.id for s in sigs]
    return sigs[0]


def sources(sig):
    return {c[0] for c in sig.cites}


def pairs(sig):
    return {(c[0], c[1]) for c in sig.cites}


def value(w, org, dim, policy="standard"):
    return w.value(org, dim, policy=policy)


def assert_value(w, org, dim, val, signal, rule, policy="standard"):
    v = value(w, org, dim, policy)
    assert v.value == val
    assert v.signal == signal
    assert v.rule == rule
    assert not v.conflict


def assert_unevidenced(w, org, dim, policy="standard"):
    v = value(w, org, dim, policy)
    assert v.value is None
    assert v.signal is None
    assert not v.conflict


# ------------------------------------------------------- F.1 / G.6 ownership

def test_f1_direct_lab_stake_20(f1):
    # A lab holding exactly 20%: F.1 cap 0, G.6 cap 0, cited with the span.
    assert f1.effective_stake("f1_acme", "f1_o1") == Fraction(1, 5)
    assert_value(f1, "f1_o1", "F", 0, "F.1/f1_o1/1", "F.1")
    assert_value(f1, "f1_o1", "G", 0, "G.6/f1_o1/1", "G.6")
    s = only(f1, "f1_o1", "F.1")
    assert s.id == "F.1/f1_o1/1"
    assert s.org == "f1_o1"
    assert s.dim == "F"
    assert s.direction == "against"
    assert s.kind == "cap"
    assert s.bound == 0
    assert s.derived is True
    assert pairs(s) == {("f1_s1", "Acme AI Inc. holds 20% of the issued shares")}
    g = only(f1, "f1_o1", "G.6")
    assert g.id == "G.6/f1_o1/1"
    assert g.dim == "G" and g.bound == 0 and g.direction == "against"
    assert pairs(g) == {("f1_s1", "Acme AI Inc. holds 20% of the issued shares")}
    # F.4 also fires on the same stake (>= 5%), cap 1.
    f4sig = only(f1, "f1_o1", "F.4")
    assert f4sig.bound == 1
    assert sources(f4sig) == {"f1_s1"}


def test_f1_near_miss_19_99(f1):
    assert f1.effective_stake("f1_acme", "f1_o2") == Fraction(1999, 10000)
    assert derived(f1, "f1_o2", "F.1") == []
    assert derived(f1, "f1_o2", "G.6") == []
    assert_value(f1, "f1_o2", "F", 1, "F.4/f1_o2/1", "F.4")
    assert_unevidenced(f1, "f1_o2", "G")


def test_f1_two_link_chain_exact_fifth(f1):
    assert f1.effective_stake("f1_acme", "f1_h3") == Fraction(1, 2)
    assert f1.effective_stake("f1_h3", "f1_o3") == Fraction(2, 5)
    assert f1.effective_stake("f1_acme", "f1_o3") == Fraction(1, 5)
    assert_value(f1, "f1_o3", "F", 0, "F.1/f1_o3/1", "F.1")
    assert_value(f1, "f1_o3", "G", 0, "G.6/f1_o3/1", "G.6")
    s = only(f1, "f1_o3", "F.1")  # one holder only: the intermediate is no lab investor
    assert pairs(s) == {
        ("f1_s3a", "Acme AI Inc. holds 50% of Holdco Three"),
        ("f1_s3b", "Holdco Three holds 40% of the issued shares"),
    }
    assert sources(only(f1, "f1_o3", "G.6")) == {"f1_s3a", "f1_s3b"}
    assert f1.is_lab_investor("f1_h3") is False


def test_f1_paths_add_and_all_proofs_cited(f1):
    # 10% direct + 50% x 20% = 20%; fd4 is a lab investor by a stake AND an invest.
    assert f1.effective_stake("f1_fd4", "f1_o4") == Fraction(1, 5)
    assert f1.is_lab_investor("f1_fd4") is True
    assert_value(f1, "f1_o4", "F", 0, "F.1/f1_o4/1", "F.1")
    assert_value(f1, "f1_o4", "G", 0, "G.6/f1_o4/1", "G.6")
    s = only(f1, "f1_o4", "F.1")
    assert sources(s) == {"f1_s4a", "f1_s4b", "f1_s4e", "f1_s4c", "f1_s4d"}
    assert ("f1_s4c", "Fund Four holds 2% of Beta Labs") in pairs(s)
    assert ("f1_s4d", None) in pairs(s)  # the invest carries no span
    assert sources(only(f1, "f1_o4", "G.6")) == sources(s)


def test_f1_paths_add_near_miss(f1):
    # 10% + 50% x 19.98% = 19.99% < 20%: F.4 only.
    assert f1.effective_stake("f1_fd5", "f1_o5") == Fraction(1999, 10000)
    assert derived(f1, "f1_o5", "F.1") == []
    assert derived(f1, "f1_o5", "G.6") == []
    assert_value(f1, "f1_o5", "F", 1, "F.4/f1_o5/1", "F.4")
    assert sources(only(f1, "f1_o5", "F.4")) == {"f1_s5a", "f1_s5b", "f1_s5d", "f1_s5c"}
    assert_unevidenced(f1, "f1_o5", "G")


def test_f1_lab_investor_by_any_stake(f1):
    assert f1.is_lab_investor("f1_fd6") is True
    assert f1.is_lab_owner("f1_fd6") is False  # 0.5% of a lab
    s = only(f1, "f1_o6", "F.1")
    assert pairs(s) == {
        ("f1_s6a", "Fund Six holds 20% of the shares"),
        ("f1_s6b", "Fund Six holds 0.5% of Beta Labs"),
    }
    assert_value(f1, "f1_o6", "F", 0, "F.1/f1_o6/1", "F.1")


def test_f1_person_lab_investor(f1):
    assert f1.is_lab_investor("f1_angel7") is True
    assert sources(only(f1, "f1_o7", "F.1")) == {"f1_s7a", "f1_s7b"}
    assert_value(f1, "f1_o7", "G", 0, "G.6/f1_o7/1", "G.6")


def test_f1_look_through_lab_investor(f1):
    assert f1.effective_stake("f1_par8", "f1_fd8") == Fraction(1, 2)
    assert f1.is_lab_investor("f1_fd8") is True
    assert f1.is_lab_investor("f1_par8") is True
    s = only(f1, "f1_o8", "F.1")
    assert sources(s) == {"f1_s8a", "f1_s8b", "f1_s8c"}
    assert sources(only(f1, "f1_o8", "G.6")) == {"f1_s8a", "f1_s8b", "f1_s8c"}
    assert_value(f1, "f1_o8", "F", 0, "F.1/f1_o8/1", "F.1")


def test_f1_look_through_near_miss(f1):
    assert f1.effective_stake("f1_par9", "f1_fd9") == Fraction(4999, 10000)
    assert f1.is_lab_investor("f1_fd9") is True
    assert f1.is_lab_investor("f1_par9") is False
    assert f1.effective_stake("f1_par9", "f1_o9") == Fraction(1, 5)
    assert derived(f1, "f1_o9", "F.1") == []
    assert derived(f1, "f1_o9", "F.4") == []
    assert_unevidenced(f1, "f1_o9", "F")
    assert_unevidenced(f1, "f1_o9", "G")


def test_unit_of_lab(f1):
    span = "The Safety Team is a division of Acme AI"
    assert pairs(only(f1, "f1_o10", "F.1")) == {("f1_s10", span)}
    assert pairs(only(f1, "f1_o10", "G.6")) == {("f1_s10", span)}
    assert_value(f1, "f1_o10", "F", 0, "F.1/f1_o10/1", "F.1")
    assert_value(f1, "f1_o10", "G", 0, "G.6/f1_o10/1", "G.6")


def test_unit_without_span_held_at_1(f1):
    s = only(f1, "f1_o11", "F.1")
    assert pairs(s) == {("f1_s11", None)}
    assert_value(f1, "f1_o11", "F", 1, "F.1/f1_o11/1", "F.1")
    assert_value(f1, "f1_o11", "G", 1, "G.6/f1_o11/1", "G.6")


def test_stake_without_span_held_at_1_tie_to_smaller_id(f1):
    # F.1 held at 1 ties with F.4 cap 1; "F.1/..." < "F.4/...".
    assert pairs(only(f1, "f1_o12", "F.1")) == {("f1_s12", None)}
    assert_value(f1, "f1_o12", "F", 1, "F.1/f1_o12/1", "F.1")
    assert_value(f1, "f1_o12", "G", 1, "G.6/f1_o12/1", "G.6")


def test_unaudited_lab_investor_fact_makes_class_partial(f1):
    assert f1.is_lab_investor("f1_fd13") is True
    s = only(f1, "f1_o13", "F.1")
    assert sources(s) == {"f1_s13a", "f1_s13b"}
    assert_value(f1, "f1_o13", "F", 1, "F.1/f1_o13/1", "F.1")
    assert_value(f1, "f1_o13", "G", 1, "G.6/f1_o13/1", "G.6")


def test_imported_only_stake(f1):
    assert_unevidenced(f1, "f1_o14", "F")
    assert_unevidenced(f1, "f1_o14", "G")
    assert_value(f1, "f1_o14", "F", 2, "F.1/f1_o14/1", "F.1", policy="leads-included")
    assert_value(f1, "f1_o14", "G", 2, "G.6/f1_o14/1", "G.6", policy="leads-included")


def test_chain_length_limit(f1):
    assert f1.effective_stake("f1_acme", "f1_o15") == Fraction(1)
    assert f1.effective_stake("f1_acme", "f1_o16") == Fraction(0)
    assert sources(only(f1, "f1_o15", "F.1")) == {"f1_s15"}
    assert_value(f1, "f1_o15", "F", 0, "F.1/f1_o15/1", "F.1")
    assert derived(f1, "f1_o16", "F.1") == []
    assert derived(f1, "f1_o16", "F.4") == []
    assert_unevidenced(f1, "f1_o16", "F")
    assert f1.is_lab_investor("f1_k1") is False
    assert f1.is_lab_investor("f1_m6") is False


def test_effective_stake_capped_at_100(f1):
    assert f1.effective_stake("f1_acme", "f1_q1") == Fraction(4, 5)
    assert f1.effective_stake("f1_acme", "f1_o17") == Fraction(1)
    assert_value(f1, "f1_o17", "F", 0, "F.1/f1_o17/1", "F.1")


def test_admission_against_interest_own_page(f1):
    s = only(f1, "f1_o18", "F.1")
    assert pairs(s) == {("f1_s18", "Acme AI owns a quarter of our company")}
    assert_value(f1, "f1_o18", "F", 0, "F.1/f1_o18/1", "F.1")
    assert_value(f1, "f1_o18", "G", 0, "G.6/f1_o18/1", "G.6")


def test_stake_ranges_use_lower_bound(f1):
    assert f1.effective_stake("f1_acme", "f1_o19") == Fraction(3, 20)
    assert f1.effective_stake("f1_acme", "f1_o20") == Fraction(1, 5)
    assert_value(f1, "f1_o19", "F", 1, "F.4/f1_o19/1", "F.4")
    assert_value(f1, "f1_o20", "F", 0, "F.1/f1_o20/1", "F.1")


def test_labs_and_unrelated_nodes_are_not_lab_investors(f1):
    # Fine print: lab investors are entities and persons.
    assert f1.is_lab_investor("f1_acme") is False
    assert f1.is_lab_investor("f1_h4") is False
    assert f1.is_lab_owner("f1_fd4") is False
    assert f1.effective_stake("f1_acme", "f1_o9") == Fraction(0)


# ------------------------------------------------------------------- F.2

def test_f2_inkind(f2):
    s = only(f2, "f2_o1", "F.2")
    assert s.bound == 2
    assert pairs(s) == {("f2_s1", "general operating compute donated by Acme AI")}
    assert_value(f2, "f2_o1", "F", 2, "F.2/f2_o1/1", "F.2")
    assert derived(f2, "f2_o2", "F.2") == []
    assert_unevidenced(f2, "f2_o2", "F")
    s3 = only(f2, "f2_o3", "F.2")
    assert s3.bound == 3
    assert sources(s3) == {"f2_s3"}
    assert_value(f2, "f2_o3", "F", 3, "F.2/f2_o3/1", "F.2")
    for org in ("f2_o4", "f2_o5", "f2_o7", "f2_o8"):
        assert derived(f2, org, "F.2") == [], org
        assert_unevidenced(f2, org, "F")
    assert value(f2, "f2_o6", "F").value == 2
    assert value(f2, "f2_o9", "F").value == 2


# ------------------------------------------------------------------- F.3

def test_f3_fee_cap_2(f3):
    s = only(f3, "f3_o1", "F.3")
    assert s.bound == 2
    assert pairs(s) == {("f3_s1", "evaluation services for Acme AI")}
    assert_value(f3, "f3_o1", "F", 2, "F.3/f3_o1/1", "F.3")


def test_f3_three_policies_cap_3_cites_policies(f3):
    s = only(f3, "f3_o2", "F.3")
    assert s.bound == 3
    assert sources(s) == {"f3_s2a", "f3_s2b", "f3_s2c", "f3_s2d"}
    assert ("f3_s2b", "no more than 10% of annual revenue from labs") in pairs(s)
    assert_value(f3, "f3_o2", "F", 3, "F.3/f3_o2/1", "F.3")


def test_f3_policy_near_misses(f3):
    assert only(f3, "f3_o3", "F.3").bound == 2  # value=12%
    assert only(f3, "f3_o4", "F.3").bound == 2  # publication-rights missing
    assert_value(f3, "f3_o3", "F", 2, "F.3/f3_o3/1", "F.3")
    assert_value(f3, "f3_o4", "F", 2, "F.3/f3_o4/1", "F.3")


def test_f3_fee_from_lab_investor_is_not_f3(f3):
    assert f3.is_lab_investor("f3_fd") is True
    assert derived(f3, "f3_o5", "F.3") == []
    assert_unevidenced(f3, "f3_o5", "F")
    assert derived(f3, "f3_o7", "F.3") == []
    assert_unevidenced(f3, "f3_o7", "F")


def test_f3_recorded_signal_wins_tie(f3):
    sigs = {s.id: s for s in f3.signals("f3_o6")}
    assert sigs["f3_rec6"].derived is False
    assert sigs["F.3/f3_o6/1"].derived is True
    assert_value(f3, "f3_o6", "F", 2, "f3_rec6", "F.10")


# ------------------------------------------------------------------- F.4

def test_f4_status(f4):
    assert f4.is_lab_investor("f4_fd") is True
    assert f4.is_lab_investor("f4_plain") is False
    assert f4.is_lab_investor("f4_acme") is False
    assert f4.is_lab_investor("f4_h8") is False


def test_f4_led_priced(f4):
    assert sources(only(f4, "f4_o1", "F.4")) == {"f4_s1", "f4_sli"}
    assert sources(only(f4, "f4_o1", "G.3")) == {"f4_s1", "f4_sli"}
    assert_value(f4, "f4_o1", "F", 1, "F.4/f4_o1/1", "F.4")
    assert_value(f4, "f4_o1", "G", 2, "G.3/f4_o1/1", "G.3")


def test_f4_coled_unpriced_and_priced_unled(f4):
    assert derived(f4, "f4_o2", "F.4") == []
    assert_unevidenced(f4, "f4_o2", "F")
    assert_value(f4, "f4_o2", "G", 2, "G.3/f4_o2/1", "G.3")
    assert_value(f4, "f4_o3", "F", 1, "F.4/f4_o3/1", "F.4")
    assert derived(f4, "f4_o4", "F.4") == []
    assert_value(f4, "f4_o4", "G", 2, "G.3/f4_o4/1", "G.3")


def test_f4_stake_threshold(f4):
    assert f4.effective_stake("f4_fd", "f4_o5") == Fraction(1, 20)
    assert sources(only(f4, "f4_o5", "F.4")) == {"f4_s5", "f4_sli"}
    assert_value(f4, "f4_o5", "F", 1, "F.4/f4_o5/1", "F.4")
    assert f4.effective_stake("f4_fd", "f4_o6") == Fraction(499, 10000)
    assert derived(f4, "f4_o6", "F.4") == []
    assert_unevidenced(f4, "f4_o6", "F")


def test_f4_by_lab_not_g3(f4):
    assert sources(only(f4, "f4_o7", "F.4")) == {"f4_s7"}
    assert derived(f4, "f4_o7", "G.3") == []
    assert_unevidenced(f4, "f4_o7", "G")


def test_f4_chained_stake(f4):
    assert f4.effective_stake("f4_fd", "f4_o8") == Fraction(1, 20)
    assert sources(only(f4, "f4_o8", "F.4")) == {"f4_s8a", "f4_s8b", "f4_sli"}
    assert f4.effective_stake("f4_fd", "f4_o12") == Fraction(499, 10000)
    assert derived(f4, "f4_o12", "F.4") == []


def test_f4_one_signal_per_holder(f4):
    s = only(f4, "f4_o9", "F.4")  # invest and stake: still one signal
    assert sources(s) == {"f4_s9a", "f4_s9b", "f4_sli"}
    assert_value(f4, "f4_o9", "F", 1, "F.4/f4_o9/1", "F.4")


def test_f4_non_lab_investor(f4):
    assert derived(f4, "f4_o10", "F.4") == []
    assert derived(f4, "f4_o10", "G.3") == []
    assert_unevidenced(f4, "f4_o10", "F")


# ------------------------------------------------------------------- F.4b

def test_f4b_owner_status(f4b):
    assert f4b.is_lab_owner("f4b_fdn") is True
    assert f4b.is_lab_investor("f4b_fdn") is True
    assert f4b.is_lab_owner("f4b_inv5") is False
    assert f4b.is_lab_investor("f4b_inv5") is True
    assert f4b.effective_stake("f4b_par4", "f4b_acme") == Fraction(1, 5)
    assert f4b.is_lab_owner("f4b_par4") is True
    assert f4b.is_lab_owner("f4b_hold4") is True
    assert f4b.is_lab_owner("f4b_pat") is True


def test_f4b_grant_cites_money_and_ownership(f4b):
    s = only(f4b, "f4b_o1", "F.4b")
    assert pairs(s) == {
        ("f4b_s1", "grant from the Acme Foundation"),
        ("f4b_sown", "The Acme Foundation holds 25% of Acme AI"),
    }
    assert s.bound == 1
    assert_value(f4b, "f4b_o1", "F", 1, "F.4b/f4b_o1/1", "F.4b")


def test_f4b_chain_owner(f4b):
    assert sources(only(f4b, "f4b_o4", "F.4b")) == {"f4b_s4a", "f4b_s4b", "f4b_s4c"}
    assert_value(f4b, "f4b_o4", "F", 1, "F.4b/f4b_o4/1", "F.4b")


def test_f4b_near_misses(f4b):
    for org in ("f4b_o2", "f4b_o5", "f4b_o7"):
        assert derived(f4b, org, "F.4b") == [], org
        assert_unevidenced(f4b, org, "F")
    assert_value(f4b, "f4b_o3", "F", 1, "F.4b/f4b_o3/1", "F.4b")
    assert sources(only(f4b, "f4b_o6", "F.4b")) == {"f4b_s6a", "f4b_s6b"}


# ------------------------------------------------------------------- F.5

def test_f5_sum_in_one_year(f5):
    s = only(f5, "f5_o1", "F.5")
    assert s.bound == 1
    assert sources(s) == {"f5_s1a", "f5_s1b"}
    assert_value(f5, "f5_o1", "F", 1, "F.5/f5_o1/1", "F.5")
    assert sources(only(f5, "f5_o11", "F.5")) == {"f5_s11a", "f5_s11b"}


def test_f5_near_misses(f5):
    for org in ("f5_o2", "f5_o4", "f5_o7", "f5_o8", "f5_o9"):
        assert derived(f5, org, "F.5") == [], org
        assert_unevidenced(f5, org, "F")


def test_f5_fees_below_half_fall_to_f3(f5):
    assert derived(f5, "f5_o3", "F.5") == []
    assert len(derived(f5, "f5_o3", "F.3")) == 2
    # two equal F.3 caps: the smaller id decides, whatever the numbering order
    assert_value(f5, "f5_o3", "F", 2, "F.3/f5_o3/1", "F.3")


def test_f5_mixed_and_undated(f5):
    assert_value(f5, "f5_o5", "F", 1, "F.5/f5_o5/1", "F.5")
    assert_value(f5, "f5_o6", "F", 1, "F.5/f5_o6/1", "F.5")
    assert_value(f5, "f5_o10", "F", 1, "F.5/f5_o10/1", "F.5")


# ------------------------------------------------------------------- F.6

def test_f6_pooled_cites_entity_statement(f6):
    s = only(f6, "f6_o1", "F.6")
    assert s.bound == 3
    assert sources(s) == {"f6_s1a", "f6_s1b"}
    assert_value(f6, "f6_o1", "F", 3, "F.6/f6_o1/1", "F.6")
    assert_value(f6, "f6_o3", "F", 3, "F.6/f6_o3/1", "F.6")


def test_f6_principal_lab_investor(f6):
    assert f6.is_lab_investor("f6_pat5") is True
    assert f6.is_lab_investor("f6_fund5") is False
    assert sources(only(f6, "f6_o5", "F.6")) == {"f6_s5a", "f6_s5b", "f6_s5c"}
    assert_value(f6, "f6_o5", "F", 3, "F.6/f6_o5/1", "F.6")


def test_f6_principal_lab_owner_is_f6_not_f4b(f6):
    assert f6.is_lab_owner("f6_pat8") is True
    assert f6.is_lab_owner("f6_fdn8") is False
    assert derived(f6, "f6_o8", "F.4b") == []
    assert sources(only(f6, "f6_o8", "F.6")) == {"f6_s8a", "f6_s8b"}


def test_f6_near_misses(f6):
    assert f6.is_lab_investor("f6_pat6") is False
    for org in ("f6_o2", "f6_o4", "f6_o6", "f6_o7"):
        assert derived(f6, org, "F.6") == [], org
        assert_unevidenced(f6, org, "F")
    assert_value(f6, "f6_o9", "F", 2, "F.3/f6_o9/1", "F.3")


# ------------------------------------------------------------------- F.7

def test_f7_donations(f7):
    s1 = only(f7, "f7_o1", "F.7")
    assert s1.bound == 3
    assert pairs(s1) == {("f7_s1", None), ("f7_sann", "Ann is a research engineer at Acme AI")}
    assert_value(f7, "f7_o1", "F", 3, "F.7/f7_o1/1", "F.7")
    assert only(f7, "f7_o2", "F.7").bound == 2
    assert_value(f7, "f7_o2", "F", 2, "F.7/f7_o2/1", "F.7")
    for org in ("f7_o3", "f7_o4", "f7_o5"):
        assert derived(f7, org, "F.7") == [], org
        assert_unevidenced(f7, org, "F")
    assert value(f7, "f7_o6", "F").value == 2


# ------------------------------------------------------------------- G.3

def test_g3(g3):
    assert sources(only(g3, "g3_o1", "G.3")) == {"g3_s1a", "g3_s1b"}
    assert_value(g3, "g3_o1", "G", 2, "G.3/g3_o1/1", "G.3")
    assert derived(g3, "g3_o2", "G.3") == []
    assert derived(g3, "g3_o3", "G.3") == []
    assert g3.is_lab_investor("g3_par4") is True
    assert g3.is_lab_investor("g3_plain") is False
    assert sources(only(g3, "g3_o4", "G.3")) == {"g3_s4a", "g3_s4b", "g3_s4c"}
    assert_value(g3, "g3_o5", "G", 0, "G.6/g3_o5/1", "G.6")
    assert g3.is_lab_investor("g3_angel") is True
    assert_value(g3, "g3_o6", "G", 2, "G.3/g3_o6/1", "G.3")
    assert derived(g3, "g3_o8", "G.3") == []
    assert_value(g3, "g3_o8", "F", 1, "F.4/g3_o8/1", "F.4")


# ------------------------------------------------------------- P.1 P.2 P.4

def test_p1_no_recusal_cap_0(pw):
    s = only(pw, "p_o1", "P.1")
    assert s.dim == "P" and s.bound == 0 and s.direction == "against"
    assert pairs(s) == {
        ("p_s1a", "Al One, director"),
        ("p_s1b", "Al One, member of the board of directors"),
    }
    assert_value(pw, "p_o1", "P", 0, "P.1/p_o1/1", "P.1")


def test_p1_recusal_on_either_role(pw):
    assert only(pw, "p_o2", "P.1").bound == 1
    assert only(pw, "p_o3", "P.1").bound == 1
    assert_value(pw, "p_o2", "P", 1, "P.1/p_o2/1", "P.1")
    assert_value(pw, "p_o3", "P", 1, "P.1/p_o3/1", "P.1")


def test_p1_extremes_and_class(pw):
    # no span anywhere: held at 1 (C15)
    assert pairs(only(pw, "p_o4", "P.1")) == {("p_s4", None)}
    assert_value(pw, "p_o4", "P", 1, "P.1/p_o4/1", "P.1")
    # one cited span from a confirmed source suffices
    assert pairs(only(pw, "p_o5", "P.1")) == {("p_s5a", "Ed Five, director"), ("p_s5b", None)}
    assert_value(pw, "p_o5", "P", 0, "P.1/p_o5/1", "P.1")
    # an unaudited source in the proof: partial, 1
    assert sources(only(pw, "p_o6", "P.1")) == {"p_s6a", "p_s6b"}
    assert_value(pw, "p_o6", "P", 1, "P.1/p_o6/1", "P.1")


def test_p2_and_near_misses(pw):
    assert_value(pw, "p_o8", "P", 1, "P.2/p_o8/1", "P.2")
    for org in ("p_o7", "p_o9", "p_o12"):
        assert [s for s in pw.signals(org) if s.derived] == [], org
        assert_unevidenced(pw, org, "P")


def test_p4_cites_lab_investor_fact(pw):
    assert pw.is_lab_investor("p_fund") is True
    assert pw.is_lab_investor("p_plain") is False
    s = only(pw, "p_o10", "P.4")
    assert s.bound == 2
    assert sources(s) == {"p_s10a", "p_s10b", "p_sli"}
    assert_value(pw, "p_o10", "P", 2, "P.4/p_o10/1", "P.4")
    assert_value(pw, "p_o11", "P", 2, "P.4/p_o11/1", "P.4")
    assert_value(pw, "p_o13", "P", 2, "P.4/p_o13/1", "P.4")


def test_p1_p2_tie(pw):
    assert only(pw, "p_o14", "P.2").bound == 1
    assert_value(pw, "p_o14", "P", 1, "P.1/p_o14/1", "P.1")


# ------------------------------------------------------------------- X

def test_x_sells(xw):
    s = only(xw, "x_o1", "X.1")
    assert s.dim == "X" and s.bound == 0
    assert pairs(s) == {("x_s1", "Acme AI licenses Guard One's guardrail filters")}
    assert_value(xw, "x_o1", "X", 0, "X.1/x_o1/1", "X.1")
    assert_value(xw, "x_o2", "X", 1, "X.1/x_o2/1", "X.1")
    assert sources(only(xw, "x_o3", "X.1")) == {"x_s3a", "x_s3b"}
    assert_value(xw, "x_o3", "X", 1, "X.1/x_o3/1", "X.1")
    assert_value(xw, "x_o4", "X", 1, "X.2/x_o4/1", "X.2")
    assert_value(xw, "x_o6", "X", 2, "X.3/x_o6/1", "X.3")
    assert_value(xw, "x_o9", "X", 0, "X.1/x_o9/1", "X.1")
    assert_value(xw, "x_o10", "X", 0, "X.1/x_o10/1", "X.1")
    assert_value(xw, "x_o13", "X", 1, "X.2/x_o13/1", "X.2")
    assert_value(xw, "x_o8", "X", 2, "X.1/x_o8/1", "X.1")  # guardrails to a bank: X.1's unspecified parties
    assert_value(xw, "x_o14", "X", 2, "X.1/x_o14/1", "X.1")  # ... and to a lab investor


def test_x_free_tool_is_no_sale_but_an_x4_floor(xw):
    # "Labs using a free tool are not customers": no X.1-X.3 cap; "Free or open tools used by labs: 3" (X.4).
    [s] = [s for s in xw.signals("x_o7") if s.derived and s.dim == "X"]
    assert (s.rule, s.direction, s.kind, s.bound) == ("X.4", "for", "floor", 3)
    assert_value(xw, "x_o7", "X", 3, "X.4/x_o7/1", "X.4")


def test_x_policies(xw):
    assert_unevidenced(xw, "x_o11", "X")
    assert_value(xw, "x_o11", "X", 1, "X.1/x_o11/1", "X.1", policy="leads-included")
    assert_unevidenced(xw, "x_o12", "X")
    assert_value(xw, "x_o12", "X", 2, "X.2/x_o12/1", "X.2", policy="leads-included")


# ------------------------------------------------------------------ cycles

TWINS = [
    ("cy_o1", "cy_o2"),
    ("cy_o3", "cy_o4"),
    ("cy_o5", "cy_o6"),
    ("cy_o7", "cy_o8"),
    ("cy_o9", "cy_o10"),
    ("cy_o12", "cy_o13"),
    ("cy_o14", "cy_o15"),
    ("cy_o16", "cy_o17"),
]


def _shape(w, org):
    return sorted(
        (s.rule, s.dim, s.kind, s.bound) for s in w.signals(org) if s.derived
    )


@pytest.mark.parametrize("cyc,twin", TWINS)
def test_cycle_edge_changes_nothing(cy, cyc, twin):
    assert _shape(cy, cyc) == _shape(cy, twin)
    for dim in DIMS:
        a, b = value(cy, cyc, dim), value(cy, twin, dim)
        assert (a.value, a.rule, a.conflict) == (b.value, b.rule, b.conflict), dim


def test_cross_holding_chain(cy):
    assert cy.effective_stake("cy_fd1", "cy_o1") == Fraction(1, 5)
    assert cy.effective_stake("cy_fd2", "cy_o2") == Fraction(1, 5)
    # the cycle edge o1 -> h1 lies on no simple chain: not cited
    assert sources(only(cy, "cy_o1", "F.1")) == {"cy_s1a", "cy_s1b", "cy_s1c"}
    assert sources(only(cy, "cy_o2", "F.1")) == {"cy_s2a", "cy_s2b", "cy_s2c"}
    assert_value(cy, "cy_o1", "F", 0, "F.1/cy_o1/1", "F.1")


def test_direct_cross_holding(cy):
    assert cy.effective_stake("cy_fd3", "cy_o3") == Fraction(1, 4)
    assert sources(only(cy, "cy_o3", "F.1")) == {"cy_s3a", "cy_s3b"}
    assert cy.is_lab_investor("cy_o3") is False


def test_mutual_holding_without_lab(cy):
    for node in ("cy_x5", "cy_y5", "cy_x6", "cy_y6"):
        assert cy.is_lab_investor(node) is False, node
    assert cy.effective_stake("cy_x5", "cy_o5") == Fraction(1, 4)
    assert cy.effective_stake("cy_x5", "cy_y5") == Fraction(3, 5)
    assert_unevidenced(cy, "cy_o5", "F")


def test_look_through_in_a_circle(cy):
    assert cy.is_lab_investor("cy_w7") is True
    assert cy.is_lab_investor("cy_z7") is True
    assert cy.effective_stake("cy_w7", "cy_o7") == Fraction(1, 25)
    assert sources(only(cy, "cy_o7", "F.1")) == {"cy_s7a", "cy_s7b", "cy_s7c"}
    assert sources(only(cy, "cy_o8", "F.1")) == {"cy_s8a", "cy_s8b", "cy_s8c"}
    only(cy, "cy_o7", "F.4")  # z7 only; w7's 4% is below 5%


def test_principal_who_funds_himself(cy):
    assert cy.is_lab_investor("cy_pat") is True
    assert cy.is_lab_investor("cy_fam") is False
    assert sources(only(cy, "cy_o14", "F.6")) == {"cy_s14a", "cy_s14b", "cy_s14c"}
    assert sources(only(cy, "cy_o15", "F.6")) == {"cy_s15a", "cy_s15b", "cy_s15c"}
    assert_value(cy, "cy_o14", "F", 3, "F.6/cy_o14/1", "F.6")


# ----------------------------------------------------------- holding circles (issue 19)

@pytest.fixture(scope="module")
def ci():
    return _load("circles.facts")


def test_circle_every_member_is_a_lab_investor(ci):
    for node in ("ci_a", "ci_b", "ci_c", "ci_d"):
        assert ci.is_lab_investor(node) is True, node
    # two simple chains b -> d: 10% + 60% x 60%; under 50%, so no look-through b -> d
    assert ci.effective_stake("ci_b", "ci_d") == Fraction(23, 50)


def test_circle_cites_every_turn_of_the_ring_once(ci):
    ring = {"ci_so1", "ci_sab", "ci_sbc", "ci_scd", "ci_sda", "ci_sd"}  # not the chord ci_sbd
    assert sources(only(ci, "ci_o1", "F.1")) == ring
    assert sources(only(ci, "ci_o1", "G.6")) == ring
    assert_value(ci, "ci_o1", "F", 0, "F.1/ci_o1/1", "F.1")
    assert_value(ci, "ci_o1", "G", 0, "G.6/ci_o1/1", "G.6")


def test_circle_chained_stakes_make_four_f4(ci):
    assert ci.effective_stake("ci_a", "ci_o1") == Fraction(3, 20)
    assert ci.effective_stake("ci_d", "ci_o1") == Fraction(9, 100)
    assert ci.effective_stake("ci_c", "ci_o1") == Fraction(27, 500)
    f4 = {s.id: s for s in derived(ci, "ci_o1", "F.4")}
    assert len(f4) == 4
    # a's (numbered first by holder): its chain a -> b -> o1 and its proof a -> b -> c -> d; the link
    # d -> a would take a seventh look-through step (docs/readings.md)
    assert sources(f4["F.4/ci_o1/1"]) == {"ci_sab", "ci_so1", "ci_sbc", "ci_scd", "ci_sd"}


def test_circle_near_miss_one_link_under_half(ci):
    assert ci.is_lab_investor("ci_h") is True
    assert ci.is_lab_investor("ci_g") is True
    assert ci.is_lab_investor("ci_f") is False
    assert ci.is_lab_investor("ci_e") is False
    assert ci.effective_stake("ci_f", "ci_g") == Fraction(4999, 10000)
    assert derived(ci, "ci_o2", "F.1") == [] and derived(ci, "ci_o2", "G.6") == []
    assert len(derived(ci, "ci_o2", "F.4")) == 2  # g 5.4% and h 9%, through f
    assert_value(ci, "ci_o2", "F", 1, "F.4/ci_o2/1", "F.4")
    assert_unevidenced(ci, "ci_o2", "G")


def test_circle_broken_ring_cites_only_the_walk_that_proves(ci):
    assert sources(only(ci, "ci_o3", "F.1")) == {"ci_so3", "ci_sgh", "ci_sh"}
    assert ci.effective_stake("ci_h", "ci_o3") == Fraction(44991, 1000000)
    only(ci, "ci_o3", "F.4")  # g's; h's 4.4991% is under 5%
    assert_value(ci, "ci_o3", "F", 0, "F.1/ci_o3/1", "F.1")
