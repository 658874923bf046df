"""Bad input never loses data (issue 7): property tests of the loader.

Hypothesis builds small valid worlds (labs, orgs, entities, sources, signals,
cites, stakes, money; continuation lines, comments, any statement order) and
mutates them: lines deleted, duplicated or indented, tokens swapped or
replaced, strings cut short, text and raw bytes (invalid UTF-8 too) inserted,
the file truncated. Whatever comes out, loading it either succeeds with every
statement of the text, or raises LoadError whose every diagnostic names a
file and a real line:col of it with a message; never another exception, never
a hang, never part of a world. Then the big inputs: a 1 MB line, include
chains up to and beyond the depth limit, include graphs with and without
cycles, a 100k-statement file.

Examples are derandomized (the same on every run) and each is bounded in time
(a deadline, and an alarm that turns a hang into a failure).
"""
from __future__ import annotations

import json
import signal
import tempfile
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provlog.facts import LoadError, load_text, load_world
from provlog.facts import reading
from provlog.grammar.oracle import parse_text_lark
from provlog.grammar.parser import parse_text, source_lines

FUZZ = settings(max_examples=80, deadline=timedelta(seconds=5), derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FEW = settings(FUZZ, max_examples=25)


@contextmanager
def time_limit(seconds: float):
    """Fail (rather than hang) if the block runs longer than ``seconds``."""
    def alarm(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- valid worlds -----------------------------------------------------------------------------------

IDENT = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)
# names: any text but a line end (LF or CR) or a lone surrogate; quotes and backslashes are escaped
NAME = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=12)
PCT = st.one_of(st.integers(0, 100).map(lambda n: f"{n}%"),
                st.tuples(st.integers(0, 50), st.integers(0, 50)).map(lambda t: f"{t[0]}-{t[0] + t[1]}%"),
                st.sampled_from([">=25%", ">25%", "<5%", "12.5%", "0.01%"]))
