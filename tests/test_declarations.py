"""The loader reads every statement through its declaration (issue 13, item 8): ids,
namespaces and one-per-key statements come from facts/schema.py, not from lists in
the loader or the model."""
from __future__ import annotations

import pytest

from provlog.facts import LANGUAGE, LoadError, load_text
from provlog.facts import schema as S

BASE = 'lab acme "Acme AI"\norg evalco "Eval Co" type=nonprofit\n'


def test_a_statement_declares_an_id_exactly_when_its_first_field_is_the_id():
    for decl in LANGUAGE.decls.values():
        first = decl.positional[0].name if decl.positional else None
        assert (decl.declares is not None) == (first == "id"), decl.keyword
        assert decl.declares in (None, decl.keyword), decl.keyword


def test_labs_orgs_entities_and_persons_share_one_namespace():
    assert {LANGUAGE.decls[k].namespace for k in S.NODE} == {"node"}
    assert LANGUAGE.decls["source"].namespace == "source" and LANGUAGE.decls["stake"].namespace is None
    with pytest.raises(LoadError) as e:
        load_text(BASE + 'person evalco "Eval Co"\n', "w.facts")
    assert [(d.code, d.line) for d in e.value.diagnostics] == [("E112", 3)]


def test_fid_is_kind_and_id_for_every_declaration():
    w = load_text(BASE + 'entity p "P" kind=public\nsource s0 "x" publisher=p status=confirmed\n'
                  "stake acme evalco 20%\n", "w.facts")
    assert sorted(f.fid for f in w) == ["entity:p", "lab:acme", "org:evalco", "source:s0", "stake@w.facts:5"]


@pytest.mark.parametrize("twice, message", [
    ("stake acme evalco 20%\nstake acme evalco 30%\n", "a second stake for acme evalco"),
    ("resolution evalco F value=2 rule=F.1\nresolution evalco F value=3 rule=F.1\n", "a second resolution for evalco F"),
    ("assessment evalco F value=2\nassessment evalco F value=3\n", "a second assessment for evalco F"),
    ("assessment evalco role=referee\nassessment evalco role=vendor\n", "a second assessment for evalco:"),
])
def test_one_per_key_statements_are_declared_unique(twice, message):
    with pytest.raises(LoadError) as e:
        load_text(BASE + twice, "w.facts")
    (d,) = e.value.diagnostics
    assert d.code == "E112" and d.line == 4 and message in d.message, str(d)


def test_a_value_and_a_role_assessment_of_one_org_are_both_allowed():
    assert len(load_text(BASE + "assessment evalco F value=2\nassessment evalco role=referee\n", "w.facts")) == 4


# --- the language is built explicitly (issue 13, item 2) ----------------------------------------------

def test_a_language_of_its_own_loads_its_statements_and_refuses_the_rest():
    toy = S.Language("toy", derived={"verdict"})
    toy.declare(S.Decl("lab", (S.Field("id"), S.Field("name", S._text, quoted=True)), declares="lab"))
    assert [f.fid for f in load_text('lab acme "Acme AI"\n', "w.facts", language=toy)] == ["lab:acme"]
    # near miss: the default language knows org; the toy one does not
    assert load_text(BASE, "w.facts").orgs == ["evalco"]
    with pytest.raises(LoadError) as e:
        load_text(BASE, "w.facts", language=toy)
    assert [(d.code, d.line) for d in e.value.diagnostics] == [("E101", 2)]
    # its own conclusions are refused as statements (E140), the default language's are not its business
    with pytest.raises(LoadError) as e:
        load_text('verdict acme\n', "w.facts", language=toy)
    assert [d.code for d in e.value.diagnostics] == ["E140"]


def test_a_keyword_declared_by_two_parts_is_refused_when_they_are_put_together():
    other = S.Language("other")
    other.declare(S.Decl("stake", (S.Field("holder"),)))
    with pytest.raises(ValueError, match="'stake' is declared twice"):
        S.Language.union(S.STATEMENTS, other)


def test_the_language_and_the_rulebooks_do_not_depend_on_what_was_imported_first():
    """Each is built in one place from its parts: importing provlog.facts alone gives the whole
    language (and loads neither the rules nor pyDatalog); the rulebooks are listed whatever else ran."""
    import subprocess
    import sys

    from provlog.logic import RULEBOOKS

    code = ("import sys; from provlog.facts import LANGUAGE; "
            "print(len(LANGUAGE.decls), len(LANGUAGE.derived), 'provlog.logic' in sys.modules, 'pyDatalog' in sys.modules); "
            "from provlog.logic.registry import RULEBOOKS; print(list(RULEBOOKS))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == f"{len(LANGUAGE.decls)} {len(LANGUAGE.derived)} False False"
    assert out[1] == str(list(RULEBOOKS)) == "['independence', 'advice', 'pilot']"
