"""The command line's last resort: an exception that is none of provlog's own errors is a bug in
provlog, reported in one line with its own exit code, never as a traceback.

What a user got wrong is a :class:`~provlog.errors.ProvlogError` (a located load error, an unknown
name, a malformed goal) and keeps its message and exit code; click's own usage errors, ``--help``
and a closed pipe pass through to click. Anything else prints

    provlog: internal error: RuntimeError: <message> (a bug in provlog; PROVLOG_DEBUG=1 shows the traceback)

and exits :data:`EXIT_INTERNAL`. With ``PROVLOG_DEBUG=1`` (any value but empty or ``0``) the
exception goes on to Python, which prints the traceback.
"""
from __future__ import annotations

import errno
import os
import sys

import click

from ..errors import ProvlogError

#: The exit code of an internal error: sysexits.h's EX_SOFTWARE, distinct from 1 (a check failed)
#: and 2 (usage).
EXIT_INTERNAL = 70
#: The environment variable that lets an internal error's traceback through.
DEBUG_ENV = "PROVLOG_DEBUG"


def debugging() -> bool:
    """True when ``PROVLOG_DEBUG`` asks for tracebacks."""
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def report(e: BaseException) -> None:
    """Exit with one line for ``e`` (a ProvlogError: its message and code; anything else: an internal
    error, :data:`EXIT_INTERNAL`), or re-raise what is not ours to report. Call it in an ``except``."""
    if isinstance(e, (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit)):
        raise e  # click's usage errors, --help, ctrl-C: click reports them
    if isinstance(e, OSError) and e.errno == errno.EPIPE:
        raise e  # `provlog ... | head`: click closes quietly
    if isinstance(e, ProvlogError):
        click.echo(f"provlog: {_one_line(str(e))}", err=True)
        sys.exit(e.exit_code)
    if debugging():
        raise e
    click.echo(f"provlog: internal error: {type(e).__name__}: {_one_line(str(e))} "
               f"(a bug in provlog; {DEBUG_ENV}=1 shows the traceback)", err=True)
    sys.exit(EXIT_INTERNAL)


def _one_line(text: str, limit: int = 300) -> str:
    """The message on one line, cut to ``limit`` characters, its control characters escaped."""
    from .terminal import printable

    line = " ".join(text.split())
    return printable(line if len(line) <= limit else line[:limit] + "...")
