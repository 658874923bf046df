"""The history commands: ``log`` (the commits at which something of a world moved, and why) and
``blame`` (the commit that gave a value its number, and the commits behind its proof's statements);
docs/history.md. The answers are queries/history.py's."""
from __future__ import annotations

import sys
from typing import List, Optional, Tuple

import click

from ...facts import DIMS
from ...facts.commits import NOT_LOADED
from ...facts.files import git
from .options import AS_OF, _dump, _guard, echo, output


def _split(world: str, rest: Tuple[str, ...]) -> Tuple[Optional[str], Optional[str], Optional[str]]:
    """``[ORG [DIM]] [REV-RANGE]``: the last word is the range when it is one (``A..B``, or a revision
    git knows); the words before it an org and a dimension."""
    from ..history import HistoryFailed

    words = list(rest)
    rng = None
    if words and _is_range(world, words[-1], len(words)):
        rng = words.pop()
    if len(words) > 2:
        raise HistoryFailed(f"log takes WORLD [ORG [DIM]] [REV-RANGE]; {' '.join(words[2:])!r} is left over")
    org = words[0] if words else None
    dim = words[1] if len(words) > 1 else None
    if dim is not None and dim not in DIMS:
        raise HistoryFailed(f"unknown dimension {dim!r}; one of {' '.join(DIMS)}")
    return org, dim, rng


def _is_range(world: str, word: str, n: int) -> bool:
    if ".." in word or word.startswith("^") or n == 3:
        return True
    if n == 2 and word in DIMS:
        return False
    from ...facts.commits import repository

    try:
        git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{word}^{{commit}}"], repository(world))
    except Exception:  # not a revision (or no repository: the walk says so)
        return False
    return True


def _policy(policy: Optional[str]) -> None:
    from ...facts.schema import POLICY_NAMES
    from ..history import HistoryFailed

    if policy is not None and policy not in POLICY_NAMES:
        raise HistoryFailed(f"unknown policy {policy!r}; one of {', '.join(POLICY_NAMES)}")


@click.command()
@click.argument("world")
@click.argument("rest", nargs=-1, metavar="[ORG [DIM]] [REV-RANGE]")
@click.option("--policy", "policy", default=None, metavar="P", help="Only this policy (default: every policy).")
@click.option("--all", "every", is_flag=True, help="List every commit, also those that move nothing.")
@output("text", "json", "markdown")
@AS_OF
@_guard
def log(world: str, rest: Tuple[str, ...], policy: Optional[str], every: bool, fmt: str, as_of: Optional[str]) -> None:
    """The commits (newest first, first parents, the world followed through renames) at which
    something of WORLD moved, of ORG, of its DIM: each with its moves and the statements they rest
    on (docs/history.md). REV-RANGE as git takes it (default HEAD: the whole history)."""
    from ..history import log as history

    org, dim, rng = _split(world, rest)
    _policy(policy)
    h = history(world, org, dim, policy, rng, every, as_of=as_of)
    if fmt == "json":
        _dump(h.to_json())
    else:
        echo(h.to_markdown() if fmt == "markdown" else h.to_text())
    broken = sum(1 for e in h.entries if e.error)
    if broken:  # said once on stderr too: the listing's lines are the world's errors (E100, ...), not this
        echo(f"provlog: the world does not load at {broken} of the commits listed, each listed with its first "
             f"error; the walk went on [{NOT_LOADED}]", err=True)
    if h.notes or broken:
        sys.exit(1)  # listed, but the history is not whole: a commit that does not load, a shallow clone


@click.command()
@click.argument("world")
@click.argument("org")
@click.argument("dim")
@click.option("--policy", "policy", default="standard", show_default=True, metavar="P", help="Evidence policy.")
@output("text", "json")
@AS_OF
@_guard
def blame(world: str, org: str, dim: str, policy: str, fmt: str, as_of: Optional[str]) -> None:
    """The commit that gave ORG's DIM its current number, and for each statement at a leaf of its
    current proof, the commit that last changed it (docs/history.md)."""
    from ..history import blame as blamed

    _policy(policy)
    b = blamed(world, org, dim, policy, as_of=as_of)
    if fmt == "json":
        _dump(b.to_json())
    else:
        echo(b.to_text())
    if b.notes:
        sys.exit(1)


__all__: List[str] = ["blame", "log"]
