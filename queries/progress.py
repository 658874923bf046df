"""Progress of a long derivation, drawn on a terminal by stratum (rich).

    >>> report = stratum_progress(io.StringIO())   # not a terminal: no progress at all  # doctest: +SKIP
    >>> report is None                                                                    # doctest: +SKIP
    True
"""
from __future__ import annotations

import time
from typing import Callable, List, Optional, TextIO

#: a derivation shorter than this shows nothing
AFTER_SECONDS = 1.0


def stratum_progress(stream: TextIO, after: float = AFTER_SECONDS) -> Optional[Callable[[int, int, List[str]], None]]:
    """A ``progress`` callback for :meth:`World.load` that draws a bar on ``stream`` once a derivation
    has run ``after`` seconds, and clears it at the end; None when ``stream`` is not a terminal
    (piped output stays exactly the command's)."""
    if not stream.isatty():
        return None
    state: dict = {}

    def report(done: int, total: int, relations: List[str]) -> None:
        now = time.monotonic()
        start = state.setdefault("start", now)
        bar = state.get("bar")
        if bar is None:
            if done >= total or now - start < after:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            bar = state["bar"] = Progress(TextColumn("deriving {task.description}"), BarColumn(),
                                          TextColumn("stratum {task.completed}/{task.total}"), TimeElapsedColumn(),
                                          console=Console(file=stream), transient=True)
            bar.start()
            state["task"] = bar.add_task("", total=total)
        bar.update(state["task"], completed=done, description=", ".join(relations[:3]))
        if done >= total:
            bar.stop()

    return report
