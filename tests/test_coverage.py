"""docs/coverage.md, the RULES sentence by sentence, says what reads each sentence: this checks
that what it names exists (issue 25). Every clause id it says a rule reads has rules; every test it
names is a fixture world or a test file here; every sentence it calls open is an open reading in
docs/readings.md; and every clause of the RULES (F.1 to X.8) has a row."""
import re
from pathlib import Path

from provlog.logic.clauses import CLAUSES
from provlog.logic.program import RULES

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8")
READINGS = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8")
_ID = re.compile(r"`([A-Z0-9][A-Za-z0-9.]*|def)`")
STATUS = ("rule", "recorded", "checked", "open", "text", "`verify`", "`preset`", "`status=", "the card", "`9`")


def rows():
    """(item, sentence, read by, tested in) of every table row (no cell holds a `|`)."""
    cells = [[c.strip() for c in line.strip()[1:-1].split("|")] for line in PAGE.splitlines() if line.startswith("| ")]
    return [tuple(c) for c in cells if c[0] != "item" and len(c) == 4]


def test_every_row_says_what_reads_it():
    assert len(rows()) > 150
    for item, sentence, read_by, _ in rows():
        assert read_by.startswith(STATUS), (item, read_by)


def test_the_rules_it_names_exist():
    implemented = set(RULES.clauses())
    for item, sentence, read_by, _ in rows():
        for part in re.split(r"; ", read_by):
            if part.startswith("rule"):
                for clause in _ID.findall(part):
                    assert clause in implemented, (item, clause)


def test_the_tests_it_names_exist():
    for item, sentence, _, tests in rows():
        for name in filter(None, (t.strip() for t in tests.split(","))):
            path = ROOT / "tests" / (f"{name}.py" if name.startswith("test_") else f"worlds/{name}.facts")
            assert path.exists(), (item, name)


def test_every_open_sentence_is_an_open_reading():
    open_readings = READINGS.split("## Open readings", 1)[1]
    for item, sentence, read_by, _ in rows():
        if any(part.startswith("open") for part in read_by.split("; ")):  # the status, not `open-code`
            assert re.search(rf"(?<![\w.]){re.escape(item)}(?![\w])", open_readings), (item, sentence)


def test_no_sentence_is_open():
    """Issue 40: every sentence a rule could read is read by one (or recorded, with its reason)."""
    still = [(item, sentence) for item, sentence, read_by, _ in rows()
             if any(part.startswith("open") for part in read_by.split("; "))]
    assert still == []


def test_every_clause_of_the_rules_has_a_row():
    items = {item for item, *_ in rows()}
    clauses = {c for c in CLAUSES if re.fullmatch(r"[FGPASRMX]\.\d+b?", c)}
    assert clauses - items == set()


_RECORDED = re.compile(r"(?:^|; )recorded `([A-Z0-9.]+)`( \(docs/readings\.md: ([^;)]+))?")


def _reading_places():
    """The `where` cells of docs/readings.md's main table (before Open readings)."""
    table = READINGS.split("## Open readings", 1)[0]
    return [line.split("|")[1] for line in table.splitlines() if line.startswith("| ") and not line.startswith("| where")]


def test_every_recorded_part_names_its_reading():
    """Issue 40: "recorded remains only where the condition is what a cited document says and no fact
    could state it, each with its reason in docs/readings.md". Every **recorded** status part (at the
    start of the cell or after "; ") reads ``recorded `ID` (docs/readings.md: KEY``, and a `where` cell
    of the readings table holds KEY and ID: its reason. A part that says its bound is checked (W120)
    is no exception: a checked number says nothing of why the condition is recorded, so those rows
    (a recorded signal kept beside a rule that reads the facts) name the reading "beside a rule"."""
    places = _reading_places()
    seen = 0
    for item, sentence, read_by, _ in rows():
        for m in _RECORDED.finditer(read_by):
            clause, key = m.group(1), m.group(3)
            seen += 1
            assert key, (item, read_by)
            mine = re.compile(rf"(?<![\w.]){re.escape(clause)}(?![\w])")
            assert any(key.strip() in where and mine.search(where) for where in places), (item, clause, key)
    assert seen >= 24
