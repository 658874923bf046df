"""provlog diff (issue 28): golden diffs for an edit of each statement kind, what-ifs, git sides, formats.

Every expected move below is derived by hand from the RULES (seeds/rules.txt, as docs/semantics.md
reads them) and written before the test was run; the comment over each case says how. A move is
(org, what, old, new, old rule, new rule, what it rests on): ``~kind:line`` a statement edited,
``-kind:line`` one only the old world has, ``+kind:line`` one only the new has (docs/diff.md).
Policy standard unless a case says otherwise; every org is evaluated=yes (section 9 off).
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from provlog import World
from provlog.facts import LoadError, load_world
from provlog.facts.whatif import WhatIfError
from provlog.logic import Derivation
from provlog.logic import store as S
from provlog.queries.cli import main
from provlog.queries.diff import RELATIONS, compare, side, what_if

PRELUDE = """\
lab acme "Acme AI"
entity reg "Registry" kind=public
entity press "Press" kind=company
source s1 "https://registry.example/1" publisher=reg status=confirmed tier=1
source s2 "https://press.example/2" publisher=press status=unaudited tier=3
org o1 "One Evals" type=nonprofit evaluated=yes
"""


def moved(report):
    """The report's moves as (org, what, old, new, old rule, new rule, rests on), from its JSON."""
    out = []
    for org, ms in report.to_json()["orgs"].items():
        for m in ms:
            r = m["rests_on"]
            rests = sorted([f"~{c['new']['kind']}:{c['new']['loc'].rsplit(':', 1)[1]}" for c in r["changed"]]
                           + [f"-{s['kind']}:{s['loc'].rsplit(':', 1)[1]}" for s in r["removed"]]
                           + [f"+{s['kind']}:{s['loc'].rsplit(':', 1)[1]}" for s in r["added"]])
            label = " ".join([m["what"]] + [str(v) for v in m["key"].values()])
            out.append((org, label, m["old"], m["new"], m["old_rule"], m["new_rule"], tuple(rests)))
    return out


