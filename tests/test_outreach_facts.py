"""Issue 41, item 1: the publication cycle's statements (RULES sections 11-12), each with its near miss.

`contact`, `reply-window` and `candidate` are typed and checked like every statement: each error is
located at its item (E180-E184) and a world with one loads nothing; the statement one step inside the
rule loads.
"""
from __future__ import annotations

import pytest

from provlog.facts import LoadError, load_text
from provlog.facts.outreach import DEFAULT_WINDOW, cited_within

BASE = ('org evalco "Eval Co" type=nonprofit\nperson ana "Ana Reyes"\nentity p "Publisher" kind=public\n'
        'source s1 "https://example.org/reply" publisher=p status=confirmed\n'
        'source card "https://example.org/card" publisher=p status=confirmed date=2025-03-10\n')


def codes(text: str):
    with pytest.raises(LoadError) as e:
        load_text(BASE + text)
    return [(d.code, d.line, d.col) for d in e.value.diagnostics]


def test_contact_reads_every_field():
    fs = load_text(BASE + "reply-window 21\ncontact evalco sent=2026-08-01 window=10 replied=2026-08-05 reply=s1 "
                          f"letter={'ab' * 32}\ncontact ana sent=2026-08-02\n")
    c, a = fs.of("contact")
    assert (c["subject"], c["sent"], c["window"], c["replied"], c["reply"]) == ("evalco", "2026-08-01", 10,
                                                                                 "2026-08-05", "s1")
    assert c["letter"] == "ab" * 32
    assert (a["subject"], a["window"], a["replied"]) == ("ana", None, None)  # the world's reply-window applies
    assert fs.of("reply-window")[0]["window"] == 21
    assert DEFAULT_WINDOW == 30


def test_a_reply_on_the_day_the_letter_went_loads_a_day_before_does_not():
    load_text(BASE + "contact evalco sent=2026-08-01 replied=2026-08-01 reply=s1\n")
    assert codes("contact evalco sent=2026-08-01 replied=2026-07-31 reply=s1\n") == [("E180", 6, 40)]


def test_a_reply_needs_its_source_and_a_source_its_date():
    assert codes("contact evalco sent=2026-08-01 replied=2026-08-03\n") == [("E181", 6, 40)]
    assert codes("contact evalco sent=2026-08-01 reply=s1\n") == [("E181", 6, 38)]


@pytest.mark.parametrize("days, ok", [(1, True), (365, True), (0, False), (366, False)])
def test_window_is_one_to_365_days(days, ok):
    text = f"contact evalco sent=2026-08-01 window={days}\n"
    if ok:
        assert load_text(BASE + text).of("contact")[0]["window"] == days
    else:
        assert codes(text) == [("E182", 6, 39)]
        assert codes(f"reply-window {days}\n") == [("E182", 6, 14)]


def test_a_contact_names_an_org_or_a_person_and_one_letter_a_day():
    assert [c for c, *_ in codes("contact p sent=2026-08-01\n")] == ["E111"]  # an entity gets no letter
    assert [c for c, *_ in codes("contact evalco sent=2026-08-01\ncontact evalco sent=2026-08-01\n")] == ["E112"]
    load_text(BASE + "contact evalco sent=2026-08-01\ncontact evalco sent=2026-09-01\n")  # a second letter later


def test_candidate_and_its_checks():
    fs = load_text(BASE + 'candidate c1 "Eval Co" criterion=system-card result=included checked=2026-08-01 '
                          'cited=card org=evalco note="named in the V-4 card"\n')
    c = fs.of("candidate")[0]
    assert (c["id"], c["criterion"], c["result"], c["checked"], c["cited"], c["org"]) == (
        "c1", "system-card", "included", "2026-08-01", "card", "evalco")
    # E183: the 24-month window counts from the cited source's date; near miss: a statute needs none
    assert codes('candidate c1 "Eval Co" criterion=system-card result=included checked=2026-08-01 cited=s1\n') == [
        ("E183", 6, 1)]
    load_text(BASE + 'candidate c1 "Eval Co" criterion=statute result=included checked=2026-08-01 cited=s1\n')
    # E184: out-of-scope is the org's status and the candidate's result at once
    assert codes('candidate c1 "Eval Co" criterion=statute result=out-of-scope checked=2026-08-01 cited=s1 '
                 'org=evalco\n') == [("E184", 6, 1)]
    load_text(BASE.replace("type=nonprofit", "type=nonprofit status=out-of-scope")
              + 'candidate c1 "Eval Co" criterion=benchmark result=out-of-scope checked=2026-08-01 cited=s1 org=evalco\n')
    assert [c for c, *_ in codes('candidate c1 "X" criterion=rumour result=included checked=2026-08-01 cited=s1\n')] == [
        "E104"]


def test_24_months_at_the_as_of_date():
    # RULES section 11: "in the last 24 months"; a citation is 24 months old on its anniversary
    assert cited_within("2024-09-02", "2026-09-01")
    assert not cited_within("2024-09-01", "2026-09-01")
    assert not cited_within("2026-09-02", "2026-09-01")  # a citation after the as-of date is not yet made
    assert cited_within("2026-09-01", "2026-09-01")
