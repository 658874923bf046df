"""Reading a goal's text into a :class:`~provlog.grammar.query.Goal`: above both query.py (the goal's
terms) and goal_reader.py (the Lark reading), so that neither imports the other."""
from __future__ import annotations

from .query import Goal


def parse_goal(text: str) -> Goal:
    """The goal's literals; :class:`QueryError` (with the column) if it is not a goal provlog reads."""
    from .goal_reader import read  # Lark: imported by the commands that read a goal, not by the rest

    return Goal(read(text), text)