HEX = st.from_regex(r"[0-9a-f]{64}", fullmatch=True)


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@st.composite
def worlds(draw):
    """A valid world: a list of statements (a statement may hold an indented continuation line)."""
    ids = draw(st.lists(IDENT, min_size=3, max_size=9, unique=True))
    n_labs = draw(st.integers(1, len(ids) - 2))
    n_orgs = draw(st.integers(1, len(ids) - n_labs - 1))
    labs, orgs, ents = ids[:n_labs], ids[n_labs:n_labs + n_orgs], ids[n_labs + n_orgs:]
    nodes = labs + orgs + ents
    out = [f"lab {x} {q(draw(NAME))}" for x in labs]
    for x in orgs:
        extra = draw(st.sampled_from(["", " evaluated=yes", " status=in-scope", " output=engagements evaluated=no"]))
        out.append(f"org {x} {q(draw(NAME))} type={draw(st.sampled_from(['nonprofit', 'academic', 'pbc', 'vc']))}{extra}")
    for x in ents:
        out.append(f"entity {x} {q(draw(NAME))} kind={draw(st.sampled_from(['fund', 'company', 'foundation']))}")
    sources = [f"s{i}" for i in range(draw(st.integers(1, 3)))]
    for s in sources:
        lane = draw(st.sampled_from(["", " lane=rejected", " lane=pending", " lane=verified", " lane=reported"]))
        if lane == " lane=verified":
            lane += f" dataset-hash={draw(HEX)} input-hash={draw(HEX)}"
        elif lane == " lane=reported":
            lane += f" attestor={q(draw(NAME.filter(str.strip)))} approved-by={q('curator')}"
        tail = draw(st.sampled_from(["", " tier=1", " date=2025-03", " quarantined", " tier=2 date=2024-12-31"]))
        out.append(f"source {s} {q(draw(NAME))} publisher={draw(st.sampled_from(nodes))} "
                   f"status={draw(st.sampled_from(['confirmed', 'unaudited']))}{lane}{tail}")
    sigs = [f"g{i}" for i in range(draw(st.integers(0, 4)))]
    for g in sigs:
        bound = draw(st.sampled_from(["info", "cap 0", "cap 2", "cap 4", "floor 1", "floor 3"]))
        src = draw(st.sampled_from(["", f" src={sources[0]}", f" src={','.join(sources)}"]))
        out.append(f"signal {g} {draw(st.sampled_from(orgs))} {draw(st.sampled_from('FGPASRMX'))} "
                   f"{ {'cap': 'against', 'floor': 'for'}.get(bound[:-2]) or draw(st.sampled_from(['for', 'against']))} {bound} "
                   f"rule={draw(st.sampled_from(['F.1', 'F.4b', 'C15', '9', 'G.3']))}{src}")
        for s in draw(st.lists(st.sampled_from(sources), max_size=2, unique=True)):
            span = draw(st.sampled_from(["", " " + q("the words that state it")]))
            out.append(f"cite {g} {s}{span}")
    pairs = draw(st.lists(st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)), max_size=4,
                          unique=True).map(lambda ps: [p for p in ps if p[0] != p[1]]))
    for holder, subject in pairs:
        voting = draw(st.sampled_from(["", " voting", " since=2020"]))
        out.append(f"stake {holder} {subject} {draw(PCT)}{voting} src={draw(st.sampled_from(sources))}")
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["grant", "investment", "revenue", "fee", "donation", "in-kind", "credits", "compute"]))
        attrs = draw(st.lists(st.sampled_from(["amount=1.5M", "share=6%", "year=2025", "operating", "restricted",
                                               "depends", "currency=USD"]), max_size=3, unique=True))
        out.append(" ".join([f"money {draw(st.sampled_from(nodes))} {draw(st.sampled_from(nodes))} {kind}", *attrs]))
    order = draw(st.permutations(range(len(out))))
    world = [out[i] for i in order]
    # some statements carry their attributes on an indented continuation line, after a comment
    for i in draw(st.lists(st.integers(0, len(world) - 1), max_size=3, unique=True)):
        head, sep, tail = world[i].rpartition(" ")
        if sep and "=" in tail and '"' not in tail:
            world[i] = f"{head}  # continued\n    {tail}"
    return world


def text_of(world) -> str:
    return "# a generated world\n\n" + "\n".join(world) + "\n"


# -- the property ------------------------------------------------------------------------------------

def _no_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def check_outcome(load, texts):
    """``load()`` either returns a whole world or raises LoadError with real positions.

    ``texts`` maps each file name to its text, for positions to be checked against.
    Returns the world or None.
    """
    try:
        with time_limit(30):
            world = load()
    except LoadError as e:
        assert e.diagnostics, "a LoadError with no diagnostic"
        for d in e.diagnostics:
            assert d.file and d.message.strip() and d.code, d
            assert d.line >= 1 and d.col >= 1, str(d)
            if d.file in texts:
                lines = source_lines(texts[d.file])
                assert d.line <= len(lines), str(d)
                assert d.col <= len(lines[d.line - 1]) + 1, str(d)
            assert len(d.message) < 2000
        return None
    # a clean load holds every statement of the text: none was dropped
    for name, text in texts.items():
        stmts, errors = parse_text(_no_bom(text), name)
        assert not errors
        assert sorted(f.loc.line for f in world if f.loc.file == name) == sorted(
            s.line for s in stmts if s.keyword != "include")
    return world


@FUZZ
@given(worlds())
def test_valid_worlds_load_whole(world):
    text = text_of(world)
    w = check_outcome(lambda: load_text(text, "w.facts"), {"w.facts": text})
    assert w is not None and len(w) == len(world)
    # the scanner and Lark's LALR parser of facts.lark read the same statements
    assert parse_text(text, "w.facts")[0] == parse_text_lark(text, "w.facts")


def _tokens(line):
    return line.split(" ")


