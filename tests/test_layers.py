"""Imports run one way: facts uses grammar; logic uses facts; explain uses logic and facts;
importers use facts; queries uses them all. Nothing imports upward."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: layer -> the layers it may import (besides itself)
ALLOWED = {
    "grammar": set(),
    "facts": {"grammar"},
    "logic": {"grammar", "facts"},
    "explain": {"grammar", "facts", "logic"},
    "importers": {"grammar", "facts"},  # registers in: they write and check facts, nothing more
    "queries": {"grammar", "facts", "logic", "explain", "importers"},
}


def _imported_layers(path: Path, layer: str):
    """The provlog layers a module imports, from its absolute and relative imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    depth = len(path.relative_to(ROOT / layer).parts) - 1  # subpackage depth below the layer
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] == "provlog" and len(parts) > 1:
                    yield parts[1], node.lineno
            elif node.level > depth + 1 and node.module:
                yield node.module.split(".")[0], node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "provlog" and len(parts) > 1:
                    yield parts[1], node.lineno


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_no_layer_imports_upward(layer):
    wrong = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for used, line in _imported_layers(path, layer):
            if used in ALLOWED and used != layer and used not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {used}")
    assert not wrong, "\n".join(wrong)


def test_the_fact_language_loads_no_engine():
    """Reading and checking facts needs neither pyDatalog nor the rules."""
    code = ("import sys, provlog.facts; "
            "print(sorted(m for m in sys.modules if m == 'pyDatalog' or m.startswith('provlog.logic')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_source_checkout_imports_without_the_installed_mapping():
    """`python -m provlog` in the repository's root after a plain `pip install .`: this folder's provlog/
    shadows the installed package, and finds its subpackages beside it (provlog/__init__.py)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
            f"sys.path.insert(0, {str(root)!r}); import provlog.queries.cli, provlog.logic.program; "
            "print(provlog.logic.program.__file__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(root / "logic" / "program.py")
