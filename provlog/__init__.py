"""provlog: Datalog provenance reasoning over the independence RULES.

    >>> from provlog import World                               # doctest: +SKIP
    >>> w = World.load("facts/worlds/example")                  # doctest: +SKIP
    >>> w.value("harbor-eval", "F").value                       # doctest: +SKIP
"""
from pathlib import Path as _Path

from .version import __version__  # noqa: F401

# In a source checkout the subpackages are the top-level folders (setup.cfg's package_dir maps
# provlog.logic to logic/, ...). An installed provlog has them inside; but run from the checkout's root
# (`python -m provlog` after `pip install .`), this folder shadows the installed one, so look beside it.
_ROOT = _Path(__file__).resolve().parent.parent
if (_ROOT / "setup.cfg").is_file() and (_ROOT / "logic" / "program.py").is_file():
    __path__.append(str(_ROOT))


def __getattr__(name):  # lazy, so that `import provlog.grammar` stays light
    if name in ("World", "LoadError", "Value", "Card", "Clamp"):
        from .queries import api

        return getattr(api, name)
    raise AttributeError(name)
