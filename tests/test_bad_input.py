"""Bad input never raises (issue 25's last part; issue 31 items 8-12).

Numbers: every number a file or a goal writes is read by one bounded reader, so a number padded
with leading zeros past Python's 4,300-digit limit is a located error, not a ValueError traceback.
Goals take only the digits 0-9, as the fact language does.
"""
from __future__ import annotations

import pytest

from provlog.facts import LoadError, load_text
from provlog.facts.values import MAX_NUMBER
from provlog.grammar import QueryError, parse_goal

PRELUDE = ('lab acme "A"\norg evalco "E" type=vc\nentity p "P" kind=public\n'
           'source s0 "x" publisher=p status=confirmed\n')
PADDED = "0" * 4999 + "1"  # the value 1, written in 5,000 characters: past int()'s limit


def load_error(stmt: str):
    """The one diagnostic of loading the prelude and ``stmt`` (line 5)."""
    with pytest.raises(LoadError) as e:
        load_text(PRELUDE + stmt + "\n", "w.facts")
    (d,) = e.value.diagnostics
    return d


# -- numbers ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("stmt", [
    "signal s1 evalco F against cap {n} rule=F.1",
    "signal s1 evalco F for floor {n} rule=F.1",
    "resolution evalco F value={n} rule=F.1",
    "assessment evalco F value={n}",
    "expect evalco F = {n}",
    "expect hop acme = {n}",
    "money acme evalco grant amount={n}", "stake acme evalco {n}%", "policy evalco recusal amended={n}",
    "result r1 evalco humaneval@1 lane=rejected percentile={n}",
])
def test_a_bound_padded_with_zeros_past_the_digit_limit_is_a_located_error(stmt):
    """parse_bound read ``000...01`` as int(text) once its significant digits fit: a ValueError."""
    d = load_error(stmt.format(n=PADDED))
    assert (d.file, d.line, d.code) == ("w.facts", 5, "E104"), str(d)
    assert stmt.format(n=PADDED)[d.col - 1:].startswith("000"), str(d)
    assert len(str(d)) < 300


NUMBERS = ["7" * 5000, PADDED, "0." + "7" * 5000, "7" * 5000 + "%", PADDED + "%", PADDED + "M", PADDED + ".5",
           PADDED + "-2%", ">=" + PADDED + "%", "2025-" + PADDED, "0" * 5000 + "2025", "1e99999999", "NaN",
           "\u0663", "\u00b2", "1" * (MAX_NUMBER + 1)]


def test_every_field_of_every_statement_reads_a_huge_number_as_a_bad_value():
    """Every reader a declaration names (independence, results, pilot, advice, expect's bound): a value
    or BadValue (a located E104/E120/E121 at the loader), never ValueError from int() or Fraction()."""
    from provlog.facts import values as V
    from provlog.facts.language import LANGUAGE
    readers = {f.parse for d in LANGUAGE.decls.values() for f in list(d.positional) + list(d.attrs.values())}
    readers |= {V.parse_bound, V.parse_int, V.parse_number, V.parse_amount, V.parse_pct, V.parse_date, V.parse_year}
    assert len(readers) > 20
    for read in readers:
        for text in NUMBERS:
            try:
                read(text)
            except V.BadValue:
                pass


@pytest.mark.parametrize("stmt, field", [("signal s1 evalco F against cap {n} rule=F.1", "bound"),
                                         ("resolution evalco F value={n} rule=F.1", "value"),
                                         ("assessment evalco F value={n}", "value"), ("expect evalco F = {n}", "expected")])
def test_a_bound_with_leading_zeros_within_the_limit_still_loads(stmt, field):
    """The near miss: 30 characters of ``0...03`` are the bound 3."""
    w = load_text(PRELUDE + stmt.format(n="0" * (MAX_NUMBER - 1) + "3") + "\n", "w.facts")
    (f,) = w.of(stmt.split()[0])
    assert f[field] == 3


