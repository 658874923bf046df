"""Bad input never loses data (issue 7): every load error, where it is reported, and how.

For every code of provlog.facts.errors.CATALOG, a minimal bad world (written
under tmp_path) that produces exactly that code, at a known file:line:col,
with a known fragment of the message. Then: every error of a world is
reported at once; a world with any error loads nothing; `provlog check`
prints `file:line:col: message`, the source line and a caret and exits 1;
`--strict` and lane=pending; include cycles, missing includes, limits;
folder worlds; bytes that are not UTF-8; and docs/errors.md is what
docs/gen_errors.py prints.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog.facts import CATALOG, Diagnostic, LoadError, load_text, load_world
from provlog.facts.errors import EXAMPLE_PRELUDE
from provlog.facts import reading, resolving
from provlog.queries.cli import main

ROOT = Path(__file__).resolve().parent.parent
HEX = "0123456789abcdef" * 4
ORG = 'org evalco "Eval Co" type=nonprofit\n'
PUB = 'entity p "Publisher" kind=public\n'


class Link(str):
    """A file of a test world that is a symlink to this target."""


def _chain(n: int) -> dict:
    """world.facts includes d1.facts, ... d<n>.facts: n nested includes."""
    files = {"world.facts": 'include "d1.facts"\n' if n else 'lab deep "Deep"\n'}
    for i in range(1, n + 1):
        files[f"d{i}.facts"] = f'include "d{i + 1}.facts"\n' if i < n else 'lab deep "Deep"\n'
    return files


# code -> (files, (file, line, col) of the first diagnostic, fragment of its message[, strict])
# The world loaded is world.facts unless the files name another first.
CASES = {
    "E100": ({"world.facts": 'lab acme "Acme AI\n'}, ("world.facts", 1, 10), "unterminated string"),
    "E101": ({"world.facts": 'laboratory acme "Acme AI"\n'}, ("world.facts", 1, 1), "unknown keyword 'laboratory'"),
    "E102": ({"world.facts": 'lab acme "Acme AI" colour=red\n'}, ("world.facts", 1, 20), "unknown attribute colour="),
    "E103": ({"world.facts": "lab acme\n"}, ("world.facts", 1, 5), "missing <name>"),
    "E104": ({"world.facts": 'org e "E" type=charity\n'}, ("world.facts", 1, 16), "got 'charity'"),
    "E105": ({"world.facts": 'org e "E" type=vc type=pbc\n'}, ("world.facts", 1, 19), "type= is given twice"),
    "E106": ({"world.facts": 'org e "E"\n'}, ("world.facts", 1, 1), "org needs type="),
    "E110": ({"world.facts": 'lab acme "Acme"\nstake acme nowhere 20%\n'}, ("world.facts", 2, 12),
             "names 'nowhere', which is not declared"),
    "E111": ({"world.facts": 'lab acme "Acme"\n' + ORG + "role acme director evalco\n"}, ("world.facts", 3, 6),
             "names 'acme', a lab"),
    "E112": ({"world.facts": 'lab acme "A"\nlab acme "B"\n'}, ("world.facts", 2, 1), "duplicate id 'acme'"),
    "E120": ({"world.facts": 'lab acme "A"\n' + ORG + "stake acme evalco 120%\n"}, ("world.facts", 3, 19),
             "percentage outside 0-100"),
    "E121": ({"world.facts": ORG + "signal s1 evalco F against cap 5 rule=F.1\n"}, ("world.facts", 2, 32),
             "a cap or floor is 0-4"),
    "E130": ({"world.facts": PUB + 'source s1 "x" publisher=p status=confirmed lane=self-attested\n'},
             ("world.facts", 2, 49), "lane=self-attested is never accepted"),
    "E131": ({"world.facts": PUB + f'source s1 "x" publisher=p status=confirmed lane=verified input-hash={HEX}\n'},
             ("world.facts", 2, 49), "lane=verified needs dataset-hash="),
    "E132": ({"world.facts": PUB + 'source s1 "x" publisher=p status=confirmed lane=reported attestor="A"\n'},
             ("world.facts", 2, 49), "lane=reported needs approved-by="),
    "E133": ({"world.facts": PUB + 'source s1 "x" publisher=p status=confirmed lane=pending\n'},
             ("world.facts", 2, 49), "error under --strict", True),
    "E140": ({"world.facts": ORG + "value evalco F 3\n"}, ("world.facts", 2, 1), "'value' is derived by provlog"),
    "E150": ({"world.facts": 'include "missing.facts"\n'}, ("world.facts", 1, 9), "'missing.facts'"),
    "E151": ({"a.facts": 'include "b.facts"\n', "b.facts": 'include "a.facts"\n'}, ("b.facts", 1, 9),
             "include cycle: a.facts -> b.facts -> a.facts"),
    "E152": ({"world.facts": b'lab acme "Caf\xe9"\n'}, ("world.facts", 1, 14), "byte 0xe9"),
    "E153": (_chain(reading.MAX_INCLUDE_DEPTH + 1), (f"d{reading.MAX_INCLUDE_DEPTH}.facts", 1, 9),
             f"includes nest deeper than {reading.MAX_INCLUDE_DEPTH} files"),
    "E154": ({"w/world.facts": 'lab a "A"\n', "w/shared.facts": Link("../shared.facts"), "shared.facts": 'lab b "B"\n'},
             ("w/shared.facts", 1, 1), "symlink leads outside the world folder, to 'shared.facts'"),
    "E155": ({"world.facts": "# nothing stated yet\n"}, ("world.facts", 1, 1), "empty world"),
    # benchmark results (facts/results.py)
    "E160": ({"world.facts": ORG + "result r1 evalco HumanEval lane=rejected percentile=50\n"}, ("world.facts", 2, 18),
             "a benchmark id is <name>@<version>"),
    "E161": ({"world.facts": ORG + f"result r1 evalco humaneval@1 lane=verified run-at=2026-01-05 percentile=50 "
                                   f"dataset-hash=ABC input-hash={HEX}\n"}, ("world.facts", 2, 89),
             "dataset-hash= is a SHA-256"),
    "E162": ({"world.facts": ORG + f"result r1 evalco humaneval@1 lane=verified percentile=50 "
                                   f"dataset-hash={HEX} input-hash={HEX}\n"}, ("world.facts", 2, 1),
             "needs run-at="),
    "E163": ({"world.facts": ORG + 'result r1 evalco humaneval@1 lane=reported percentile=50 attestor="A"\n'},
             ("world.facts", 2, 1), "lane=reported needs approved-by="),
    "E164": ({"world.facts": ORG + "result r1 evalco humaneval@1 lane=pending percentile=50\n"}, ("world.facts", 2, 35),
             "error under --strict", True),
    "E165": ({"world.facts": ORG + "result r1 evalco humaneval@1 lane=rejected score=120 unit=pct\n"},
             ("world.facts", 2, 50), "outside unit=pct's range"),
    "E166": ({"world.facts": ORG + 'result r1 evalco humaneval@1 lane=reported percentile=50 attestor="EVAL  co" '
                                   'approved-by="gate"\n'}, ("world.facts", 2, 1), "self-attestation is rejected"),
    "E167": ({"world.facts": ORG + f"result r1 evalco humaneval@1 lane=verified run-at=2026-01-05 percentile=50 "
                                   f"dataset-hash={HEX} input-hash={HEX}\n"
                                   f"result r2 evalco humaneval@1 lane=verified run-at=2026-02-05 percentile=60 "
                                   f"dataset-hash={HEX} input-hash={HEX}\n"}, ("world.facts", 3, 1),
             "a revision produces a new hash"),
    # R.5's adverse finding (a source attribute, issue 40)
    "E173": ({"world.facts": ORG + 'source s1 "x" publisher=evalco status=confirmed adverse=disputed-result\n'},
             ("world.facts", 2, 57), "adverse= needs adverse-to=<lab>"),
    "E174": ({"world.facts": 'lab acme "Acme AI"\n' + ORG + 'source s1 "x" publisher=evalco status=confirmed '
                                                             'adverse=ranking adverse-to=acme\n'},
             ("world.facts", 3, 57), "a leaderboard ranking alone is not an adverse finding (R.5)"),
    "E175": ({"world.facts": ORG + "policy evalco civil-service\n"}, ("world.facts", 2, 1),
             "public body's (type=gov), and evalco is type=nonprofit"),
    "E176": ({"world.facts": 'lab acme "Acme AI"\n' + PUB + 'source s1 "x" publisher=p status=confirmed '
                                                             'adverse=safety-failure adverse-to=acme\n'},
             ("world.facts", 3, 1), "its publisher p is not an org (it is declared entity)"),
    # G.4's member of a consortium (issue 40)
    "E177": ({"world.facts": 'lab acme "Acme AI"\n' + ORG + "member acme evalco\n"}, ("world.facts", 3, 1),
             "evalco is type=nonprofit, and a member is stated of a member-governed consortium"),
    # the publication cycle (facts/outreach.py)
    "E180": ({"world.facts": ORG + PUB + 'source s1 "x" publisher=p status=confirmed\n'
                                         "contact evalco sent=2026-08-02 replied=2026-08-01 reply=s1\n"},
             ("world.facts", 4, 40), "is before sent=2026-08-02"),
    "E181": ({"world.facts": ORG + "contact evalco sent=2026-08-02 replied=2026-08-03\n"}, ("world.facts", 2, 40),
             "replied= needs reply="),
    "E182": ({"world.facts": ORG + "reply-window 400\n"}, ("world.facts", 2, 14), "1 to 365 days, got 400"),
    "E183": ({"world.facts": ORG + PUB + 'source s1 "x" publisher=p status=confirmed\n'
                                         'candidate c1 "Eval Co" criterion=system-card result=included '
                                         "checked=2026-08-01 cited=s1\n"}, ("world.facts", 4, 1), "s1 has no date="),
    "E184": ({"world.facts": ORG + PUB + 'source s1 "x" publisher=p status=confirmed\n'
                                         'candidate c1 "Eval Co" criterion=statute result=out-of-scope '
                                         "checked=2026-08-01 cited=s1 org=evalco\n"}, ("world.facts", 4, 1),
             "org evalco is status=in-scope"),
}


def write(folder: Path, files: dict) -> Path:
    """Write ``files`` (name -> str or bytes) under ``folder``; the first one is the world."""
    for name, content in files.items():
        p = folder / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            p.symlink_to(content)
        else:
            p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    first = next(iter(files))
    if "/" in first:  # a folder world
        return folder / first.split("/")[0]
    return folder / ("world.facts" if "world.facts" in files else first)


def diagnostics(world: Path, root: Path, strict: bool = False):
    with pytest.raises(LoadError) as e:
        load_world(world, strict=strict, root=root)
    return e.value.diagnostics


def test_every_catalog_code_has_a_case():
    assert sorted(CASES) == sorted(CATALOG)


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_from_a_minimal_file(code, tmp_path):
    files, (file, line, col), fragment, *strict = CASES[code]
    diags = diagnostics(write(tmp_path, files), tmp_path, strict=bool(strict))
    assert {d.code for d in diags} == {code}, [str(d) for d in diags]
    d = diags[0]
    assert (d.file, d.line, d.col) == (file, line, col), str(d)
    assert fragment in d.message
    assert str(d).startswith(f"{file}:{line}:{col}: ")


@pytest.mark.parametrize("code", ["E131", "E132", "E163"])
def test_lane_requirements_are_one_error_per_statement_or_key(code, tmp_path):
    """Both keys missing: the message names both (a source), or one per key (a result)."""
    lane = "verified" if code == "E131" else "reported"
    stmt = (f'source s1 "x" publisher=p status=confirmed lane={lane}' if code != "E163"
            else "result r1 evalco humaneval@1 lane=reported percentile=50")
    diags = diagnostics(write(tmp_path, {"world.facts": PUB + ORG + stmt + "\n"}), tmp_path)
    assert {d.code for d in diags} == {code}
    keys = ("dataset-hash=", "input-hash=") if code == "E131" else ("attestor=", "approved-by=")
    assert all(any(k in d.message for d in diags) for k in keys)


def test_strict_is_what_makes_pending_an_error(tmp_path):
    world = write(tmp_path, CASES["E133"][0])
    assert len(load_world(world, root=tmp_path)) == 2  # not strict: loads
    assert [d.code for d in diagnostics(world, tmp_path, strict=True)] == ["E133"]


# -- more ways to produce a code ------------------------------------------------------------------

@pytest.mark.parametrize("text, code, col, fragment", [
    ('lab a "A" src=\n', "E100", 11, "src= has no value"),
    ('lab a "A" src=s1,\n', "E100", 17, "must be followed by another value"),
    ('lab a, "A"\n', "E100", 6, "unexpected ','"),
    ('= 3\n', "E100", 1, "a statement starts with a keyword"),
    ('"lab" a "A"\n', "E100", 1, "a statement starts with a keyword, not a string"),
    ('lab a "A" \x0b\n', "E100", 11, "U+000B"),
    ('lab a "A" = 3\n', ("E100", "E103"), 11, "unexpected '='"),  # and 3 is an extra argument
    ('lab a "A\\"\n', "E100", 7, 'inside a string does not close it'),
    ('org e "E" type=vc colour=red\n', "E102", 19, "unknown attribute colour="),
    ('lab a "A" extra\n', "E103", 11, "unexpected extra argument 'extra'"),
    ('lab a "A"\norg b "B" type=vc\nmoney a b grant lots\n', "E102", 17, "unknown flag 'lots'"),
    ('lab A "A"\n', "E104", 5, "expected an identifier"),
    ('lab a A\n', "E104", 7, "is a quoted string"),
    ('org e "E" type=vc src="s1"\n', "E104", 23, "src= lists source ids"),
    ('org e "E" type=vc status=in-scope,entrant\n', "E104", 35, "status= takes one value"),
    ('person x "X"\nlab l "L"\nrole x founder l since=2025-02-30\n', "E104", 24, "no such day"),
    ('lab a "A"\nmoney a a grant amount=1' + "0" * 40 + '\n', "E104", 24, "at most 30 characters"),
    ('lab a "A"\norg e "E" type=vc\nstake a e 25-20%\n', "E120", 11, "empty range"),
    ('lab a "A"\norg e "E" type=vc\nstake a e -5%\n', "E120", 11, "outside 0-100"),
    ('lab a "A"\norg e "E" type=vc\nstake a e ' + "9" * 5000 + '%\n', "E120", 11, "outside 0-100"),
    ('org e "E" type=vc\nresolution e F value=7 rule=F.1\n', "E121", 22, "0-4"),
    ('org e "E" type=vc\nexpect e F = 9\n', "E121", 14, "0-4"),
    ('org e "E" type=vc\nsignal s1 e F for floor ' + "9" * 5000 + ' rule=F.1\n', "E121", 25, "0-4"),
    ('org e "E" type=vc band=clear\n', "E140", 19, "band= is derived"),
    ('entity p "P"\nsource s "x" publisher=p status=confirmed\ncite F.4/e/1 s\n', "E140", 6, "derived signal id"),
    ('org e "E" type=vc\nsignal s1 e F for info rule=F.1\ncite s1 s1\n', "E111", 9, "a signal"),
    # an expect goal that does not parse is refused at load (not a traceback when the test runs)
    ('expect holds "(f[\'x\'] == 4)"\n', "E104", 16, "is not a Datalog goal"),
    ('expect fails "value(o1, " rulebook=advice\n', "E104", 21, "is not a Datalog goal"),
    ('include "x.facts"\n', "E150", 1, "include needs a world loaded from a file"),
    ('entity p "P"\nsource s "x" publisher=p status=confirmed lane=reported attestor="" approved-by="B"\n',
     "E132", 48, "attestor="),
])
def test_more_ways_to_each_code(text, code, col, fragment):
    with pytest.raises(LoadError) as e:
        load_text(text, "w.facts")
    diags = e.value.diagnostics
    assert [d.code for d in diags] == ([code] if isinstance(code, str) else list(code)), [str(d) for d in diags]
    assert diags[0].col == col and fragment in diags[0].message, str(diags[0])


def test_references_of_a_refused_statement_are_still_checked():
    """A statement with an error is not loaded, but what it names must exist all the same:
    both errors are reported, not one now and the other after the fix."""
    with pytest.raises(LoadError) as e:
        load_text('lab acme "Acme"\nstake acme nowhere 120%\norg e "E" type=charity src=gone\n', "w.facts")
    assert [(d.code, d.line, d.col) for d in e.value.diagnostics] == [
        ("E110", 2, 12), ("E120", 2, 20), ("E104", 3, 16), ("E110", 3, 28)]
    # ... but a broken declaration's own id is not reported again where it is used
    with pytest.raises(LoadError) as e:
        load_text('lab acme "Acme" colour=red\norg e "E" type=vc\nstake acme e 20%\n', "w.facts")
    assert [d.code for d in e.value.diagnostics] == ["E102"]


def test_limits_file_size_statements_files(tmp_path, monkeypatch):
    world = write(tmp_path, {"world.facts": 'lab a "A"\nlab b "B"\ninclude "c.facts"\n', "c.facts": 'lab c "C"\n'})
    monkeypatch.setattr(reading, "MAX_FILE_BYTES", 10)
    d = diagnostics(world, tmp_path)
    assert [(x.code, x.file, x.line) for x in d] == [("E153", "world.facts", 1)] and "the limit is 10" in d[0].message
    monkeypatch.setattr(reading, "MAX_FILE_BYTES", 2**20)
    monkeypatch.setattr(reading, "MAX_STATEMENTS", 2)
    d = diagnostics(world, tmp_path)
    assert [x.code for x in d] == ["E153"] and "at most 2 statements" in d[0].message
    monkeypatch.setattr(reading, "MAX_STATEMENTS", 100)
    monkeypatch.setattr(reading, "MAX_FILES", 1)
    d = diagnostics(world, tmp_path)
    assert [(x.code, x.file, x.line, x.col) for x in d] == [("E153", "world.facts", 3, 9)]


def test_limit_citations_of_one_signal(monkeypatch):
    """MAX_CITES_PER_SIGNAL citations of a signal load (cite statements and src= entries count alike);
    one more is E153 at the citation past the limit, naming the signal and the limit."""
    text = (EXAMPLE_PRELUDE + 'source s1 "y" publisher=p status=confirmed\n'
            'signal sg evalco F for floor 3 rule=F.1 src=s0\ncite sg s1\ncite sg s0 "a span"\n')
    monkeypatch.setattr(resolving, "MAX_CITES_PER_SIGNAL", 3)
    assert len(load_text(text, "w.facts").of("cite")) == 2
    monkeypatch.setattr(resolving, "MAX_CITES_PER_SIGNAL", 2)
    with pytest.raises(LoadError) as e:
        load_text(text, "w.facts")
    [d] = e.value.diagnostics
    assert (d.code, d.file, d.line, d.col) == ("E153", "w.facts", 8, 1)
    assert "'sg' has more than 2 citations, the limit per signal" in d.message


def test_include_depth_limit_is_exact(tmp_path):
    """MAX_INCLUDE_DEPTH nested includes load; one more is E153 (CASES["E153"])."""
    world = write(tmp_path, _chain(reading.MAX_INCLUDE_DEPTH))
    w = load_world(world, root=tmp_path)
    assert len(w.files) == reading.MAX_INCLUDE_DEPTH + 1 and len(w) == 1


# -- all errors at once, nothing half-loaded ----------------------------------------------------------

FIVE = """\
lab acme "Acme AI"
org evalco "Eval Co" type=nonprofit
laboratory x "X"
org e "E" type=charity
stake acme nowhere 20%
signal s1 evalco F against cap 5 rule=F.1
lab z "Z
"""


def test_all_errors_of_a_file_at_once():
    with pytest.raises(LoadError) as e:
        load_text(FIVE, "w.facts")
    got = [(d.code, d.line) for d in e.value.diagnostics]
    assert got == [("E101", 3), ("E104", 4), ("E110", 5), ("E121", 6), ("E100", 7)]
    assert str(e.value).startswith("5 errors in world")


def test_a_syntax_error_hides_nothing_after_it_or_before_it():
    """The error recovery regressions: a key without a value at the end of a file,
    a bad control character, a trailing comma, each with other errors around it."""
    text = 'lab a "A" zz=1\norg e "E" type=\nlab b "B" \x0b\nlab c "C" src=x,\nlab d "D" yy=2\norg f "F" type='
    with pytest.raises(LoadError) as e:
        load_text(text, "w.facts")
    assert [(d.code, d.line) for d in e.value.diagnostics] == [
        ("E102", 1), ("E100", 2), ("E100", 3), ("E100", 4), ("E102", 5), ("E100", 6)]


def test_errors_of_every_file_of_a_folder_world(tmp_path):
    folder = tmp_path / "world"
    write(folder, {
        "a.facts": 'lab acme "Acme"\norg evalco "Eval" type=nonprofit\nstake acme evalco 101%\n',
        "sub/b.facts": 'include "../inc/c.facts"\nmoney acme evalco grant amount=lots\n',
        "inc/c.facts": 'lab beta "Beta" colour=red\n',
        "notes.txt": "not facts: ignored\n",
    })
    d = diagnostics(folder, tmp_path)
    assert [(x.file, x.line, x.code) for x in d] == [
        ("world/a.facts", 3, "E120"), ("world/inc/c.facts", 1, "E102"), ("world/sub/b.facts", 2, "E104")]


def test_folder_world_resolves_across_files_and_loads_included_files_once(tmp_path):
    folder = tmp_path / "world"
    write(folder, {
        "a.facts": 'include "c.facts"\nlab acme "Acme"\n',
        "b.facts": 'include "c.facts"\nstake acme evalco 20%\n',
        "c.facts": 'org evalco "Eval" type=nonprofit\n',
    })
    w = load_world(folder, root=tmp_path)
    assert sorted(w.files) == ["world/a.facts", "world/b.facts", "world/c.facts"]
    assert sorted(f.kind for f in w) == ["lab", "org", "stake"]


def test_diamond_include_is_no_cycle(tmp_path):
    world = write(tmp_path, {"world.facts": 'include "b.facts"\ninclude "c.facts"\n',
                             "b.facts": 'include "d.facts"\n', "c.facts": 'include "d.facts"\n',
                             "d.facts": 'lab acme "Acme"\n'})
    assert len(load_world(world, root=tmp_path)) == 1


@pytest.mark.parametrize("files, where", [
    ({"world.facts": 'include "world.facts"\n'}, ("world.facts", 1, 9)),
    ({"world.facts": 'lab a "A"\ninclude "b.facts"\n', "b.facts": 'include "c.facts"\n',
      "c.facts": 'include "./b.facts"\n'}, ("c.facts", 1, 9)),
])
def test_include_cycles(files, where, tmp_path):
    d = diagnostics(write(tmp_path, files), tmp_path)
    assert [(x.code, x.file, x.line, x.col) for x in d] == [("E151", *where)]


@pytest.mark.parametrize("target, fragment", [
    ("missing.facts", "No such file"), ("sub", "a folder, not a file"), ("a\x00b", "null byte"),
])
def test_unreadable_includes(target, fragment, tmp_path):
    (tmp_path / "sub").mkdir()
    d = diagnostics(write(tmp_path, {"world.facts": f'lab a "A"\ninclude "{target}"\n'}), tmp_path)
    assert [(x.code, x.line, x.col) for x in d] == [("E150", 2, 9)] and fragment in d[0].message


def test_missing_world_and_empty_folder(tmp_path):
    d = diagnostics(tmp_path / "nope.facts", tmp_path)
    assert [x.code for x in d] == ["E150"] and d[0].line == 1 and d[0].col == 1
    (tmp_path / "empty").mkdir()
    assert [x.code for x in diagnostics(tmp_path / "empty", tmp_path)] == ["E155"]


def test_a_world_with_any_error_loads_nothing(tmp_path, monkeypatch):
    """LoadError, and nothing else: no FactSet comes back, no derivation starts."""
    from provlog import World
    from provlog.queries import api

    good = 'lab acme "Acme"\norg evalco "Eval" type=nonprofit\nstake acme evalco 20%\n'
    world = write(tmp_path, {"world.facts": good + 'stake acme nowhere 5%\n'})
    calls = []
    monkeypatch.setattr(api.Derivation, "run", classmethod(lambda cls, *a, **k: calls.append(a)))
    with pytest.raises(LoadError) as e:
        World.load(world)
    assert calls == [] and not hasattr(e.value, "facts")
    assert [d.code for d in e.value.diagnostics] == ["E110"]
    # ... and a loader that was refused keeps no state: the fixed world loads whole
    world.write_text(good)
    assert len(load_world(world, root=tmp_path)) == 3


# -- bytes, lines and columns -----------------------------------------------------------------------

@pytest.mark.parametrize("data, line, col", [
    (b'lab acme "Acme"\nlab b "\xc3\xa9\xc3\xa9 \xff"\n', 2, 11),  # columns count characters, not bytes
    (b"\xef\xbb\xbflab b \"\xfe\"\n", 1, 8),  # a BOM is not a column
    (b'lab a "A"\r\nlab b "B"\r\n\x80\r\n', 3, 1),
    (b'lab b "\xc3"\n', 1, 8),  # a truncated sequence
    (b"\xed\xa0\x80\n", 1, 1),  # an encoded surrogate
])
def test_non_utf8_reports_line_and_col(data, line, col, tmp_path):
    d = diagnostics(write(tmp_path, {"world.facts": data}), tmp_path)
    assert [(x.code, x.line, x.col) for x in d] == [("E152", line, col)]
    assert d[0].render().splitlines()[-1] == "    " + " " * (col - 1) + "^"


def test_bom_and_crlf_files_load_and_point_right(tmp_path):
    world = write(tmp_path, {"world.facts": b'\xef\xbb\xbflab a "A"\r\nlab b "B" zz=1\r\n'})
    d = diagnostics(world, tmp_path)
    assert [(x.code, x.line, x.col) for x in d] == [("E102", 2, 11)]
    assert d[0].source_line == 'lab b "B" zz=1'
    world.write_bytes(b'\xef\xbb\xbflab a "A"\r\n')
    assert len(load_world(world, root=tmp_path)) == 1


def test_render_puts_the_caret_under_the_place():
    d = Diagnostic("w.facts", 1, 7, "E104", "m", 'lab\t"é" 日本 x')
    assert d.render().splitlines()[1:] == ['    lab "é" 日本 x', "          ^"]
    d = Diagnostic("w.facts", 1, 11, "E104", "m", 'lab a "日本" x')
    assert d.render().splitlines()[2] == "    " + " " * 12 + "^"  # two wide characters before it
    long = Diagnostic("w.facts", 1, 50_001, "E100", "m " + repr("x" * 100_000), "y" * 100_000)
    lines = long.render().splitlines()
    assert max(len(x) for x in lines) < 300 and lines[2].rstrip().endswith("^")
    assert lines[1][4 + lines[2].index("^") - 4] == "y"


# -- the CLI ---------------------------------------------------------------------------------------------

def test_cli_check_prints_each_error_with_source_and_caret(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "world.facts").write_text('lab acme "Acme AI"\nlab beta "Beta" colour=red\norg e "E" type=charity\n')
    r = CliRunner().invoke(main, ["check", "world.facts"])
    assert r.exit_code == 1
    out = r.output.splitlines()
    i = out.index("world.facts:2:17: unknown attribute colour= for lab; lab takes src=, span= [E102]")
    assert out[i + 1:i + 3] == ['    lab beta "Beta" colour=red', "    " + " " * 16 + "^"]
    j = next(k for k, x in enumerate(out) if x.startswith("world.facts:3:16: type=: expected one of"))
    assert out[j + 1:j + 3] == ['    org e "E" type=charity', "    " + " " * 15 + "^"]
    assert "2 errors; the world was not loaded" in out[-1]


def test_cli_check_strict_and_pending(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.facts").write_text(PUB + ORG + 'source s1 "x" publisher=p status=confirmed lane=pending\n')
    ok = CliRunner().invoke(main, ["check", "w.facts"])
    assert ok.exit_code == 0 and ok.output.startswith("ok: 3 statements in 1 file(s), 1 org\n")
    r = CliRunner().invoke(main, ["check", "w.facts", "--strict"])
    assert r.exit_code == 1
    assert r.output.splitlines()[:3] == [
        "w.facts:3:49: lane=pending is a legacy no-scoring alias and an error under --strict: "
        "use reported (approved) or rejected [E133]",
        '    source s1 "x" publisher=p status=confirmed lane=pending',
        "    " + " " * 48 + "^"]


def test_cli_check_missing_include_and_cycle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"a.facts": 'include "b.facts"\ninclude "gone.facts"\n', "b.facts": 'include "a.facts"\n'})
    r = CliRunner().invoke(main, ["check", "a.facts"])
    assert r.exit_code == 1
    assert "a.facts:2:9: cannot read included file 'gone.facts': No such file or directory [E150]" in r.output
    assert "b.facts:1:9: include cycle: a.facts -> b.facts -> a.facts [E151]" in r.output


# -- the generated catalog page ---------------------------------------------------------------------------

def _gen():
    spec = importlib.util.spec_from_file_location("gen_errors", ROOT / "docs" / "gen_errors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_docs_errors_md_is_what_gen_errors_prints():
    """Every CATALOG example produces its own code and nothing else (the script stops
    otherwise), and the committed page is up to date: python docs/gen_errors.py --write."""
    page = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    assert page == _gen().generate()


def test_the_errors_of_a_command_are_catalogued_apart_and_each_is_run():
    """The history's codes (facts/commits.py) are COMMAND_CATALOG's, none a load error's; each has a
    builder that makes its folder, and its command, run there, prints its code (gen_errors.run)."""
    from provlog.facts import commits
    from provlog.facts.errors import COMMAND_CATALOG

    history = {commits.NOT_A_REPOSITORY, commits.EMPTY_RANGE, commits.NOT_LOADED, commits.SHALLOW, commits.NOT_COMMITTED}
    assert set(COMMAND_CATALOG) == history and not history & set(CATALOG)
    gen = _gen()
    assert set(gen.RUNS) == set(COMMAND_CATALOG)
    printed, status = gen.run("E189", COMMAND_CATALOG["E189"][1])
    assert status == 2 and printed.startswith("provlog: new is not in commit ") and printed.endswith("[E189]")
    assert len(printed.splitlines()) == 1
