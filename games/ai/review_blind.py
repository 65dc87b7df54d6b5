"""The blind values a review needs most, precomputed: at each seat's first decision of a deal
(before it can have looked), for each AI table, the values `review.blind_values` would work
out, each the mean over 121 hands of a walk down the betting tree. A process that reviews
reads them from `review_blind.json`, shipped in the repo, instead of spending a tenth of a
second to a second on each the first time it meets it. Built by `python -m
games.ai.review_blind` (about a minute of CPU); named by a hash of everything the values are
computed from, so a stale file is never read (and tests/ai/test_review_blind.py fails until it
is rebuilt). Standard library only."""

import hashlib
import json
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

from games.engine import SEATS

from . import coach, coach_tables, hands, review, tree
from .tree import TREE

PATH = Path(__file__).with_name("review_blind.json")
LEVEL_TABLES = ("hard", "normal", "easy")
"""The AI tables a review takes the other seats to play at a table of one human."""


def inputs_hash() -> str:
    digest = hashlib.sha256(coach_tables.inputs_hash().encode())
    for module in (coach, review, hands, tree, sys.modules[__name__]):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:20]


def first_decisions() -> list[int]:
    """The nodes where the position to act acts for the first time in the deal: a seat's
    first decision, always blind."""
    found = []

    def walk(node: int, acted: frozenset) -> None:
        if not TREE.actions[node]:
            return
        position = TREE.player[node]
        if position not in acted:
            found.append(node)
        for child in TREE.children[node]:
            walk(child, acted | {position})

    walk(0, frozenset())
    return found


def uniform(table: str, position: int) -> review.Tables:
    """The tables of a review of the seat at `position` whose three others play `table`."""
    return tuple("hard" if p == position else table for p in range(SEATS))


def build() -> dict:
    """Every first decision's blind values under each level's table where the others' betting
    to it is possible (a history the table never bets has no review to serve)."""
    mapped = coach_tables.load()
    entries = {}
    for table in LEVEL_TABLES:
        for node in first_decisions():
            tables = uniform(table, TREE.player[node])
            weights = (coach.history_weight(tables, node, h, mapped) for h in range(121))
            if not any(weights):
                continue
            values = review.worked_blind_values(tables, node)
            entries[f"{table} {node}"] = {
                "actions": [[action, str(value)] for action, value in values.actions],
                "hard_mix": str(values.hard_mix),
            }
    return {"inputs": inputs_hash(), "values": entries}


@cache
def precomputed() -> dict[tuple[review.Tables, int], review.Values]:
    """The shipped values by (tables, node); none if the file is missing or stale."""
    try:
        data = json.loads(PATH.read_text())
    except OSError:
        return {}
    if data["inputs"] != inputs_hash():
        return {}
    out = {}
    for key, entry in data["values"].items():
        table, node = key.split()
        node = int(node)
        actions = tuple((action, Fraction(value)) for action, value in entry["actions"])
        values = review.Values(actions, Fraction(entry["hard_mix"]))
        out[uniform(table, TREE.player[node]), node] = values
    return out


if __name__ == "__main__":
    PATH.write_text(json.dumps(build(), indent=0, sort_keys=True) + "\n")
    print(PATH)