def two(tmp_path, text, *edits, policy="standard"):
    """The report from a world ``text`` to the same with each ``(old, new)`` of ``edits`` replaced (once)."""
    text = edited = PRELUDE + text
    for old, new in edits:
        assert edited.count(old) == 1, old
        edited = edited.replace(old, new)
    for name, body in (("old", text), ("new", edited)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.facts").write_text(body)
    os.chdir(tmp_path)
    return compare(World.load("old"), World.load("new"), policy)


@pytest.fixture(autouse=True)
def _cwd():
    here = os.getcwd()
    yield
    os.chdir(here)


def line_of(text: str, start: str) -> int:
    """The line number of the statement starting ``start`` in PRELUDE + text."""
    lines = (PRELUDE + text).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


# -- one golden per statement kind -------------------------------------------------------------------
SIGNALS = """\
signal o1-g o1 G for floor 3 rule=G.2
cite o1-g s1 "a published conflict policy"
signal o1-g2 o1 G for floor 1 rule=G.1
cite o1-g2 s1
"""


def test_signal_bound(tmp_path):
    # G: no cap, so the value is the largest admissible floor (section 0). Both floors cite the confirmed
    # s1 (standard admits them; C14: all sources confirmed, any bound). 3 -> 2: G 3 -> 2, rule G.2.
    # The near miss: o1-g2's floor 1 -> 0 is edited too, but the largest floor's proof reads only the
    # winning row (2 > 0), so it is not named. G 2 bands nothing: no band moves.
    r = two(tmp_path, SIGNALS, ("floor 3 rule=G.2", "floor 2 rule=G.2"), ("floor 1 rule=G.1", "floor 0 rule=G.1"))
    assert len(r.changed) == 2
    assert moved(r) == [("o1", "value G standard", 3, 2, "G.2", "G.2", ("~signal:7",))]


def test_cite(tmp_path):
    # The cite moves from the confirmed s1 to the unaudited s2: under standard (at least one confirmed
    # source) o1-g is no longer admissible, nor is o1-g2 changed; o1-g2 still cites s1 and its floor 1
    # decides: G 3 -> 1, rule G.2 -> G.1. G 1 is a conditional floor (section 0, Bands): band clear ->
    # conditional. The value rests on the cite (in its old proof, o1-g's admission); the band on no
    # edited statement: its old proof (clear: no 0 and no 1) reads the org and absences only, its new
    # one (G 1) o1-g2 and its cite, both unedited.
    cite = line_of(SIGNALS, "cite o1-g s1")
    r = two(tmp_path, SIGNALS, ('cite o1-g s1 "a published conflict policy"', 'cite o1-g s2 "a published conflict policy"'))
    assert moved(r) == [("o1", "value G standard", 3, 1, "G.2", "G.1", (f"~cite:{cite}",)),
                        ("o1", "band standard", "clear", "conditional", "0", "0", ())]


def test_source(tmp_path):
    # s1 confirmed -> unaudited: both G signals now cite no confirmed source: not admissible under
    # standard, G 3 -> unevidenced (-). Unevidenced dimensions do not band: clear stays clear. The
    # old proof reads s1's row (a usable, confirmed citation): the source statement is named.
    r = two(tmp_path, SIGNALS, ("publisher=reg status=confirmed tier=1", "publisher=reg status=unaudited tier=1"))
    assert moved(r) == [("o1", "value G standard", 3, None, "G.2", None, ("~source:4",))]


STAKE = 'stake acme o1 20% src=s1 span="Acme AI holds 20% of the shares"\n'


def test_stake(tmp_path):
    # F.1/G.6: a lab holding 20% or more caps F and G at 0 (a confirmed tier-1 span: C15 holds); F.4
    # also caps F at 1 (a lab's stake of 5% or more), but the smallest cap decides. At 19.99%: F.1 and
    # G.6 fail, F.4 stands: F 0 -> 1 (F.1 -> F.4), G 0 -> - ; band: F 0 was disqualifying, F 1 is
    # conditional. The tie (a stake) keeps o1 at hop 1. Every move rests on the stake.
    r = two(tmp_path, STAKE, ("20% src", "19.99% src"))
    assert moved(r) == [("o1", "value F standard", 0, 1, "F.1", "F.4", ("~stake:7",)),
                        ("o1", "value G standard", 0, None, "G.6", None, ("~stake:7",)),
                        ("o1", "band standard", "disqualifying", "conditional", "0", "0", ("~stake:7",))]


def test_every_policy_without_policy(tmp_path):
    # The same stake edit, every policy: s1 is confirmed, tier 1, with a span, so the derived signals
    # are admissible under all five, and each moves as under standard.
    r = two(tmp_path, STAKE, ("20% src", "19.99% src"), policy=None)
    got = moved(r)
    assert len(got) == 15
    assert {m[1].split()[-1] for m in got} == {"leads-included", "standard", "against-interest", "verified-spans",
                                               "primary-only"}


MONEY = 'money acme o1 fee amount=200k share=8% year=2025 src=s1 span="evaluation services for Acme AI"\n'


def test_money(tmp_path):
    # F.3: a lab paying per engagement caps F at 2. At share=60% the lab's money is the principal
    # revenue (50% or more): F.5 caps at 1, the smallest cap: F 2 -> 1 (F.3 -> F.5); F 1 is a
    # conditional floor: band clear -> conditional.
    r = two(tmp_path, MONEY, ("share=8%", "share=60%"))
    assert moved(r) == [("o1", "value F standard", 2, 1, "F.3", "F.5", ("~money:7",)),
                        ("o1", "band standard", "clear", "conditional", "0", "0", ("~money:7",))]


ROLE = """\
person al "Al One"
role al director o1 src=s1 span="Al One, director"
role al board acme recusal=none src=s1 span="Al One, member of the board"
"""


def test_role(tmp_path):
    # P.1: a director of o1 on a lab's board with no recusal caps P at 0 (spans on a confirmed source:
    # C15 holds), with a personal recusal at 1. P 0 -> 1, band disqualifying -> conditional; both rest
    # on the board role edited, not on the director role (in both proofs, unedited).
    board = line_of(ROLE, "role al board")
    r = two(tmp_path, ROLE, ("recusal=none", "recusal=personal"))
    assert moved(r) == [("o1", "value P standard", 0, 1, "P.1", "P.1", (f"~role:{board}",)),
                        ("o1", "band standard", "disqualifying", "conditional", "0", "0", (f"~role:{board}",))]


def test_org_attribute(tmp_path):
    # Section 10: a nonprofit with no products sold is an independent referee; venture-backed (type vc)
    # is a vendor. No signal: every value unevidenced, the band clear either way. The org statement is
    # a leaf of both role proofs.
    r = two(tmp_path, "", ('org o1 "One Evals" type=nonprofit', 'org o1 "One Evals" type=vc'))
    assert moved(r) == [("o1", "role", "referee", "vendor", "10", "10", ("~org:6",))]


POLICIES = MONEY.replace("share=8%", "share=8%") + """\
policy o1 lab-revenue-cap value=10% src=s1 span="no more than 10% of annual revenue from labs"
policy o1 market-rates src=s1 span="we charge labs market rates"
policy o1 publication-rights src=s1 span="we retain the right to publish all findings"
"""


def test_policy(tmp_path):
    # F.3: a fee with a published lab-revenue cap of 10% or less, market rates and publication rights
    # caps at 3 instead of 2. At value=12% the cap-3 condition fails: F 3 -> 2 (F.3 both). Only the
    # lab-revenue-cap policy is named: the other two are unedited. F 2 and 3 band nothing.
    r = two(tmp_path, POLICIES, ("value=10%", "value=12%"))
    assert moved(r) == [("o1", "value F standard", 3, 2, "F.3", "F.3", ("~policy:8",))]


RESULT = """\
as-of 2026-01-15
entity ci "CI Runner" kind=company
source ci-log "https://ci.example/runs/1" publisher=ci status=confirmed tier=2
benchmark-source cat-ci "https://ci.example/workflows/ci.yml" lane=verified
result r1 o1 bench@1 percentile=80 lane=verified catalog=cat-ci own-tasks run-at=2026-01-15
    dataset-hash=1111111111111111111111111111111111111111111111111111111111111111
    input-hash=8181818181818181818181818181818181818181818181818181818181818181
    attestor="https://ci.example/workflows/bench@1" src=ci-log span="re-ran the open tasks: pass"
"""


def test_result_own_tasks(tmp_path):
    # M.3: a scoring-valid verified run of the org's own open tasks, on the named layer, documented by a
    # third party (ci-log, published by ci, not o1) derives M floor 4 (span, tier 2: C16). Without
    # own-tasks no M.3 floor: M 4 -> - and the M floor of r1 4 -> - . Its contribution does not
    # depend on own-tasks: unmoved.
    r = two(tmp_path, RESULT, ("own-tasks ", ""))
    assert moved(r) == [("o1", "value M standard", 4, None, "M.3", None, ("~result:11",)),
                        ("o1", "m3 r1", 4, None, "M.3", None, ("~result:11",))]


def test_result_contribution(tmp_path):
    # PL.3: base = percentile / 100; verified lane multiplier 2; capped at 1; fresh = capped x
    # freshness (run the day of the as-of date: age 0, freshness 1); weighted = fresh x 1.4; named
    # layer: contribution = weighted. 80: 4/5 x 2 = 8/5 -> capped 1 -> 7/5. 40: 2/5 x 2 = 4/5 ->
    # 4/5 x 7/5 = 28/25. The M floor (4) does not depend on the score: unmoved.
    r = two(tmp_path, RESULT, ("percentile=80", "percentile=40"))
    assert moved(r) == [("o1", "contribution r1", "7/5", "28/25", "PL.3", "PL.3", ("~result:11",))]


CONFLICT = """\
signal o1-mf o1 M for floor 3 rule=M.3
cite o1-mf s1
signal o1-mc o1 M against cap 1 rule=M.2
cite o1-mc s1
resolution o1 M value=2 rule=M.1
"""


def test_resolution(tmp_path):
    # Section 0, Conflict: floor 3 > cap 1. A resolution whose value lies between them decides, with
    # its rule: M 2 (M.1) -> 3 (M.1); 3 is within [1, 3]. The conflict itself (cap 1, floor 3) stays.
    # M never bands.
    r = two(tmp_path, CONFLICT, ("value=2 rule=M.1", "value=3 rule=M.1"))
    assert moved(r) == [("o1", "value M standard", 2, 3, "M.1", "M.1", ("~resolution:11",))]


def test_resolution_removed_leaves_the_conflict_deciding(tmp_path):
    # Without the resolution the value is the smallest cap, 1 (M.2); the conflict row is unchanged.
    r = two(tmp_path, CONFLICT, ("resolution o1 M value=2 rule=M.1\n", ""))
    assert moved(r) == [("o1", "value M standard", 2, 1, "M.1", "M.2", ("-resolution:11",))]


def test_assessment_moves_nothing(tmp_path):
    # A stored assessment is what `verify` checks against the derivation; no rule reads it.
    r = two(tmp_path, SIGNALS + "assessment o1 G value=3\n", ("G value=3", "G value=2"))
    assert len(r.changed) == 1 and moved(r) == [] and not r.moved


# -- what nothing moves --------------------------------------------------------------------------------
def test_a_rename_and_a_move_report_nothing(tmp_path):
    # The same statements in other files, in another order: no statement differs, nothing moves.
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "a.facts").write_text(PRELUDE + STAKE + SIGNALS)
    (tmp_path / "new" / "sub").mkdir(parents=True)
    (tmp_path / "new" / "sub" / "b.facts").write_text(SIGNALS + "\n\n" + STAKE)
    (tmp_path / "new" / "c.facts").write_text("# prelude\n" + PRELUDE)
    os.chdir(tmp_path)
    r = compare(World.load("old"), World.load("new"))
    assert (r.changed, r.removed, r.added, r.moves) == ([], [], [], [])
    assert "nothing moved" in r.to_text()


