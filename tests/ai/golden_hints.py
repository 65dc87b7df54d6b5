"""The coach's answers at a fixed set of spots, as the golden master for tests/ai/test_coach.py.

`golden_hints.json` was written by this script with the coach as it stood before its values
were computed from precomputed tables (commit 25d9847, which summed over every deal at each
hint). Any later coach must give the very same exact fractions. Regenerate (it takes a minute
or so of CPU with that coach) with:

    uv run python -m tests.ai.golden_hints

The spots: for every AI level, a deal's first decision at each position with a few hands, and
spots reached by walking down the tree with random actions (shallow ones favoured, as in
play), each with a random hand; some of those the AI seats' table never reaches, where the
coach falls back on the deals alone.
"""

import json
import random
from fractions import Fraction
from pathlib import Path

from games.ai import AI_LEVELS
from games.ai.coach import Hint, coach
from games.ai.hands import N_HANDS
from games.ai.tables import engine_legal, view_at
from games.ai.tree import TREE

PATH = Path(__file__).with_name("golden_hints.json")


def spots() -> list[tuple[str, int, int]]:
    """(ai_level, node, hand) for every spot of the fixture."""
    rng = random.Random(27)
    firsts = [0]
    for _ in range(3):  # the first decision of positions 2, 3 and 0: after calls
        firsts.append(TREE.children[firsts[-1]][TREE.actions[firsts[-1]].index("call")])
    out = []
    for level in AI_LEVELS:
        for node in firsts:
            for hand in rng.sample(range(N_HANDS), 2):
                out.append((level, node, hand))
        for _ in range(16):
            node = 0
            while rng.random() < 0.6:
                child = rng.choice(TREE.children[node])
                if TREE.player[child] < 0:
                    break
                node = child
            out.append((level, node, rng.randrange(N_HANDS)))
    return out


def legal_at(node: int) -> tuple[str, ...]:
    return tuple(a for a in engine_legal(TREE, node, looked=True) if a != "look")


def hint_at(level: str, node: int, hand: int) -> Hint:
    return coach(view_at(TREE, node, hand), legal_at(node), level)


def as_json(hint: Hint) -> dict:
    def text(x):
        return None if x is None else str(Fraction(x))

    return {
        "actions": [
            [a.action, text(a.hard_probability), text(a.expected_value)] for a in hint.actions
        ],
        "values_are_exact": hint.values_are_exact,
        "hand_rank": hint.hand_rank,
        "showdown_win": text(hint.showdown_win),
        "showdown_tie": text(hint.showdown_tie),
    }


def main() -> None:
    fixture = [
        {"level": level, "history": list(TREE.history[node]), "hand": hand}
        | {"hint": as_json(hint_at(level, node, hand))}
        for level, node, hand in spots()
    ]
    PATH.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {len(fixture)} spots to {PATH}")


if __name__ == "__main__":
    main()
