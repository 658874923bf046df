"""Facts: loading and checking worlds, and the typed facts they hold."""
from .errors import CATALOG, Diagnostic, LoadError
from .language import LANGUAGE
from .loader import load_text, load_world
from .model import Fact, FactSet, Loc
from .schema import Language
from .values import DIMS, Pct

__all__ = ["CATALOG", "DIMS", "Diagnostic", "Fact", "FactSet", "LANGUAGE", "Language", "LoadError", "Loc", "Pct",
           "load_text", "load_world"]
