"""The pytest plugin collects worlds as `provlog test` reads them (issue 15): a file
that loads alone is its own world; a folder whose files only load together is one
world; a folder of files that each stand alone stays a set of worlds; a world that
does not load is one failing item. One pytest run over five folders (a run costs
seconds), each folder one case."""
from __future__ import annotations

from collections import defaultdict

pytest_plugins = ["pytester"]

ORGS = 'org evalco "Eval Co" type=nonprofit\norg other "Other" type=academic\n'
EXPECTS = "expect evalco F = -\nexpect hop evalco = none\n"

CASES = {
    # orgs.facts declares what expect.facts names; neither includes the other; a subfolder belongs too
    "together": ({"orgs.facts": ORGS, "expect.facts": EXPECTS, "sub/more.facts": "expect other G = -\n"},
                 {"passed": 3}),
    # two fixtures that declare the same orgs: each loads alone, together they would not
    "apart": ({"a.facts": ORGS + "expect evalco F = -\n", "b.facts": ORGS + "expect other F = -\n"}, {"passed": 2}),
    # an included file is part of the world that includes it
    "included": ({"main.facts": 'include "orgs.facts"\n' + EXPECTS, "orgs.facts": ORGS}, {"passed": 2}),
    # the folder does not load whole either: each file fails with its own errors (one item each)
    "broken": ({"orgs.facts": ORGS + "stake evalco other 120%\n", "expect.facts": EXPECTS}, {"failed": 2}),
    # a folder world's expect that does not hold fails, the others pass
    "failing": ({"orgs.facts": ORGS, "expect.facts": "expect evalco F = 3\nexpect other F = -\n"},
                {"passed": 1, "failed": 1}),
}


def test_worlds_are_collected_by_the_folder_rules_of_provlog_test(pytester):
    for case, (files, _) in CASES.items():
        for name, text in files.items():
            path = pytester.path / case / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    rec = pytester.inline_run("-q", "-p", "no:cacheprovider")
    got = {case: defaultdict(int) for case in CASES}
    for rep in rec.getreports("pytest_runtest_logreport") + rec.getreports("pytest_collectreport"):
        if rep.when in ("call", None) or rep.failed:
            got[rep.nodeid.split("/")[0]][rep.outcome] += 1
    assert {case: dict(c) for case, c in got.items()} == {case: want for case, (_, want) in CASES.items()}
    text = "\n".join(str(r.longrepr) for r in rec.getreports("pytest_runtest_logreport") if r.failed)
    assert "E120" in text and "E110" in text  # the broken folder's files, each with its own error
