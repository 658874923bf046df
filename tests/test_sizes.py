"""No function over 60 lines, but those listed here while they wait for their split. The list
only shrinks: a function not in it fails at 61 lines, and an entry that has come under the limit (or
gone) fails until it is deleted."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60
#: path:function -> its length when listed. Empty since issue 30 split the last of them: keep it so.
ALLOWANCE: dict = {}


def _long_functions():
    for top in ["provlog", "grammar", "facts", "logic", "explain", "importers", "queries"]:
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    length = node.end_lineno - node.lineno + 1
                    if length > LIMIT:
                        yield f"{path.relative_to(ROOT)}:{node.name}", length


def test_no_function_over_the_limit_but_the_listed():
    found = dict(_long_functions())
    new = {k: v for k, v in found.items() if k not in ALLOWANCE or v > ALLOWANCE[k]}
    assert not new, f"functions over {LIMIT} lines (split them): {new}"
    done = sorted(set(ALLOWANCE) - set(found))
    assert not done, f"under the limit now, delete from ALLOWANCE: {done}"