# -- what-if ---------------------------------------------------------------------------------------
def _one(tmp_path, body):
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(PRELUDE + body)
    os.chdir(tmp_path)
    return World.load("w", store=True)


def test_what_if_without_a_source(tmp_path):
    # Without s1 (and its cites): o1's G signals cite nothing, admissible under no policy (even
    # leads-included needs a usable citation): G 3 -> -. The move rests on the source and
    # on o1-g's cite (in the old proof); o1-g2's cite of s1 is removed too, but the largest floor's
    # proof never read it, so it is not named.
    w = _one(tmp_path, SIGNALS)
    r = compare(w, what_if(w, without=["s1"]), "standard")
    assert {f.kind for f in r.removed} == {"source", "cite"} and len(r.removed) == 3
    assert moved(r) == [("o1", "value G standard", 3, None, "G.2", None, ("-cite:8", "-source:4"))]
    assert r.new == "w (--without s1)"


def test_what_if_set_equals_the_edit_written(tmp_path):
    # --set s1 status=unaudited moves what test_source's edit moves, on the same statement.
    w = _one(tmp_path, SIGNALS)
    r = compare(w, what_if(w, sets=[("s1", "status=unaudited")]), "standard")
    assert moved(r) == [("o1", "value G standard", 3, None, "G.2", None, ("~source:4",))]
    # a signal's bound is set where the statement writes it (the word after cap or floor)
    r = compare(w, what_if(w, sets=[("o1-g", "bound=2")]), "standard")
    assert moved(r) == [("o1", "value G standard", 3, 2, "G.2", "G.2", ("~signal:7",))]


