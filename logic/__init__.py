"""The RULES as Datalog (pyDatalog), and their evaluation over a world."""
from .engine import Program
from .program import RULEBOOK, Derivation, DerivedSignal
from .rules import Rule, RuleBook

__all__ = ["Derivation", "DerivedSignal", "Program", "RULEBOOK", "Rule", "RuleBook"]