@st.composite
def mutated(draw):
    lines = text_of(draw(worlds())).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["delete", "duplicate", "indent", "swap", "replace", "cut", "insert",
                                    "truncate", "join"]))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        toks = _tokens(line)
        if how == "delete":
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, line)
        elif how == "indent":
            lines[i] = draw(st.sampled_from([" ", "\t", "  \t"])) + line
        elif how == "swap" and len(toks) > 1:
            a, b = draw(st.integers(0, len(toks) - 1)), draw(st.integers(0, len(toks) - 1))
            toks[a], toks[b] = toks[b], toks[a]
            lines[i] = " ".join(toks)
        elif how == "replace":
            toks[draw(st.integers(0, len(toks) - 1))] = draw(st.one_of(
                st.text(max_size=8), st.sampled_from(["=", ",", '"', "x=", "=y", "a,b", "-", "5", "120%", "cap",
                                                      "lane=self-attested", "value", "F.4/x/1", "\\", "#"])))
            lines[i] = " ".join(toks)
        elif how == "cut":  # cut a line short, inside a string if it has one
            at = line.find('"')
            lo = at + 1 if at >= 0 else 0
            lines[i] = line[:draw(st.integers(min(lo, len(line)), len(line)))]
        elif how == "insert":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(st.text(max_size=6)) + line[at:]
        elif how == "truncate":
            lines = lines[:i] + [line[:draw(st.integers(0, len(line)))]]
        elif how == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [line + draw(st.sampled_from([" ", "", ","])) + lines[i + 1]]
    return "\n".join(lines)


@FUZZ
@given(mutated())
def test_mutated_worlds_load_whole_or_not_at_all(text):
    check_outcome(lambda: load_text(text, "w.facts"), {"w.facts": text})


@FUZZ
@given(worlds(), st.lists(st.tuples(st.integers(0, 10**6), st.binary(min_size=1, max_size=6)), min_size=1, max_size=3))
def test_random_bytes_in_a_file(world, inserts):
    data = text_of(world).encode("utf-8")
    for at, chunk in inserts:
        at %= len(data) + 1
        data = data[:at] + chunk + data[at:]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.facts"
        path.write_bytes(data)
        try:
            texts = {"w.facts": _no_bom(data.decode("utf-8"))}
        except UnicodeDecodeError:
            texts = {"w.facts": data.decode("utf-8", "replace")}
            with pytest.raises(LoadError) as e:
                load_world(path, root=tmp)
            assert [d.code for d in e.value.diagnostics] == ["E152"]
        check_outcome(lambda: load_world(path, root=tmp), texts)


# -- includes --------------------------------------------------------------------------------------

@FEW
@given(st.integers(0, reading.MAX_INCLUDE_DEPTH + 4))
def test_include_chains_up_to_and_beyond_the_limit(depth):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for i in range(depth + 1):
            nxt = f'include "d{i + 1}.facts"\n' if i < depth else ""
            (root / f"d{i}.facts").write_text(f'lab l{i} "L{i}"\n{nxt}')
        texts = {f"d{i}.facts": (root / f"d{i}.facts").read_text() for i in range(depth + 1)}
        w = check_outcome(lambda: load_world(root / "d0.facts", root=root), texts)
        if depth <= reading.MAX_INCLUDE_DEPTH:
            assert w is not None and len(w) == depth + 1
        else:
            with pytest.raises(LoadError) as e:
                load_world(root / "d0.facts", root=root)
            assert [(d.code, d.file) for d in e.value.diagnostics] == [
                ("E153", f"d{reading.MAX_INCLUDE_DEPTH}.facts")]


def _reaches_cycle(edges, start=0):
    seen, stack = set(), []

    def visit(n):
        if n in stack:
            return True
        if n in seen:
            return False
        seen.add(n)
        stack.append(n)
        found = any(visit(m) for m in edges.get(n, ()))
        stack.pop()
        return found

    return visit(start), seen