def test_what_if_refusals_are_located(tmp_path):
    w = _one(tmp_path, SIGNALS)
    with pytest.raises(WhatIfError) as e:
        what_if(w, sets=[("s1", "status=maybe")])
    d = e.value.diagnostics[0]
    assert (d.file, d.line, d.code) == ("w/a.facts", 4, "E104") and "status=maybe" in d.source_line
    with pytest.raises(WhatIfError) as e:  # o1-g's bound 5: the loader's own refusal of a bound
        what_if(w, sets=[("o1-g", "bound=5")])
    assert (e.value.diagnostics[0].line, e.value.diagnostics[0].code) == (7, "E121")
    with pytest.raises(WhatIfError) as e:  # the org is named by its signals: they would dangle
        what_if(w, without=["o1"])
    assert {(d.line, d.code) for d in e.value.diagnostics} == {(7, "E110"), (9, "E110")}
    with pytest.raises(WhatIfError) as e:
        what_if(w, without=["no-such-id"])
    assert e.value.diagnostics[0].code == "E110"
    with pytest.raises(LoadError):  # a WhatIfError is a LoadError: the CLI says it the same way
        what_if(w, sets=[("o1-g", "nokey")])


# -- git revisions ------------------------------------------------------------------------------------
def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org"))


@pytest.fixture
def repo(tmp_path):
    """A git repository holding world w/ (the stake world), committed, then edited (19.99%) in the tree."""
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(PRELUDE + STAKE)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "w")
    _git(tmp_path, "commit", "-qm", "one")
    (tmp_path / "w" / "a.facts").write_text(PRELUDE + STAKE.replace("20%", "19.99%"))
    os.chdir(tmp_path)
    return tmp_path


