"""The RULES as Datalog (pyDatalog), and their evaluation over a world."""
from .engine import Program
from .program import RULEBOOK, Derivation, DerivedSignal
from .rules import Rule, RuleBook
from . import pilot as _pilot  # noqa: F401,E402  (registers the pilot acceptance rulebook)
from . import advice as _advice  # noqa: F401,E402  (registers the advice benchmark rulebook)

__all__ = ["Derivation", "DerivedSignal", "Program", "RULEBOOK", "Rule", "RuleBook"]