@pytest.mark.parametrize("goal, column, digit", [
    ("lab(X) & (X == \u0663)", 16, "\u0663"),   # ARABIC-INDIC DIGIT THREE: int() reads it as 3
    ("lab(\u00b2)", 5, "\u00b2"),               # SUPERSCRIPT TWO: str.isdigit() says yes
    ("value(O, 'F', 'standard', \u0661, S, R)", 27, "\u0661"),
])
def test_a_goal_takes_only_the_digits_0_to_9(goal, column, digit):
    with pytest.raises(QueryError) as e:
        parse_goal(goal)
    assert e.value.column == column and "0-9" in e.value.reason and digit in e.value.reason, str(e.value)


def test_a_non_ascii_digit_in_an_expect_goal_is_a_located_load_error():
    d = load_error('expect holds "lab(X) & (X == \u0663)"')
    assert (d.line, d.col, d.code) == (5, 14 + 16, "E104") and "0-9" in d.message, str(d)


def test_non_ascii_digits_inside_a_goal_string_are_text():
    """The near miss: in quotes they are a string constant like any other."""
    (lit,) = parse_goal("lab('\u0663')").literals
    assert lit.args[0].value == "\u0663"


# -- memory in proportion to the file ------------------------------------------------------------

def _regex_scanner():
    """facts.lark's terminals as one regex (what grammar/parser.py scanned with before)."""
    import re

    from provlog.grammar.lark_facts import lark_parser
    from provlog.grammar.parser import _ORDER
    terms = {t.name: t.pattern.to_regexp() for t in lark_parser().terminals}
    return re.compile("|".join(f"(?P<{n}>{terms[n]})" for n in _ORDER) + "|(?P<ERR>.)")


def test_the_hand_read_strings_and_words_are_facts_lark_terminals():
    """Every line of up to 6 characters over the characters that matter: the same tokens."""
    import itertools

    from provlog.grammar.parser import tokens
    scan, n = _regex_scanner(), 0
    for size in range(7):
        for chars in itertools.product('a>="\\ ,', repeat=size):
            line = "".join(chars)
            assert list(tokens(line)) == [(m.lastgroup, m.start(), m.group()) for m in scan.finditer(line)], line
            n += 1
    assert n == sum(7 ** k for k in range(7))


MEMORY = r"""
import resource, sys
from provlog.facts import load_text, LoadError
size, shape = int(sys.argv[1]), sys.argv[2]
body = {"string": 'lab acme "' + "a" * size + '"', "escapes": 'lab acme "' + "\\a" * (size // 2) + '"',
        "word": "lab " + "a" * size + ' "A"', "gt": 'lab acme "A" ' + ">" * size}[shape]
text = body + '\norg evalco "E" type=nonprofit\n'
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    load_text(text, "w.facts")
except LoadError:
    pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)  # KiB on Linux
"""


@pytest.mark.parametrize("shape", ["string", "escapes", "word", "gt"])
def test_one_long_token_costs_memory_in_proportion_to_its_length(shape):
    """A 4 MB string cost about 800 MB (200 bytes a character) when the scanner's regex repeated a
    group per character; now it costs a few copies of itself. Bound: 40 bytes a character."""
    import subprocess
    import sys

    size = 4_000_000
    out = subprocess.run([sys.executable, "-c", MEMORY, str(size), shape], capture_output=True, text=True,
                         check=True).stdout
    grew = int(out) * 1024
    assert grew < 40 * size, f"{shape}: {grew / size:.0f} bytes a character"


# -- never a traceback -----------------------------------------------------------------------------

def _world(tmp_path, text=""):
    (tmp_path / "w.facts").write_text(PRELUDE + text, encoding="utf-8")
    return str(tmp_path / "w.facts")


