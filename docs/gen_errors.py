"""Build docs/errors.md from the error catalog (provlog.facts.errors.CATALOG).

    python docs/gen_errors.py            # print the page
    python docs/gen_errors.py --write    # rewrite docs/errors.md
    python docs/gen_errors.py --check    # exit 1 if docs/errors.md is stale

Every example is loaded for real, and the page shows what provlog printed for
it, so the page cannot drift from the loader: an example that loads cleanly,
or that produces any other code than its own, stops the script.

An example is the text of ``world.facts``, loaded as a folder world beside
``prelude.facts`` (errors.EXAMPLE_PRELUDE) under ``--strict``; ``<64 hex>``
stands for a 64-character lowercase hex hash and a lone surrogate ``\\udcXX``
for the raw byte 0xXX. An example in parentheses describes an input too big to
show; :data:`BUILDERS` makes it (as a single-file world).

An error of a command (errors.COMMAND_CATALOG: not a world's text but what the command was asked,
a history that git cannot walk) is run for real too: :data:`RUNS` makes its folder (a git repository
of fixed commits, so the ids printed are the same on every run) and the command is run there as a
new ``python -m provlog`` process; the page shows what it printed and its exit code, and the script
stops unless the output names the code.
"""
from __future__ import annotations

import argparse
import html
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from provlog.facts import CATALOG, LoadError, load_world
from provlog.facts import reading
from provlog.facts.errors import COMMAND_CATALOG, EXAMPLE_PRELUDE, WARNINGS

PAGE = Path(__file__).resolve().parent / "errors.md"
HEX64 = "0123456789abcdef" * 4


def _include_chain(folder: Path) -> Path:
    """world.facts includes d1.facts, which includes d2.facts, ... one deeper than the limit."""
    n = reading.MAX_INCLUDE_DEPTH + 1
    (folder / "world.facts").write_text('include "d1.facts"\n', encoding="utf-8")
    for i in range(1, n + 1):
        (folder / f"d{i}.facts").write_text(f'include "d{i + 1}.facts"\n' if i < n else 'lab deep "Deep"\n',
                                            encoding="utf-8")
    return folder / "world.facts"


def _symlink_out(folder: Path) -> Path:
    """world/ holds the prelude and outside.facts, a symlink to ../outside.facts (outside world/)."""
    (folder / "outside.facts").write_text('lab beta "Beta"\n', encoding="utf-8")
    world = folder / "world"
    world.mkdir()
    (world / "prelude.facts").write_text(EXAMPLE_PRELUDE, encoding="utf-8")
    (world / "outside.facts").symlink_to(Path("..") / "outside.facts")
    return world


def _comment_only(folder: Path) -> Path:
    (folder / "world.facts").write_text("# nothing stated yet\n", encoding="utf-8")
    return folder / "world.facts"


#: code -> a function that writes the described example into a folder and returns the world to load
BUILDERS: Dict[str, Callable[[Path], Path]] = {"E153": _include_chain, "E154": _symlink_out, "E155": _comment_only}


# -- the errors of a command, run in a folder of their own ------------------------------------------
#: a commit's author and committer, fixed (with its date): the same commits, the same ids, on every run
GIT_ENV = {"GIT_AUTHOR_NAME": "curator", "GIT_AUTHOR_EMAIL": "curator@example.org", "GIT_COMMITTER_NAME": "curator",
           "GIT_COMMITTER_EMAIL": "curator@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
#: the world the history examples commit, and the edit of their second commit (the floor 3 -> 2: G 3 -> 2)
HISTORY_WORLD = EXAMPLE_PRELUDE + 'signal evalco-g evalco G for floor 3 rule=G.2\ncite evalco-g s0 "a conflict policy"\n'


def _env(folder: Path) -> Dict[str, str]:
    """The environment of a run: git sees no repository above ``folder``, nor this user's settings."""
    return dict(os.environ, GIT_CEILING_DIRECTORIES=str(folder), XDG_CACHE_HOME=str(folder / "cache"), **GIT_ENV)


def _git(folder: Path, cwd: Path, *args: str, day: int = 1) -> None:
    date = f"2026-09-{day:02}T12:00:00+00:00"
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env=dict(_env(folder), GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date))


