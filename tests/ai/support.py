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


def swap_other_hands(deck, dealer, seat, rng):
    """The same deck for `seat`, with every other seat's cards shuffled among them."""
    mine = [i for i in range(20) if (dealer + 1 + i) % 4 == seat]
    others = [i for i in range(20) if i not in mine]
    cards = [deck[i] for i in others]
    rng.shuffle(cards)
    new = list(deck)
    for i, card in zip(others, cards, strict=True):
        new[i] = card
    return tuple(new)
