"""The explainer: proof graphs of derived facts, and why / why-not for values."""
from .proof import Explainer, statement_text
from .render import to_dot, to_json, to_text
from .why import Explanation, explain_value, why_not

__all__ = ["Explainer", "Explanation", "explain_value", "statement_text", "to_dot", "to_json", "to_text", "why_not"]
