"""Big registers through DuckDB: keep what is within reach of the world.

A national register holds millions of statements; a world needs the few
within N relationship links of its own orgs and labs. DuckDB reads the JSON
Lines file as text (one row a line, its line number kept), pulls the record
ids and links out with its JSON functions, and walks the links with a
recursive query; only the records it keeps are parsed in Python.

    >>> from provlog.importers.register import select_bods     # doctest: +SKIP
    >>> recs, (kept, read), per_file = select_bods([Path("gb.jsonl")], {"veridane systems"}, 2)  # doctest: +SKIP
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Sequence, Set, Tuple

from .common import LEGAL_FORMS
from .records import LINES, ImportFailure, Record, read_lines

#: norm() of common.py, in SQL: lower case, words only, trailing legal forms dropped.
_NORM = ("regexp_replace(trim(regexp_replace(lower({x}), '[^a-z0-9]+', ' ', 'g')), "
         "'( (" + "|".join(LEGAL_FORMS) + "))+$', '')")

#: One row a line of the file: DuckDB reads it as one text column, a leading byte-order mark dropped.
_LINES = """
SELECT CASE WHEN n = 1 THEN ltrim(j, chr(65279)) ELSE j END AS j, n
FROM read_csv(?, columns={'j': 'VARCHAR'}, header=false, delim=chr(1), quote='', escape='',
              auto_detect=false) WITH ORDINALITY AS t(j, n)
"""

#: A person's names: every fullName (the importer then writes the one NAME_ORDER picks; a seed may be any).
_LOAD = """
CREATE TEMP TABLE stmt AS
SELECT ? AS file, n AS line,
       j->>'$.recordId' AS rid, j->>'$.recordType' AS rtype,
       j->>'$.recordDetails.subject' AS subj, j->>'$.recordDetails.interestedParty' AS party,
       CASE WHEN j->>'$.recordType' = 'person' THEN json_extract_string(j, '$.recordDetails.names[*].fullName')
            ELSE [j->>'$.recordDetails.name'] END AS names
FROM (""" + _LINES + """)
WHERE j IS NOT NULL AND trim(j) <> ''
"""

_REACH = """
WITH RECURSIVE
  adj(a, b) AS (SELECT subj, party FROM links UNION SELECT party, subj FROM links),
  reach(rid, d) AS (
    SELECT DISTINCT rid, 0 FROM (SELECT rid, unnest(names) AS name FROM all_stmt WHERE rtype IN ('entity', 'person'))
      WHERE {norm} IN (SELECT name FROM seeds)
    UNION
    SELECT adj.b, reach.d + 1 FROM reach JOIN adj ON adj.a = reach.rid WHERE reach.d < ?
  )
SELECT rid, min(d) AS d FROM reach GROUP BY rid
"""


def select_bods(files: Sequence[Path], seeds: Set[str], within: int
                ) -> Tuple[List[Record], Tuple[int, int], Dict[str, int]]:
    """The statements of records within ``within`` links of a seed name, (kept, read), and each file's count.

    Seeds are compared names (common.norm) of any of a record's names; links
    are relationships, either way.
    A relationship is kept when both its ends are; one whose interested party is
    unspecified, when its subject is (the report names it: the owner is unknown).
    """
    try:
        import duckdb
    except ImportError:
        raise ImportFailure(["--within reads registers with DuckDB: pip install 'provlog[import]'"]) from None
    for f in files:
        if f.suffix not in LINES:
            raise ImportFailure([f"{f}: --within reads JSON Lines registers (.jsonl or .ndjson), one statement a line"])
    con = duckdb.connect()
    try:
        con.execute("SET enable_progress_bar = false")  # it would draw on stdout, into a --json report
        parts = []
        for i, f in enumerate(files):
            con.execute(_LOAD.replace("stmt", f"stmt{i}"), [str(f), str(f)])
            parts.append(f"SELECT * FROM stmt{i}")
        con.execute("CREATE TEMP TABLE all_stmt AS " + " UNION ALL ".join(parts))
        con.execute("CREATE TEMP TABLE links AS SELECT subj, party FROM all_stmt "
                    "WHERE rtype = 'relationship' AND subj IS NOT NULL AND party IS NOT NULL")
        con.execute("CREATE TEMP TABLE seeds(name VARCHAR)")
        con.executemany("INSERT INTO seeds VALUES (?)", [[s] for s in sorted(seeds)])
        con.execute("CREATE TEMP TABLE kept AS " + _REACH.format(norm=_NORM.format(x="name")), [within])
        per_file = dict(con.execute("SELECT file, count(*) FROM all_stmt GROUP BY file").fetchall())
        rows = con.execute("""
            SELECT file, line FROM all_stmt s
            WHERE (rtype IN ('entity', 'person') AND rid IN (SELECT rid FROM kept))
               OR (rtype = 'relationship' AND subj IN (SELECT rid FROM kept)
                   AND (party IN (SELECT rid FROM kept) OR left(party, 1) = '{'))
            ORDER BY file, line""").fetchall()
    except duckdb.Error as e:
        raise ImportFailure([_located(con, files, e)]) from None
    finally:
        con.close()
    # DuckDB kept the line numbers only (the text of a million statements need not stay in memory):
    # read the kept lines back, one pass a file
    wanted: Dict[str, Set[int]] = {}
    for file, line in rows:
        wanted.setdefault(file, set()).add(line)
    out = []
    for file in sorted(wanted):
        lines = wanted[file]
        try:
            with open(file, encoding="utf-8-sig") as fh:
                out.extend(read_lines((t if no in lines else "" for no, t in enumerate(fh, 1)), file))
        except UnicodeDecodeError as e:
            raise ImportFailure([f"{file}: not UTF-8 text (byte {e.start})"]) from None
    return out, (len(out), sum(per_file.values())), {str(f): per_file.get(str(f), 0) for f in files}


def _located(con, files: Sequence[Path], error: Exception) -> str:
    """DuckDB's error, at the first line of the register it cannot read as JSON (where there is one)."""
    import duckdb

    for f in files:
        try:
            bad = con.execute(f"SELECT min(n) FROM ({_LINES}) WHERE trim(j) <> '' AND NOT json_valid(j)",
                              [str(f)]).fetchone()[0]
        except duckdb.Error:  # the message below stands without the line
            break
        if bad is not None:
            return f"{f}:{bad}: not JSON (DuckDB reads no JSON on this line: {str(error).splitlines()[0]})"
    return f"reading the register with DuckDB: {str(error).splitlines()[0]}"
