"""Load a world, whole or not at all: the entry points :func:`load_world` and :func:`load_text`.

The steps are modules of their own: facts/reading.py reads the files and includes (within the
input limits), facts/checking.py checks each statement against its declaration, facts/resolving.py
resolves ids and references across the world; every error of every file goes to one
facts/collector.py and is raised together as one :class:`LoadError`.

    >>> from provlog.facts import load_world          # doctest: +SKIP
    >>> facts = load_world("facts/worlds/example")    # doctest: +SKIP
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Set, Union

from ..grammar.parser import paused_gc
from . import schema as S
from .checking import _err, _note_attempt, check_statement
from .collector import _Collector
from .errors import Diagnostic, LoadError
from .files import Disk, ReadFiles, TreePath
from .model import FactSet
from .reading import _Reader
from .resolving import _resolve


def load_world(path: Union[str, os.PathLike], strict: bool = False, root: Optional[Union[str, os.PathLike]] = None,
               language: Optional[S.Language] = None, files=None, rewrite=None) -> FactSet:
    """Load a world from a ``.facts`` file or a folder of them (recursively).

    Raises :class:`LoadError` with every error found; returns a complete
    :class:`FactSet` otherwise. File names in errors are relative to ``root``
    (default: the current directory). ``language``: the statements it may
    write (default :data:`provlog.facts.LANGUAGE`, every rulebook's).
    ``files``: where the files are read from (facts/files.py; default the
    file system): a :class:`~provlog.facts.files.GitTree` reads a revision's,
    ``path`` then being a path in its tree, and names them ``REV:path``; a
    :class:`~provlog.facts.files.TreePath` ``path`` is both at once.
    ``rewrite``: ``(name, text) -> text``, each file's text as a what-if edits it before it is read
    (facts/whatif.py :class:`~provlog.facts.whatif.Rewrite`).
    """
    if isinstance(path, TreePath):
        files, p = path.tree, path.path
    elif files is None:
        files = Disk(Path(root if root is not None else Path.cwd()).resolve())
        p = Path(path)
    else:
        p = files.path(str(path))
    errs = _Collector(language)
    is_dir = files.is_dir(p)
    try:
        top = files.resolve(p if is_dir else p.parent)
    except (OSError, ValueError, RuntimeError):
        top = None  # read() reports it
    reader = _Reader(files, strict, errs, top=top, rewrite=rewrite)

    def refuse(entry, code: str, msg: str) -> None:
        errs.add(files.name(entry), 1, 1, code, msg)

    with paused_gc():
        if is_dir:
            listed = files.listing(p, refuse)
            if not listed and not errs.diags:
                raise LoadError([Diagnostic(files.name(files.resolve(p)), 1, 1, "E155",
                                            "empty world: the folder holds no .facts files")])
            for q in listed:
                reader.read(q)
        elif files.exists(p):
            reader.read(p)
        else:
            shown = str(path) if isinstance(files, Disk) else files.name(p)
            raise LoadError([Diagnostic(shown, 1, 1, "E150", "no such file or folder")])
        world = _resolve(reader.facts, errs, reader.attempted)
    if not reader.facts and not errs.diags:
        errs.add(files.name(files.resolve(p)), 1, 1, "E155",
                 "empty world: its files hold no statements (only comments and blank lines)")
    if errs.diags:
        raise LoadError(errs.diags)
    world.files = ReadFiles(sorted(reader.loaded.values()), reader.digests)
    return world


def load_text(text: str, name: str = "<text>", strict: bool = False, language: Optional[S.Language] = None) -> FactSet:
    """Load a world from a string (no includes relative to a folder beyond the cwd); ``language`` as
    :func:`load_world`'s.

        >>> toy = S.Language("toy")
        >>> _ = toy.declare(S.Decl("lab", (S.Field("id"), S.Field("name", S._text, quoted=True)), declares="lab"))
        >>> [f.fid for f in load_text('lab acme "Acme AI"', language=toy)]
        ['lab:acme']
        >>> load_text('org o "O" type=nonprofit', language=toy)
        Traceback (most recent call last):
        provlog.facts.errors.LoadError: 1 error in world
        <text>:1:1: unknown keyword 'org'; docs/language.md lists the statements [E101]
    """
    errs = _Collector(language)
    facts = []
    attempted: Set[str] = set()
    with paused_gc():
        for st in errs.parse(text[1:] if text.startswith("\ufeff") else text, name):
            if st.keyword == "include":
                _err(errs, st, st.line, st.col, "E150", "include needs a world loaded from a file")
                continue
            f = check_statement(st, errs, strict)
            if f is not None:
                facts.append(f)
            else:
                _note_attempt(st, attempted, errs)
        world = _resolve(facts, errs, attempted)
    if not facts and not errs.diags:
        errs.add(name, 1, 1, "E155", "empty world: the text holds no statements (only comments and blank lines)")
    if errs.diags:
        raise LoadError(errs.diags)
    world.files = [name]
    return world
