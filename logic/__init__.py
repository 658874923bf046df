"""The RULES as Datalog (pyDatalog), and their evaluation over a world."""
from .program import RULEBOOK, Derivation, DerivedSignal
from .rules import Rule, RuleBook
from . import pilot as _pilot  # noqa: F401,E402  (registers the pilot acceptance rulebook)
from . import advice as _advice  # noqa: F401,E402  (registers the advice benchmark rulebook)



def __getattr__(name):
    # Program (pyDatalog) loads on first use: a world read from its store never imports pyDatalog
    if name == "Program":
        from .engine import Program
        return Program
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Derivation", "DerivedSignal", "Program", "RULEBOOK", "Rule", "RuleBook"]
