"""Every JSON shape docs/json.md documents is what the command prints (issue 15).

docs/json.md shows, above each example, the command that printed it on
tests/worlds/json/world.facts (`<!-- provlog ... WORLD ... -->`). Here each
command runs for real, and its output must have exactly the keys of the
example at every depth: lists compare the union of their entries' keys.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any, List, Tuple

import pytest
from click.testing import CliRunner

from provlog.queries.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "json.md"
WORLD = ROOT / "tests" / "worlds" / "json"
_BLOCK = re.compile(r"<!-- provlog (.+?) -->\n```json\n(.*?)\n```", re.S)


def examples() -> List[Tuple[str, Any]]:
    return [(cmd, json.loads(body)) for cmd, body in _BLOCK.findall(PAGE.read_text(encoding="utf-8"))]


def _merge(items: list) -> Any:
    """The entries of a list as one: the union of their keys (the first value of each)."""
    dicts = [i for i in items if isinstance(i, dict)]
    if not dicts:
        return items[0] if items else None
    out: dict = {}
    for d in dicts:
        for k, v in d.items():
            if k not in out or (isinstance(v, (dict, list)) and not out[k]):
                out[k] = v
    return out


def differences(doc: Any, real: Any, at: str = "$") -> List[str]:
    if isinstance(doc, list) and isinstance(real, list):
        if not doc or not real:
            return []
        return differences(_merge(doc), _merge(real), at + "[]")
    if isinstance(doc, dict) and isinstance(real, dict):
        out = [f"{at}.{k}: documented, not printed" for k in sorted(set(doc) - set(real))]
        out += [f"{at}.{k}: printed, not documented" for k in sorted(set(real) - set(doc))]
        for k in sorted(set(doc) & set(real)):
            out += differences(doc[k], real[k], f"{at}.{k}")
        return out
    return []


def test_the_page_documents_every_command_that_prints_json():
    shown = {cmd.split()[0] for cmd, _ in examples()}
    json_commands = {name for name, c in main.commands.items()
                     if any(p.name in ("as_json", "fmt") for p in c.params)}
    assert json_commands <= shown, f"commands with JSON that docs/json.md does not show: {json_commands - shown}"


@pytest.mark.parametrize("cmd,doc", examples(), ids=[c for c, _ in examples()])
def test_real_output_has_the_documented_keys(cmd, doc):
    args = [str(WORLD) if a == "WORLD" else a for a in shlex.split(cmd)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    real = json.loads(out.stdout)
    assert not differences(doc, real), "\n".join(differences(doc, real))


def test_differences_sees_a_missing_and_an_extra_key():
    """The comparison itself: a renamed key is both missing and extra; list entries are merged."""
    assert differences({"a": [{"x": 1}, {"y": 2}]}, {"a": [{"x": 1, "y": 3}]}) == []
    assert differences({"a": 1, "b": {"c": 1}}, {"a": 1, "b": {"d": 1}}) == [
        "$.b.c: documented, not printed", "$.b.d: printed, not documented"]
