"""`manage.py puzzle_counts` makes the miner's selection over simulated matches: the puzzles
it counts are the clear decisions of hands the table saw, and the solver's rating is rated
over every one of them."""

import io
import re

from django.core.management import call_command


def test_the_counts_add_up():
    out = io.StringIO()
    call_command("puzzle_counts", matches=3, stdout=out)
    text = out.getvalue()
    found = int(re.search(r"(\d+) puzzles", text)[1])
    solved, tried = map(int, re.search(r"(\d+) of (\d+) solved", text).groups())
    assert found > 0 and tried == found and 0 <= solved <= found
    themes = [int(n) for n in re.findall(r"^  \w+ +(\d+)$", text, re.MULTILINE)]
    assert len(themes) == 4 and sum(themes) <= found
