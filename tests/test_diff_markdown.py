"""`provlog diff --format markdown` pasted as a pull request comment shows hostile statement text as
written (issue 28): a span quoting ``|``, ``</details>`` or a run of backticks neither breaks the
table, nor closes the code fence of the statements block, nor becomes HTML. Found by an audit: a
cite quoting ``` closed the fence and the rest of the comment rendered as markdown.
"""
import os
import re

from provlog import World
from provlog.queries.diff import compare

OLD = """\
org ev "Evaluator" type=nonprofit
entity reg "Registry" kind=public
source own "Evaluator page" publisher=ev status=confirmed tier=2
source rev "Registry | review `x` </details>" publisher=reg status=confirmed tier=1
signal g4 ev G for floor 4 rule=G.7
cite g4 own "Five of seven directors are independent."
"""
HOSTILE = 'cite g4 rev "board | independent </details> ```` <b>x</b>"\n'


def test_hostile_text_stays_text(tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        for name, body in (("old", OLD), ("new", OLD + HOSTILE)):
            os.makedirs(name)
            with open(f"{name}/a.facts", "w") as f:
                f.write(body)
        md = compare(World.load("old"), World.load("new"), "standard").to_markdown()
    finally:
        os.chdir(here)
    lines = md.splitlines()
    # G.7: the tier-1 span lifts g4's floor 4 (held at 3 on the old side): one row, resting on the cite
    rows = [line for line in lines if line.startswith("| ev ")]
    assert len(rows) == 1 and "| 3 | 4 | G.7 → G.7 |" in rows[0]
    # six cells: every | of the text is escaped
    assert len(re.findall(r"(?<!\\)\|", rows[0])) == 7, rows[0]
    # no HTML but the line breaks provlog writes, no code span
    assert re.findall(r"<[^>]*>", rows[0]) == ["<br>"] * rows[0].count("<br>") and not re.search(r"(?<!\\)`", rows[0])
    assert "&lt;/details&gt;" in rows[0]
    # the statements block: a fence longer than any backtick run inside it, closed once at its end
    start = lines.index("<details><summary>Statements</summary>") + 2
    fence = lines[start]
    assert set(fence) == {"`"} and len(fence) == 5
    end = lines.index(fence, start + 1)
    assert lines[end + 2] == "</details>" and HOSTILE.strip() in "\n".join(lines[start + 1:end])
