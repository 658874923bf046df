"""Every rulebook provlog knows, by name: the independence RULES first, then the others.

Built here, once, from each rulebook's own record; no rulebook adds itself to
a table when imported. A test or a tool that wants other rulebooks builds a
dict of its own the same way.

    >>> list(RULEBOOKS)
    ['independence', 'advice', 'pilot']
    >>> RULEBOOKS["advice"].rules.name
    'advice'
"""
from __future__ import annotations

from typing import Dict

from .advice import BOOK as ADVICE
from .pilot import BOOK as PILOT
from .program import CORE
from .rulebooks import Rulebook

RULEBOOKS: Dict[str, Rulebook] = {book.name: book for book in (CORE, ADVICE, PILOT)}