def _repo(folder: Path, *texts: str) -> Path:
    """``folder/repo``, a git repository whose world ``w/`` is each of ``texts`` in turn, one commit each."""
    repo = folder / "repo"
    (repo / "w").mkdir(parents=True)
    _git(folder, repo, "init", "-q", "-b", "main")
    for day, text in enumerate(texts, 1):
        (repo / "w" / "world.facts").write_text(text, encoding="utf-8")
        _git(folder, repo, "add", "-A")
        _git(folder, repo, "commit", "-qm", f"edit {day}", day=day)
    return repo


def _no_repository(folder: Path) -> Path:
    """A world ``w/`` in a folder no git repository holds."""
    (folder / "plain" / "w").mkdir(parents=True)
    (folder / "plain" / "w" / "world.facts").write_text(HISTORY_WORLD, encoding="utf-8")
    return folder / "plain"


def _two_commits(folder: Path) -> Path:
    """A repository of two commits of ``w/``."""
    return _repo(folder, HISTORY_WORLD, HISTORY_WORLD.replace("floor 3", "floor 2"))


def _broken_commit(folder: Path) -> Path:
    """A repository whose second commit of ``w/`` leaves a string unterminated, and a third that mends it."""
    return _repo(folder, HISTORY_WORLD, HISTORY_WORLD + 'lab beta "Beta\n', HISTORY_WORLD.replace("floor 3", "floor 2"))


def _shallow_clone(folder: Path) -> Path:
    """A clone with only the newest two commits (``git clone --depth 2``) of a repository of three
    commits of ``w/``, the third putting the floor back."""
    repo = _repo(folder, HISTORY_WORLD, HISTORY_WORLD.replace("floor 3", "floor 2"), HISTORY_WORLD)
    _git(folder, folder, "clone", "-q", "--depth", "2", repo.as_uri(), "clone")
    return folder / "clone"


def _uncommitted(folder: Path) -> Path:
    """The two commits' repository, and a world ``new/`` beside ``w/``, never committed."""
    repo = _two_commits(folder)
    (repo / "new").mkdir()
    (repo / "new" / "world.facts").write_text(HISTORY_WORLD, encoding="utf-8")
    return repo


#: code -> a function that makes the folder its command runs in (COMMAND_CATALOG), returning it
RUNS: Dict[str, Callable[[Path], Path]] = {"E185": _no_repository, "E186": _two_commits, "E187": _broken_commit,
                                           "E188": _shallow_clone, "E189": _uncommitted}


def run(code: str, command: str) -> Tuple[str, int]:
    """Run an error's command (``provlog ...``) where its builder says; what it printed (stdout, then
    stderr) and its exit code. The script stops unless the code is named and the exit is 1 or 2."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp).resolve()
        cwd = RUNS[code](folder)
        argv = command.split()
        got = subprocess.run([sys.executable, "-m", "provlog", *argv[1:]], cwd=cwd, capture_output=True,
                             text=True, env=_env(folder))
    out = (got.stdout + got.stderr).rstrip("\n").replace(str(folder), "<tmp>")
    if f"[{code}]" not in out or got.returncode not in (1, 2) or "Traceback" in out:
        raise SystemExit(f"gen_errors: {code}: {command!r} exits {got.returncode} and prints {out!r}")
    return out, got.returncode


def _commands() -> List[str]:
    out = ["", "## Errors of a command", "",
           "These are about what a command was asked, not about a world's text: one line on stderr (or a",
           "listing that says it), never a traceback, exit 1 or 2. Each example is run for real: the folder",
           "it describes is made (a git repository of fixed commits), the command is run in it, and what",
           "follows is what provlog printed.", "",
           "| code | what is wrong |", "|---|---|"]
    out += [f"| [{code}](#{code.lower()}) | {_prose(what)} |" for code, (what, _) in COMMAND_CATALOG.items()]
    for code, (what, command) in COMMAND_CATALOG.items():
        printed, status = run(code, command)
        made = " ".join((RUNS[code].__doc__ or "").split()).replace("``", "`")
        out += ["", f"## {code}", "", f"What is wrong: {_prose(what)}.", "", f"Example: {_prose(made)}", "",
                "```", f"$ {command}", printed, "```", "", f"exit {status}"]
    return out


def example_bytes(example: str) -> bytes:
    """The bytes of an example's world.facts."""
    return (example.replace("<64 hex>", HEX64) + "\n").encode("utf-8", "surrogateescape")


def shown(example: str) -> str:
    """An example as the page shows it: raw bytes as \\xNN."""
    return "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else c for c in example)


