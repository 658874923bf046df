"""The provlog command line (README "Use"; JSON shapes in docs/json.md). It holds no logic:
every answer comes from the query API.

This module is the command group, :func:`main` (the ``provlog`` entry point); the commands are
grouped by job: cli/questions.py (value, card, why, why-not, prove, refute, query, hops, matrix,
results), cli/checks.py (check, verify, test, diff), cli/export.py (export, fingerprint),
cli/reference.py (rules, relations), cli/imports.py (import bods, import ftm), cli/web.py (site,
serve), cli/outreach.py (outreach, candidates); what they share (options, loading the world, output) is cli/options.py.

Exit codes: 0 ok; 1 a check failed (load errors, verify, test); 2 usage
(unknown org, dimension, policy or preset; a malformed query); 70 an internal error (a bug: one
line, PROVLOG_DEBUG=1 for the traceback; queries/internal.py).
"""
from __future__ import annotations

import os
from typing import Optional

import click

from .. import internal
from ..api import World
from . import checks, export, history, imports, outreach, questions, reference, web
from .options import _STORE, _fail


class _Commands(click.Group):
    """The command group; a stored model found damaged while a command reads it (sqlite3's error)
    is reported in one line and removed, never a traceback: the next command derives again."""

    def invoke(self, ctx):
        import sqlite3

        try:
            return super().invoke(ctx)
        except sqlite3.DatabaseError as e:
            for path in World.opened_stores:
                try:
                    os.unlink(path)
                except OSError:
                    pass
            _fail(f"the stored model {', '.join(map(str, World.opened_stores))} is damaged ({e}); it is removed: "
                  f"run the command again", 1)
        except Exception as e:  # the last resort: one line, never a traceback (queries/internal.py)
            internal.report(e)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="provlog")
@click.option("--store", "store", default=None, metavar="PATH", envvar="PROVLOG_STORE",
              help="Keep the derived model in PATH (a .sqlite file, or a folder for one per world); "
                   "default .provlog/ in the world's folder. Env: PROVLOG_STORE.")
@click.option("--no-store", is_flag=True, help="Neither read nor write a stored model.")
def main(store: Optional[str], no_store: bool) -> None:
    """provlog: Datalog provenance reasoning over the independence RULES.

    WORLD is a .facts file or a folder of them. A world's derivation is stored
    (docs/store.md) and reused while its files, the rules and provlog are unchanged.
    """
    _STORE["store"] = False if no_store else (store or True)


# every command, by its module (`provlog --help` lists them by name)
for _command in (questions.value, questions.card, questions.why, questions.why_not, questions.prove,
                 questions.refute, questions.query, questions.hops, questions.matrix, questions.results,
                 checks.check, checks.verify, checks.test, checks.diff, history.log, history.blame, export.export,
                 export.fingerprint, reference.rules, reference.relations, imports.import_, web.site, web.serve,
                 outreach.outreach, outreach.candidates):
    main.add_command(_command)
