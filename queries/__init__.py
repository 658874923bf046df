"""The only face of provlog: the query API and the command line."""
from .api import Card, Clamp, Signal, UnknownName, Value, World

__all__ = ["Card", "Clamp", "Signal", "UnknownName", "Value", "World"]
