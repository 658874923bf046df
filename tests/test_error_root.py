"""One root for what a user gets wrong (issue 13, item 7): every such error is a
ProvlogError carrying the exit code the CLI uses (1 a world that does not load, 2
an unknown name or a malformed goal)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.errors import ProvlogError
from provlog.facts import LoadError, load_text
from provlog.grammar import ParseError, QueryError, parse_text
from provlog.queries import UnknownName
from provlog.queries.cli import main


@pytest.mark.parametrize("cls, code", [(LoadError, 1), (ParseError, 1), (QueryError, 2), (UnknownName, 2)])
def test_every_user_error_is_a_provlog_error_with_its_exit_code(cls, code):
    assert issubclass(cls, ProvlogError) and cls.exit_code == code


def test_a_syntax_error_is_an_exception_that_names_its_place():
    _, (err,) = parse_text('lab acme "Acme\n', "w.facts")
    assert isinstance(err, ParseError) and (err.file, err.line, err.col) == ("w.facts", 1, 10)
    assert str(err).startswith("w.facts:1:10: unterminated string")
    with pytest.raises(ProvlogError):
        raise err


def test_except_provlog_error_catches_a_world_that_does_not_load_and_an_unknown_name():
    with pytest.raises(ProvlogError) as e:
        load_text("lab acme\n", "w.facts")
    assert e.value.exit_code == 1
    w = World.from_text('org evalco "Eval Co" type=nonprofit\n', "w.facts")
    with pytest.raises(ProvlogError) as e:
        w.value("nosuch", "F")
    assert e.value.exit_code == 2


def test_the_cli_exits_with_the_errors_code(tmp_path):
    (tmp_path / "w.facts").write_text('org evalco "Eval Co" type=nonprofit\n')
    r = CliRunner().invoke(main, ["value", str(tmp_path / "w.facts"), "nosuch", "F"])
    assert r.exit_code == 2 and "unknown org 'nosuch'" in r.output