def test_an_unexpected_exception_is_one_line_and_exit_70(tmp_path, monkeypatch):
    """A bug anywhere under a command (here: the load) is one line naming its type, never a traceback."""
    from click.testing import CliRunner

    from provlog.queries import cli
    from provlog.queries.internal import EXIT_INTERNAL

    def broken(*a, **kw):
        raise KeyError("\x1b]0;pwned\x07boom")
    monkeypatch.setattr(cli.World, "load", broken)
    monkeypatch.delenv("PROVLOG_DEBUG", raising=False)
    r = CliRunner().invoke(cli.main, ["--no-store", "check", _world(tmp_path)])
    assert r.exit_code == EXIT_INTERNAL == 70, r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith("provlog: internal error: KeyError: ") and "PROVLOG_DEBUG=1" in line, line
    assert "boom" in line and "\x1b" not in line and "\x07" not in line and "Traceback" not in r.output
    monkeypatch.setenv("PROVLOG_DEBUG", "1")  # the traceback, for whoever debugs it
    r = CliRunner().invoke(cli.main, ["--no-store", "check", _world(tmp_path)])
    assert isinstance(r.exception, KeyError) and r.exit_code == 1


def test_the_last_resort_leaves_located_and_usage_errors_as_they_were(tmp_path):
    """The near miss: a load error is still file:line:col and exit 1; an unknown org exit 2; bad options click's 2."""
    from click.testing import CliRunner

    from provlog.queries.cli import main
    r = CliRunner().invoke(main, ["--no-store", "check", _world(tmp_path, "lab acme2 \"B\" extra\n")])
    assert r.exit_code == 1 and "w.facts:5:" in r.stderr and "[E103]" in r.stderr and "internal" not in r.stderr
    r = CliRunner().invoke(main, ["--no-store", "card", _world(tmp_path), "nosuchorg"])
    assert r.exit_code == 2 and "internal" not in r.stderr, r.output
    r = CliRunner().invoke(main, ["--no-store", "check", "--no-such-option", _world(tmp_path)])
    assert r.exit_code == 2 and "No such option" in r.stderr


# -- a goal's work is bounded ----------------------------------------------------------------------

PRODUCT = "cites(A,B,C) & cites(D,E,F) & cites(G,H,I) & ~cites(A,E,I)"  # issue 31, item 11: over a minute


def _cites_world(tmp_path, n: int, expect: str = "") -> str:
    """A world with ``n`` citations (one signal, ``n`` sources), and an expect line if given."""
    lines = [PRELUDE.rstrip("\n"), "signal s1 evalco F against cap 2 rule=F.1"]
    for i in range(n):
        lines += [f'source s{i + 1} "https://example.org/{i}" publisher=p status=confirmed', f"cite s1 s{i + 1}"]
    (tmp_path / "w.facts").write_text("\n".join(lines + [expect]) + "\n", encoding="utf-8")
    return str(tmp_path / "w.facts")


def test_a_goal_past_its_work_limit_is_a_located_error_naming_the_way_to_raise_it(tmp_path, monkeypatch):
    """13 citations: the product join reads 14 rows a literal read, 13 x 13 reads of the third: past 1,000."""
    from click.testing import CliRunner

    from provlog.queries.cli import main
    monkeypatch.setenv("PROVLOG_GOAL_LIMIT", "1000")
    world = _cites_world(tmp_path, 13, f'expect fails "{PRODUCT}"')
    r = CliRunner().invoke(main, ["--no-store", "query", world, PRODUCT])
    assert r.exit_code == 2, r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith("provlog: query:1:") and "more than 1,000 rows" in line, line
    assert "PROVLOG_GOAL_LIMIT=10000" in line, line
    r = CliRunner().invoke(main, ["--no-store", "test", world])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"w.facts:{5 + 2 * 13 + 1}:" in r.output and "PROVLOG_GOAL_LIMIT" in r.output, r.output


def test_within_the_limit_the_same_goal_answers(tmp_path, monkeypatch):
    """The near miss: raised by the variable, the limit lets it finish; 13^3 answers less the ones where
    the negated cite exists (A=s1, E=s1, I=s1 .. s13: every cite is of s1, so ~cites(A,E,I) never holds)."""
    from provlog.queries.api import World
    monkeypatch.setenv("PROVLOG_GOAL_LIMIT", "100000")
    w = World.load(_cites_world(tmp_path, 13), store=False)
    assert w.query(PRODUCT) == []
    assert len(w.query("cites(A,B,C) & cites(D,E,F) & (B != E)")) == 13 * 12