@FUZZ
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=10))))
def test_include_graphs_cycles_are_errors_and_the_rest_loads(graph):
    n, pairs = graph
    edges = {}
    for a, b in pairs:
        edges.setdefault(a, [])
        if b not in edges[a]:
            edges[a].append(b)
    cyclic, reached = _reaches_cycle(edges)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        texts = {}
        for i in range(n):
            body = f'lab l{i} "L{i}"\n' + "".join(f'include "f{j}.facts"\n' for j in edges.get(i, []))
            (root / f"f{i}.facts").write_text(body)
            if i in reached:
                texts[f"f{i}.facts"] = body
        w = check_outcome(lambda: load_world(root / "f0.facts", root=root), texts)
        if cyclic:
            assert w is None
            with pytest.raises(LoadError) as e:
                load_world(root / "f0.facts", root=root)
            assert {d.code for d in e.value.diagnostics} == {"E151"}
        else:
            assert w is not None and sorted(w.files) == sorted(f"f{i}.facts" for i in reached)


# -- big inputs ----------------------------------------------------------------------------------------

MB = 2**20


@pytest.mark.parametrize("line, loads", [
    ("lab " + "a" * MB + ' "A"', True),  # a 1 MB identifier: no limit, nothing lost
    ('lab a "' + "x" * MB + '"', True),  # a 1 MB string
    ('lab a "' + "x" * MB, False),  # ... unterminated
    ("lab a " + '"x" ' * (MB // 4), False),  # a quarter million extra arguments
    ('lab a "A"\nmoney a a grant amount=' + "9" * MB, False),  # a 1 MB number
    ('org e "E" type=vc\nsignal s e F for cap ' + "4" * MB + " rule=F.1", False),
    ("x" + "=" * MB, False),  # a megabyte of stray '='
    ("lab a " + "," * MB, False),
    ('lab a "A" ' + "# " + "\x00" * MB, True),  # a 1 MB comment (of NULs)
    ("lab a " + "\x0b" * MB, False),
])
def test_a_one_megabyte_line(line, loads):
    t = time.monotonic()
    w = check_outcome(lambda: load_text(line + "\n", "w.facts"), {"w.facts": line + "\n"})
    assert time.monotonic() - t < 20
    assert (w is not None) == loads
    if loads:
        assert len(w) == 1 and len(next(iter(w))["id"]) + len(next(iter(w))["name"]) in (MB + 1, 2)


def test_one_megabyte_line_renders_short():
    with pytest.raises(LoadError) as e:
        load_text("lab " + "A" * MB + ' "A" zz=' + "y" * MB + "\n", "w.facts")
    text = e.value.render()
    assert len(text) < 3000 and "^" in text
    assert [(d.code, d.col) for d in e.value.diagnostics] == [("E104", 5), ("E102", MB + 10)]


def test_a_hundred_thousand_statements():
    n = 100_000
    head = ['lab acme "Acme AI"', 'entity reg "Registry" kind=public',
            'source s0 "https://registry.example/all" publisher=reg status=confirmed tier=1']
    body = [f'org o{i} "Org {i}" type=nonprofit evaluated=yes src=s0 span="the words"' if i % 2 else
            f"money acme o{i - 1 if i else 1} grant amount={i}k year=2025 src=s0" for i in range(n)]
    text = "\n".join(head + body) + "\n"
    t = time.process_time()
    with time_limit(180):
        w = load_text(text, "big.facts")
    elapsed = time.process_time() - t
    assert len(w) == n + len(head)
    assert len(w.of("org")) == n // 2 and len(w.of("money")) == n // 2
    assert elapsed < 60, f"100k statements took {elapsed:.1f} s"


# -- a few through the whole World --------------------------------------------------------------------

@settings(FUZZ, max_examples=3, deadline=None)
@given(worlds())
def test_a_few_generated_worlds_derive(world):
    from provlog import World

    with time_limit(60):
        w = World.from_text(text_of(world), "w.facts")
        for org in w.orgs:
            json.dumps(w.card(org).to_json(), sort_keys=True)
            json.dumps([r.to_json() for r in w.hops(org)], sort_keys=True)