def test_a_revision_side_reads_git_not_the_tree(repo):
    old = World.load(side("HEAD", "w"), store=True)
    assert old.name == "HEAD:w"
    r = compare(old, World.load("w", store=True), "standard")
    assert moved(r)[0] == ("o1", "value F standard", 0, 1, "F.1", "F.4", ("~stake:7",))
    (a, b), = r.changed
    assert (str(a.loc), str(b.loc)) == ("HEAD:w/a.facts:7", "w/a.facts:7")
    # REV:path reads the same; a warm store answers it without reading a file
    again = World.load(side("HEAD:w"), store=True)
    assert isinstance(again._store, S.Stored)
    assert moved(compare(again, World.load("w", store=True), "standard")) == moved(r)


def test_a_revision_side_loads_as_a_folder_does(repo):
    # an include leading out of the world folder, and a syntax error, at REV:path:line:col
    (repo / "w" / "b.facts").write_text('include "../x.facts"\norg o2 "Two\n')
    (repo / "x.facts").write_text("lab beta \"Beta\"\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "two")
    with pytest.raises(LoadError) as on_disk:
        load_world("w")
    with pytest.raises(LoadError) as in_git:
        load_world(side("HEAD:w"))
    assert [(d.code, d.line, d.col) for d in in_git.value.diagnostics] == \
        [(d.code, d.line, d.col) for d in on_disk.value.diagnostics]
    assert {d.file for d in in_git.value.diagnostics} == {"HEAD:w/b.facts"}
    with pytest.raises(Exception) as e:
        side("no-such-rev", "w")
    assert "neither a world nor a revision" in str(e.value)


def test_cli_formats_and_exit_code(repo):
    run = CliRunner().invoke
    got = run(main, ["diff", "HEAD", "w", "--exit-code"])
    # the stake moves F the same way under every policy, resting on the same statement: one row naming them
    every = "leads-included, standard, against-interest, verified-spans, primary-only"
    assert got.exit_code == 1 and f"value F {every}: 0 -> 1" in got.output and got.output.count("rests on:") == 3
    got = run(main, ["diff", "HEAD", "w", "--format", "json", "--policy", "standard"])
    data = json.loads(got.output)
    assert got.exit_code == 0 and data["moved"] == 3 and set(data) == {"old", "new", "moved", "statements", "orgs"}
    move = data["orgs"]["o1"][0]
    assert move["old_signal"] == "F.1/o1/1" and move["rests_on"]["changed"][0]["new"]["loc"] == "w/a.facts:7"
    got = run(main, ["diff", "HEAD", "w", "--format", "markdown", "--policy", "standard"])
    assert got.output.startswith("### provlog diff: `HEAD:w` → `w`") and "| o1 | value F standard | 0 | 1 | F.1 → F.4 |" in got.output
    got = run(main, ["diff", "HEAD:w", "HEAD:w", "--exit-code"])
    assert got.exit_code == 0 and "nothing moved" in got.output
    got = run(main, ["diff", "w", "--set", "s1", "status=maybe"])
    assert got.exit_code == 1 and "E104" in got.output
    got = run(main, ["diff", "w"])
    assert got.exit_code == 2


# -- the property: a diff is the difference of two whole derivations --------------------------------------
@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A generated world of 3 orgs in ``orig/``, copied to ``w/`` and stored (``w.sqlite``), made once."""
    from bench.generate import generate

    base = tmp_path_factory.mktemp("gen")
    for name in ("orig", "w"):
        (base / name).mkdir()
        for file, text in generate(3, 7).items():
            (base / name / file).write_text(text)
    here = os.getcwd()
    os.chdir(base)
    try:
        World.load("orig", store=base / "orig.sqlite").derivation
        World.load("w", store=base / "w.sqlite").derivation  # the store an edit of w/ starts from
    finally:
        os.chdir(here)
    shutil.copyfile(base / "w.sqlite", base / "w0.sqlite")
    return base


KINDS = ("signal", "cite", "source", "stake", "money", "role", "org", "policy", "invest", "resolution")
_NUMBER = re.compile(r"(?<=[ =])\d+(?=%|\b)")
_SWAPS = (("confirmed", "unaudited"), ("unaudited", "confirmed"), ("nonprofit", "vc"), ("against", "for"),
          ("recusal=none", "recusal=personal"), ("tier=1", "tier=3"), ("led", "participated"), (" fee ", " grant "))


def _edit_any(files, rnd) -> None:
    """One random edit of one statement of a kind drawn from KINDS: a number changed (a bound, a stake,
    a share), a word swapped (a status, a type, a direction), or the statement dropped."""
    kind = rnd.choice(KINDS)
    at = [(name, i) for name, lines in files.items() for i, line in enumerate(lines) if line.startswith(kind + " ")]
    if not at:
        return
    name, i = rnd.choice(at)
    line = files[name][i]
    how = rnd.choice(["number", "word", "drop"])
    numbers = list(_NUMBER.finditer(line))
    if how == "number" and numbers:
        m = rnd.choice(numbers)
        files[name][i] = line[:m.start()] + str(rnd.choice([0, 1, 2, 3, 4, 5, 19, 20, 50, 60])) + line[m.end():]
    elif how == "word" and any(a in line for a, _ in _SWAPS):
        a, b = rnd.choice([(a, b) for a, b in _SWAPS if a in line])
        files[name][i] = line.replace(a, b, 1)
    else:
        del files[name][i]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32))
def test_a_diff_is_the_difference_of_two_cold_derivations(generated, seed):
    """For a random single edit of a random world, the diff of the two stored models (the new one
    written by the edit path where it applies) moves exactly the rows two whole derivations differ in."""
    base = generated
    os.chdir(base)
    rnd = random.Random(seed)
    files = {p.name: p.read_text().splitlines() for p in sorted((base / "orig").iterdir())}
    _edit_any(files, rnd)
    for name, lines in files.items():
        (base / "w" / name).write_text("\n".join(lines) + "\n")
    try:
        new_facts = load_world("w")
    except LoadError:
        assume(False)
    shutil.copyfile(base / "w0.sqlite", base / "w.sqlite")
    r = compare(World.load("orig", store=base / "orig.sqlite"), World.load("w", store=base / "w.sqlite"))
    cold = [Derivation.run(load_world("orig")), Derivation.run(new_facts)]
    want = set()
    for rel in RELATIONS:
        a, b = ({tuple(x) for x in d.program.table(rel)} if rel in d.program.tables else set() for d in cold)
        want |= {(rel, "-", x) for x in a - b} | {(rel, "+", x) for x in b - a}
    got = {(m.item.relation, "-", m.old) for m in r.moves if m.old} | {(m.item.relation, "+", m.new) for m in r.moves if m.new}
    assert got == want


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32))
def test_a_what_if_from_the_store_equals_the_change_derived_whole(generated, seed):
    """A what-if of a source, a signal or a cite, derived for the orgs it reaches over the stored model
    (logic/whatif.py), reports what the same change derived whole (fast=False) reports."""
    os.chdir(generated)
    shutil.copyfile(generated / "orig.sqlite", generated / "o.sqlite")
    w = World.load("orig", store=generated / "o.sqlite")
    assert isinstance(w._store, S.Stored)
    rnd = random.Random(seed)
    sources = [f["id"] for f in w.facts.of("source")]
    signals = [f["id"] for f in w.facts.of("signal") if f["kind"] != "info"]
    how = rnd.choice(["status", "tier", "without source", "bound", "without signal", "signal status"])
    args = {"status": dict(sets=[(rnd.choice(sources), "status=" + rnd.choice(["confirmed", "unaudited", "imported"]))]),
            "tier": dict(sets=[(rnd.choice(sources), f"tier={rnd.randint(1, 3)}")]),
            "without source": dict(without=[rnd.choice(sources)]),
            "bound": dict(sets=[(rnd.choice(signals), f"bound={rnd.randint(0, 4)}")]),
            "without signal": dict(without=[rnd.choice(signals)]),
            "signal status": dict(sets=[(rnd.choice(signals), "status=" + rnd.choice(["active", "differs"]))])}[how]
    try:
        fast = what_if(w, **args)
    except LoadError:  # a source that a stake or an org cites in src= cannot go alone
        assume(False)
    slow = what_if(w, fast=False, **args)
    assert compare(w, fast).to_json() == compare(w, slow).to_json()