def test_the_limit_is_a_parameter_of_answer_and_the_default_is_generous():
    from provlog.grammar import parse_goal
    from provlog.logic.engine import Program
    from provlog.logic.goal import DEFAULT_LIMIT, GoalLimit, answer
    p = Program()
    p.assert_rows("lab", [(f"l{i}",) for i in range(30)])
    goal = parse_goal("lab(A) & lab(B) & lab(C)")
    assert len(answer(goal, p)) == 30 ** 3 and DEFAULT_LIMIT >= 1_000_000
    with pytest.raises(GoalLimit) as e:
        answer(goal, p, limit=900)
    # depth first, each read costing its rows and one: 31 (A), 31 (B), then 31 for each C read: past 900
    # at the 28th lab(C) of the first A
    assert e.value.column == 19 and e.value.exit_code == 2


# -- control characters never reach the terminal raw -----------------------------------------------

RAW = ("\x1b", "\x07", "\x9b", "\u202e")  # ESC (CSI, OSC), BEL (ends an OSC), C1 CSI, RIGHT-TO-LEFT OVERRIDE
CONTROL_WORLD = ('lab acme "Acme AI"\n'
                 'org evalco "Eval\x1b]0;pwned\x07 Co \u202egnp.exe\x9b2J [/bold]" type=nonprofit\n'
                 "expect holds \"org(X, '\x1b]2;title\x07')\"\n"
                 "expect evalco F = -\n")


def _control_world(tmp_path) -> str:
    (tmp_path / "w.facts").write_text(CONTROL_WORLD, encoding="utf-8")
    return str(tmp_path / "w.facts")


@pytest.mark.parametrize("args", [["card", "{w}", "evalco"], ["test", "{w}"], ["why", "{w}", "evalco", "F"],
                                  ["hops", "{w}", "evalco"], ["check", "{w}"], ["verify", "{w}"]])
def test_control_characters_of_a_name_or_a_goal_are_escaped_on_output(tmp_path, args):
    """The world loads (a string may hold them, docs/language.md); card and test print them escaped."""
    from click.testing import CliRunner

    from provlog.queries.cli import main
    r = CliRunner().invoke(main, ["--no-store"] + [a.format(w=_control_world(tmp_path)) for a in args], color=True)
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit), r.output
    for raw in RAW:
        assert raw not in r.output, (args[0], repr(raw), r.output)
    if args[0] == "card":
        assert r.exit_code == 0
        assert r.output.splitlines()[0].startswith("Eval\\u001b]0;pwned\\u0007 Co \\u202egnp.exe\\u009b2J [/bold] (evalco)")
    elif args[0] == "test":
        assert r.exit_code == 1 and "FAIL expect holds \"org(X, '\\u001b]2;title\\u0007')\": got fails" in r.output


def test_a_file_name_with_control_characters_is_escaped_in_errors(tmp_path):
    """A world from a stranger may name its files with an escape sequence: the file:line:col of its
    errors (stderr) shows it escaped. Near miss: the error itself is the same located error."""
    from click.testing import CliRunner

    from provlog.queries.cli import main
    bad = tmp_path / "w\x1b]0;pwned\x07.facts"
    bad.write_text('org evalco "Eval" type=nonsense\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["--no-store", "check", str(bad)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "\x1b" not in r.output and "\x07" not in r.output
    assert "w\\u001b]0;pwned\\u0007.facts:1:" in r.output


def test_printable_keeps_text_and_escapes_only_controls():
    """The near miss: tabs, line ends, accents, CJK and emoji are text, and stay."""
    from provlog.queries.terminal import printable
    text = "Caf\u00e9\t\u8a55\u4fa1\n\U0001f600 \u05e9\u05dc\u05d5\u05dd"
    assert printable(text) == text
    assert printable("a\x00b\x1fc\x7fd\u2066e") == "a\\u0000b\\u001fc\\u007fd\\u2066e"
