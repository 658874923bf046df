"""The RULES as Datalog (pyDatalog), and their evaluation over a world."""
from .program import CORE, RULES, Derivation, DerivedSignal
from .registry import RULEBOOKS
from .rules import Rule, RuleSet


def __getattr__(name):
    # Program (pyDatalog) loads on first use: a world read from its store never imports pyDatalog
    if name == "Program":
        from .engine import Program
        return Program
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CORE", "Derivation", "DerivedSignal", "Program", "RULEBOOKS", "RULES", "Rule", "RuleSet"]
