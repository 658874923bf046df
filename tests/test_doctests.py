"""The examples in the package's docstrings run (those marked ``+SKIP`` need a loaded world)."""
import doctest
import importlib
import pkgutil

import pytest

LAYERS = ("grammar", "facts", "logic", "explain", "importers", "queries")


def _modules():
    out = ["provlog"]
    for layer in LAYERS:
        pkg = importlib.import_module(f"provlog.{layer}")
        out.append(pkg.__name__)
        out += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    return sorted(out)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    assert MODULES.count("provlog.logic.program") == 1  # the walk found the layers
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
