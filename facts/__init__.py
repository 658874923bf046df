"""Facts: loading and checking worlds, and the typed facts they hold."""
from .errors import CATALOG, Diagnostic, LoadError
from .loader import load_text, load_world
from . import results  # noqa: F401  (declares the `result` statement)
from . import pilot  # noqa: F401  (declares the pilot rulebook's statements)
from .model import Fact, FactSet, Loc
from .values import DIMS, Pct
from . import advice  # noqa: F401,E402  (declares the advice benchmark rulebook's statements)

__all__ = ["CATALOG", "DIMS", "Diagnostic", "Fact", "FactSet", "LoadError", "Loc", "Pct", "load_text", "load_world"]