def build(code: str, example: str, folder: Path) -> Path:
    if example.startswith("("):
        if code not in BUILDERS:
            raise SystemExit(f"gen_errors: {code}: described example {example!r} has no builder")
        return BUILDERS[code](folder)
    (folder / "prelude.facts").write_text(EXAMPLE_PRELUDE, encoding="utf-8")
    (folder / "world.facts").write_bytes(example_bytes(example))
    return folder


def diagnose(code: str, example: str) -> List:
    """Load the example; its diagnostics (all of them carry ``code``, or the script stops)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        world = build(code, example, folder)
        try:
            load_world(world, strict=True, root=folder)
        except LoadError as e:
            diags = e.diagnostics
        else:
            raise SystemExit(f"gen_errors: {code}: the example loads cleanly: {example!r}")
    wrong = [d for d in diags if d.code != code]
    if wrong:
        raise SystemExit(f"gen_errors: {code}: the example also produces {', '.join(str(d) for d in wrong)}")
    return diags


def _prose(text: str) -> str:
    """Catalog text for markdown prose: `<id>` is not an HTML tag."""
    return html.escape(text, quote=False).replace("|", "/")


def generate() -> str:
    out = [
        "# Load errors",
        "",
        "<!-- Generated by docs/gen_errors.py from provlog.facts.errors.CATALOG; do not edit. -->",
        "",
        "provlog loads a world whole or not at all. `provlog check WORLD` prints every",
        "error of every file as `file:line:col: message [code]`, the source line and a",
        "caret under the place, then exits 1; nothing of the world is loaded. The errors",
        "of a command (a history git cannot walk) are [below](#errors-of-a-command).",
        "",
        "Each example below is the whole of `world.facts`, loaded with `--strict` as a",
        "folder world beside this `prelude.facts`, which declares the ids the examples",
        "name; what follows it is what provlog prints for it.",
        "",
        "```",
        EXAMPLE_PRELUDE.rstrip("\n"),
        "```",
        "",
        "| code | what is wrong |",
        "|---|---|",
    ]
    out += [f"| [{code}](#{code.lower()}) | {_prose(what)} |" for code, (what, _) in CATALOG.items()]
    for code, (what, example) in CATALOG.items():
        diags = diagnose(code, example)
        out += ["", f"## {code}", "", f"What is wrong: {_prose(what)}.", ""]
        if example.startswith("("):
            out += [f"Example: {_prose(example[1:-1].rstrip('.'))}.", ""]
        else:
            note = " (`\\xNN` is one raw byte)" if shown(example) != example else ""
            out += [f"Example{note}:", "", "```", shown(example), "```", ""]
        out += ["provlog prints:", "", "```", "\n".join(d.render() for d in diags), "```"]
    out += _commands()
    out += ["", "## Warnings", "",
            "`provlog check` prints these after its `ok` line, as `file:line:col: warning: message [code]`,",
            "and still exits 0: the world loaded and every answer stands.", "",
            "| code | what is probably not meant |", "|---|---|"]
    out += [f"| {code} | {_prose(what)} |" for code, what in WARNINGS.items()]
    return "\n".join(out + _exit_codes()) + "\n"


def _exit_codes() -> List[str]:
    """The command line's exit codes, the last resort's among them (provlog.queries.internal)."""
    from provlog.queries.internal import DEBUG_ENV, EXIT_INTERNAL
    return ["", "## Exit codes", "",
            "| code | what it means |", "|---|---|",
            "| 0 | ok |",
            "| 1 | a check failed: load errors (above), `verify`, `test` |",
            "| 2 | usage: an unknown org, dimension, policy, preset or option; a malformed goal |",
            f"| {EXIT_INTERNAL} | an internal error: a bug in provlog, not in the world |", "",
            "Every error a user can cause is one of the located errors above or a one-line usage error;",
            "provlog never prints a Python traceback for them. Anything else is a bug in provlog, and the",
            "command line reports it in one line and exits " + str(EXIT_INTERNAL) + ":", "",
            "```",
            f"provlog: internal error: KeyError: 'x' (a bug in provlog; {DEBUG_ENV}=1 shows the traceback)",
            "```", "",
            f"Run the command again with `{DEBUG_ENV}=1` in the environment for Python's traceback, and",
            "report it with the world that caused it."]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"rewrite {PAGE.name}")
    ap.add_argument("--check", action="store_true", help=f"exit 1 if {PAGE.name} differs from the output")
    args = ap.parse_args(argv)
    page = generate()
    if args.write:
        PAGE.write_text(page, encoding="utf-8")
    elif args.check:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != page:
            print(f"{PAGE} is stale: run python docs/gen_errors.py --write", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
