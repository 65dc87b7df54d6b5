"""Shared helpers for the AI tests."""

import random

from games.ai.tree import TREE


def random_table(seed):
    """A strategy table with random rows, some actions never taken."""
    rng = random.Random(seed)
    table = []
    for n, p in enumerate(TREE.player):
        if p < 0:
            table.append(None)
            continue
        k = len(TREE.actions[n])
        rows = []
        for _ in range(121):
            w = [rng.random() ** 3 for _ in range(k)]
            if rng.random() < 0.3:
                w[rng.randrange(k)] = 0.0
            if not any(w):
                w[0] = 1.0
            rows.append(tuple(x / sum(w) for x in w))
        table.append(rows)
    return table
