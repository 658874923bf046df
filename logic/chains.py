"""The ownership chains an edit of stakes reaches, derived again on their part of the stake graph
(issue 27, delete-and-rederive; logic/spread.py calls it, logic/structure.py has the rules).

``chain(A, T, P, Path, Fs, N)`` (F.1) grows from its first argument: a chain of holder A is a stake of
A, then at most five more stakes, each from the subject the one before reached (left-recursive,
bounded by ``N1 < 6``). So an edit that adds, removes or changes stakes changes the chains of exactly
the holders that reach one of the changed stakes' holders by at most five stakes (in the old stakes or
the new), and no other holder's: every chain through a changed stake starts at such a holder.
:func:`rederive` derives the chains of those holders again, by the rule book's own ``chain`` rules,
over the new stakes they reach by at most six, and keeps every other holder's chains from the store.

It applies only while the rules are the ones this reasoning is about (:data:`RULES_READ`, checked
text for text): any other ``chain`` makes it return None, and the caller derives ``chain`` whole.

``chain``'s dependents (:data:`DEPENDENTS_READ`): ``effective_stake[A, T]`` sums the chains of holder
A to T, ``stake_total(A, T, E)`` reads ``effective_stake[A, T]``, ``chain_fact(A, T, F)`` reads the
chains of A to T; each row's first argument is the chain's holder A, and no rule of theirs reads
anything but ``chain`` (and ``effective_stake``). So their rows of holder A are made from the chains
of holder A alone: when only the chains of the holders :func:`holders` names changed, only those
holders' rows can change. :func:`dependents` derives them again, by the rule book's own rules, over
those holders' chains (the caller keeps every other holder's rows from the store); None if the rules
are not :data:`DEPENDENTS_READ`.

    >>> rows = rederive(old, new_stakes, rules)   # doctest: +SKIP
    >>> again = dependents(rows_of_the_holders, rules, 3)   # doctest: +SKIP
"""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

#: the ``chain`` rules (logic/structure.py) this module's bound is proved for
RULES_READ = (
    "chain(A, T, P, Path, Fs, N) <= stake(A, T, P, F) & (Path == (A, T)) & (Fs == (F,)) & (N == 1)",
    "chain(A, T, P, Path, Fs, N) <= chain(A, M, P1, Path1, Fs1, N1) & (N1 < 6) & stake(M, T, P2, F) & "
    "T._not_in(Path1) & (Path == Path1 + (T,)) & (Fs == Fs1 + (F,)) & (N == N1 + 1) & (P == P1 * P2)",
)
#: the rules of ``chain``'s dependents (logic/structure.py) that :func:`dependents` is proved for
DEPENDENTS_READ = (
    "(effective_stake[A, T] == sum_(P, for_each=Path)) <= chain(A, T, P, Path, Fs, N)",
    "stake_total(A, T, E) <= (effective_stake[A, T] == E)",
    "chain_fact(A, T, F) <= chain(A, T, P, Path, Fs, N) & F.in_(Fs)",
)
#: the relations those rules define, each keyed by the chain's holder (its first argument)
DEPENDENTS = ("effective_stake", "stake_total", "chain_fact")
#: a chain's stakes at most (``N1 < 6``: a sixth link is the last)
LINKS = 6


def holders(old: Iterable[Tuple], new: Iterable[Tuple]) -> Set[str]:
    """The holders whose chains a change from stakes ``old`` to ``new`` can change: the changed stakes'
    holders and every holder reaching one of them by at most ``LINKS - 1`` stakes, old or new."""
    old, new = set(old), set(new)
    into: Dict[str, Set[str]] = defaultdict(set)  # subject -> its holders
    for holder, subject, *_ in old | new:
        into[subject].add(holder)
    reached = {r[0] for r in old ^ new}
    edge = set(reached)
    for _ in range(LINKS - 1):
        edge = {h for s in edge for h in into.get(s, ())} - reached
        reached |= edge
    return reached


def _reachable(stakes: Sequence[Tuple], start: Set[str]) -> List[Tuple]:
    """The stakes a chain from ``start`` can take (those within ``LINKS`` stakes of it)."""
    out: Dict[str, List[Tuple]] = defaultdict(list)
    for r in stakes:
        out[r[0]].append(r)
    seen, edge, kept = set(start), set(start), []
    for _ in range(LINKS):
        step = [r for h in edge for r in out.get(h, ())]
        kept += step
        edge = {r[1] for r in step} - seen
        seen |= edge
    return kept


def rederive(stored: Sequence[Tuple], old_stakes: Sequence[Tuple], new_stakes: Sequence[Tuple],
             rules, again: Optional[Set[str]] = None) -> Optional[List[Tuple]]:
    """The new world's ``chain`` rows: ``stored`` (the store's) but those of the holders the stake edit
    reaches (``again``: :func:`holders`, if known), which are derived again; None if the rules are not
    :data:`RULES_READ`. ``stored`` may hold only those holders' rows: the result is then only theirs."""
    from .engine import Program
    from .strata import materialize

    mine = [r for r in rules if r.head_name == "chain"]
    if tuple(r.text for r in mine) != RULES_READ:
        return None
    if again is None:
        again = holders(old_stakes, new_stakes)
    program = Program()
    program.declare("stake", 4)
    program.assert_rows("stake", _reachable(new_stakes, again))
    program.load_rules(list(RULES_READ))
    materialize(program, mine, [["chain"]], set())
    got = [tuple(r) for r in program.table("chain") if r[0] in again] if "chain" in program.tables else []
    return [r for r in stored if r[0] not in again] + got


def dependents(chains: Sequence[Tuple], rules, arity: int) -> Optional[Dict[str, List[Tuple]]]:
    """The rows of :data:`DEPENDENTS` made from ``chains`` (the new chains of the holders an edit
    reaches), by the rule book's rules (``effective_stake`` a function of ``arity`` keys: its keys, then
    its value); None if the rules are not :data:`DEPENDENTS_READ`."""
    from .engine import Program
    from .strata import materialize, plan

    mine = [r for r in rules if r.head_name in DEPENDENTS]
    if tuple(r.text for r in mine) != DEPENDENTS_READ:
        return None
    program = Program()
    program.declare("chain", 6)
    program.assert_rows("chain", chains)
    program.load_rules(list(DEPENDENTS_READ))
    materialize(program, mine, plan(mine, list(DEPENDENTS)), set())
    out = {n: [tuple(r) for r in program.table(n)] if n in program.tables else [] for n in DEPENDENTS[1:]}
    out["effective_stake"] = [tuple(r) for r in program.match("effective_stake", arity, [], function=True)]
    return out
