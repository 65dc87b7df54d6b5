"""An independent enumeration of a review's values, for the tests: every deal still possible
at a decision, one by one (as numpy vectors over the deals), its hands fixed, walked down the
betting tree with every seat's table. It shares nothing with the coach but the tree, the
tables' rows and the list of deals: no generating functions, no coach tables, no exploit.py.
Floats: it checks the exact values to a relative 1e-9."""

from functools import cache

import numpy as np

from games.ai.deals import all_deals
from games.ai.expert import archetype_rows
from games.ai.hands import STRENGTH
from games.ai.strategy import SCALE
from games.ai.tables import engine_legal
from games.ai.tree import TREE
from games.engine import SEATS


@cache
def _deals():
    deals, weights = all_deals()
    hands = np.array(deals, dtype=np.int64)
    return hands, np.array(weights, dtype=np.float64), np.array(STRENGTH)[hands]


@cache
def _probabilities(table: str, node: int) -> np.ndarray:
    """(121, actions): the table's chance of each action at `node`, per hand class."""
    return np.array([list(row) for row in archetype_rows(table)[node]], dtype=np.float64) / SCALE


def _payoff(node, q, strengths):
    stakes, folded, pot = TREE.stakes[node], TREE.folded[node], TREE.pot[node]
    if folded[q]:
        return np.full(len(strengths), -float(stakes[q]))
    if not TREE.showdown[node]:
        return np.full(len(strengths), float(pot - stakes[q]))
    active = [p for p in range(SEATS) if not folded[p]]
    best = strengths[:, active].max(axis=1)
    ties = (strengths[:, active] == best[:, None]).sum(axis=1)
    share = np.where(strengths[:, q] == best, pot / ties, 0.0)
    return share - stakes[q]


def _expected(node, q, tables, hands, strengths):
    """q's expected score from `node` on, per deal, every seat playing its table (q: hard)."""
    p = TREE.player[node]
    if p < 0 or TREE.folded[node][q]:
        return _payoff(node, q, strengths)
    probs = _probabilities("hard" if p == q else tables[p], node)[hands[:, p]]
    total = np.zeros(len(hands))
    for i, child in enumerate(TREE.children[node]):
        column = probs[:, i]
        taken = np.flatnonzero(column)  # only the deals that take this action go on
        if len(taken) == len(column):
            total += column * _expected(child, q, tables, hands, strengths)
        elif len(taken):
            below = _expected(child, q, tables, hands[taken], strengths[taken])
            total[taken] += column[taken] * below
    return total


def enumerated(tables, node: int, hand: int | None) -> tuple[dict[str, float], float]:
    """(each legal action's value, hard's mix) at `node` for the position to act, holding
    `hand` (a class) or, with None, before looking; `tables` by position."""
    q = TREE.player[node]
    hands, weights, strengths = _deals()
    if hand is not None:
        keep = hands[:, q] == hand
        hands, weights, strengths = hands[keep], weights[keep], strengths[keep]
    reach = weights.copy()
    n = 0
    for action in TREE.history[node]:
        p = TREE.player[n]
        i = TREE.actions[n].index(action)
        if p != q:
            reach *= _probabilities(tables[p], n)[hands[:, p], i]
        n = TREE.children[n][i]
    if not reach.any():
        reach = weights.copy()  # the tables never bet so: the deals alone
    keep = reach > 0
    hands, reach, strengths = hands[keep], reach[keep], strengths[keep]
    stake = TREE.stakes[node][q]
    per_action = {
        action: _expected(child, q, tables, hands, strengths)
        for action, child in zip(TREE.actions[node], TREE.children[node], strict=True)
    }
    legal = engine_legal(TREE, node, looked=hand is not None)
    for action in legal:
        per_action.setdefault(action, np.full(len(hands), -float(stake)))  # fold while matched
    own = _probabilities("hard", node)[hands[:, q]]
    mix = sum(own[:, i] * per_action[a] for i, a in enumerate(TREE.actions[node]))
    total = reach.sum()
    values = {a: float((reach * per_action[a]).sum() / total) for a in legal if a != "look"}
    if "look" in legal:
        # Per hand of q, the best action's sum; then over the hands.
        sums = [np.bincount(hands[:, q], reach * per_action[a], 121) for a in values]
        values["look"] = float(np.max(sums, axis=0).sum() / total)
    return values, float((reach * mix).sum() / total)
