"""A store's key: the inputs it was made from (:func:`inputs`), this user's secret, and where it lives."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, Optional, Sequence

from ...facts.files import TreePath
from .layout import SCHEMA

#: the package folders whose source decides what a store holds
_CODE = ("facts", "grammar", "logic")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def top(path) -> Optional[Path]:
    """The folder a world's files are named within: a folder world's own, a file world's (the file's,
    its symlinks followed: the loader names the file it reads); None for a revision's (``REV:path``
    names the same from anywhere)."""
    if isinstance(path, TreePath):
        return None
    p = Path(path)
    return p.resolve() if p.is_dir() else p.resolve().parent


def within(path, top: Path) -> str:
    """A file's name inside its world (``sub/a.facts``), whatever folder it is asked from (``..`` if it
    lies outside, as a symlinked single-file world's may)."""
    return os.path.relpath(Path(path).resolve(), top)


def _code_hash() -> str:
    """SHA-256 of the loader's and the rules' source (the subpackages beside this one's folder)."""
    h = hashlib.sha256()
    for folder in _CODE:
        base = Path(__file__).resolve().parents[2] / folder
        for p in sorted(base.rglob("*")):
            if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(base)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _version() -> str:
    from provlog.version import __version__  # setup.cfg's version (importlib.metadata would cost more than the card)

    return __version__


def listed_files(path: Path) -> List[Path]:
    """The files a world is read from before includes (as facts/loader.py load_world lists them)."""
    if path.is_dir():
        return sorted(q for q in path.rglob("*.facts") if q.is_file())
    return [path]


def inputs(path, strict: bool, as_of: Optional[str], files: Optional[Sequence[str]] = None,
           stated: bool = False) -> Dict[str, Any]:
    """Everything a world's store depends on, and nothing of where it is asked from: the files by their
    names inside the world (:func:`within`), never the working directory nor the path as typed.
    ``files`` adds the files it read beyond the listed ones: the names a store records, or the loader's
    ``ReadFiles`` (facts/files.py), whose files count with the bytes it read, not the bytes there now (a
    file edited while the world derived keys its store on what the answers were derived from).
    ``stated``: the world states its own ``as-of`` (in its bytes): the date is then not today's, nor
    is it when ``as_of`` is given. Raises OSError if a file cannot be read.

        >>> inputs("w", False, "2026-01-01")["today"], "cwd" in inputs("w", False, None)   # doctest: +SKIP
        (None, False)
    """
    if isinstance(path, TreePath):  # a revision's world: its files keyed by their blob ids (the content)
        listed, digest = path.listed(), path.digest
        names = sorted(set(listed) | set(files or ()))
    else:
        here = top(path)
        listed = [within(q, here) for q in listed_files(Path(path))]
        read = {within(p, here): h for p, h in getattr(files, "digests", {}).items()}
        digest = lambda n: read.get(n) or _sha((here / n).read_bytes())  # noqa: E731
        names = sorted(set(listed) | set(read) | (set() if hasattr(files, "digests") else set(files or ())))
    return {
        "schema": SCHEMA, "version": _version(), "code": _code_hash(), "strict": bool(strict), "as_of": as_of,
        # the date a world is read at: --as-of, else its own as-of statement (in its bytes), else today
        "today": None if as_of or stated else date.today().isoformat(), "listed": listed,
        "files": {n: digest(n) for n in names},
    }


def dated(inp: Dict[str, Any], made: Dict[str, Any]) -> Dict[str, Any]:
    """``inp`` (computed before the world is read) for a store made from ``made``: a world that stated its
    own as-of there states it here too if its bytes are the same (the key then says so), so today's date
    is not part of it."""
    return dict(inp, today=None) if made.get("today", "") is None else inp


def wanted(path, strict: bool, as_of: Optional[str]):
    """What :func:`~provlog.logic.store.reading.open_store` asks of a store of the world at ``path``: the
    inputs now, of the files the store says the world read (``made``: its inputs)."""
    return lambda made: dated(inputs(path, strict, as_of, list(made.get("files", {}))), made)


def _salt_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "provlog" / "salt"


#: a secret shorter than this (the empty file a crash between create and write leaves) is made again
SECRET_BYTES = 32


def secret() -> bytes:
    """This user's secret, part of every key and of every checksum: a store made elsewhere (shipped
    beside a world, say) never matches, however well its inputs are copied. Made on first use, and
    again if it is empty or short (else anyone could compute the key); OSError if it cannot be."""
    path = _salt_file()
    try:
        got = path.read_bytes()
    except FileNotFoundError:
        got = None
    if got is not None and len(got) >= SECRET_BYTES:
        return got
    _make_secret(path, replace=got is not None)
    got = path.read_bytes()
    if len(got) < SECRET_BYTES:
        raise OSError(f"the store secret {path} is too short")
    return got


def _make_secret(path: Path, replace: bool) -> None:
    """Write a new secret to ``path`` whole or not at all (a temporary file, mode 0600, then renamed
    in); a first one is linked in only if no other process made one first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".salt.", dir=path.parent)  # mkstemp: owner-only, 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(SECRET_BYTES))
            fh.flush()
            os.fsync(fh.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:  # another process made it first: theirs is kept
                pass
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


def key_of(inp: Dict[str, Any]) -> str:
    """The key of a store: the inputs (``inputs``) with this user's secret (:func:`secret`)."""
    return hashlib.sha256(secret() + json.dumps(inp, sort_keys=True).encode()).hexdigest()


def default_path(world) -> Path:
    """``.provlog/`` in the world's folder (a folder world's own, a file world's parent); a revision's
    world (a TreePath) beside the same folder in the working tree (else at the repository's top)."""
    if isinstance(world, TreePath):
        here = world.tree.top / str(world.path)
        folder = here if here.is_dir() else here.parent if here.parent.is_dir() else world.tree.top
        return folder / ".provlog" / f"{PurePosixPath(world.path).name or 'world'}@rev-{_sha(str(world).encode())[:12]}.sqlite"
    p = Path(world)
    folder = p if p.is_dir() else p.parent
    return folder / ".provlog" / f"{p.resolve().name or 'world'}-{_sha(str(p.resolve()).encode())[:12]}.sqlite"
