"""Benchmarks for provlog (issue 5).

Run from the repository root, never installed:

    python -m bench generate --orgs 200 --seed 1 --out bench/out/w200
    python -m bench run --sizes 50,200,1000 [--seed N] [--out bench/out/results.json] [--clingo]
    python -m bench check --orgs 50 --seed 1          # provlog vs clingo on one world

``generate`` writes seeded synthetic worlds in the fact language,
``run`` times provlog on them (one subprocess per size), and
``clingo_check`` is a second, independent evaluation of section 0 and the
structural rules in ASP, read from SEMANTICS.md.
"""
