"""Importers: ownership and money registers in, `.facts` worlds out.

Two field standards are read: the Beneficial Ownership Data Standard 0.4
(:mod:`.bods`) and FollowTheMoney entities (:mod:`.ftm`). Each import writes a
folder of `.facts` files that `provlog check` accepts, every statement citing
a source that names the register's record and the file:line of its JSON, and
prints a report of what it mapped and what it did not (docs/import.md).

    >>> from provlog.importers import import_bods                # doctest: +SKIP
    >>> report = import_bods(["register.jsonl"], "worlds/acme/register")  # doctest: +SKIP
    >>> print(report.render())                                   # doctest: +SKIP
"""
from .records import ImportFailure, Record
from .world import Report, WorldOut

__all__ = ["ImportFailure", "Record", "Report", "WorldOut", "import_bods", "import_ftm"]


def import_bods(*args, **kw):
    """Import BODS 0.4 files; see :func:`provlog.importers.bods.import_bods`."""
    from .bods import import_bods as run

    return run(*args, **kw)


def import_ftm(*args, **kw):
    """Import FollowTheMoney entities; see :func:`provlog.importers.ftm.import_ftm`."""
    from .ftm import import_ftm as run

    return run(*args, **kw)
