"""A store's key: the inputs it was made from (:func:`inputs`), this user's secret, and where it lives."""
from __future__ import annotations

import hashlib
import json
import os
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, Optional, Sequence

from ...facts.files import TreePath
from .layout import SCHEMA

#: the package folders whose source decides what a store holds
_CODE = ("facts", "grammar", "logic")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _display(path: Path, root: Path) -> str:
    """A file's name as the loader prints it (relative to the working directory when inside it)."""
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path.resolve())


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
    """The files a world is read from before includes (as facts/loader.py lists them)."""
    if path.is_dir():
        return sorted(q for q in path.rglob("*.facts") if q.is_file())
    return [path]


def inputs(path, strict: bool, as_of: Optional[str], files: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Everything a world's store depends on; ``files`` adds the files it read beyond the listed ones
    (includes, as recorded in a store). Raises OSError if a file cannot be read."""
    root = Path.cwd().resolve()
    if isinstance(path, TreePath):  # a revision's world: its files keyed by their blob ids (the content)
        listed, digest = path.listed(), path.digest
    else:
        listed = [_display(q, root) for q in listed_files(Path(path))]
        digest = lambda n: _sha((root / n).read_bytes())  # noqa: E731
    names = sorted(set(listed) | set(files or ()))
    return {
        "schema": SCHEMA, "version": _version(), "code": _code_hash(), "cwd": str(root), "world": str(path),
        # the date a world is read at: --as-of, else its own as-of statement (in its bytes), else today
        "strict": bool(strict), "as_of": as_of, "today": date.today().isoformat(), "listed": listed,
        "files": {n: digest(n) for n in names},
    }


def _salt_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "provlog" / "salt"


def _salt() -> bytes:
    """This user's secret, part of every key: a store made elsewhere (shipped beside a world, say)
    never matches, however well its inputs are copied. Made on first use; OSError if it cannot be."""
    path = _salt_file()
    try:
        return path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return path.read_bytes()
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(32))
        return path.read_bytes()


def key_of(inp: Dict[str, Any]) -> str:
    """The key of a store: the inputs (``inputs``) with this user's secret (:func:`_salt`)."""
    return hashlib.sha256(_salt() + json.dumps(inp, sort_keys=True).encode()).hexdigest()


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
