"""Every level as a strategy table over the betting tree, to measure it exactly.

The heuristics are asked through the same `SeatView` a real seat gets (dealer at seat 0,
so seats equal positions). `easy` sometimes acts before looking; its table is the
behaviour that results once that is averaged out (the chance of each action given the
hand and the betting), which is what an opponent who ignores looks plays against. A
best response that also watched `easy`'s looks could gain a little more.
"""

from fractions import Fraction

from games.engine import ALL_HANDS, MAX_STAKE, SEATS, SeatView, allowed_actions

from . import heuristics
from .hands import N_HANDS
from .tree import TREE, Tree


def _histories(tree: Tree) -> list[tuple[tuple[int, str], ...]]:
    """Per node, its history as the engine records it: (seat, action), dealer at seat 0."""
    out: list = [None] * tree.size
    out[0] = ()
    for n in range(tree.size):
        for action, child in zip(tree.actions[n], tree.children[n], strict=True):
            out[child] = out[n] + ((tree.player[n], action),)
    return out


def view_at(tree: Tree, node: int, hand: int | None, history=None) -> SeatView:
    """The view of the seat to act at `node` (dealer at seat 0), having looked at `hand`
    (a class index) or, with None, still blind."""
    seat = tree.player[node]
    stakes = tree.stakes[node]
    looked = tuple(s == seat and hand is not None for s in range(SEATS))
    return SeatView(
        seat=seat,
        status="in_deal",
        series=1,
        deal_number=1,
        dealer=0,
        turn=seat,
        pot=tree.pot[node],
        high_stake=max(stakes),
        stakes=tuple(stakes),
        folded=tree.folded[node],
        looked=looked,
        totals=(Fraction(0),) * SEATS,
        your_cards=None if hand is None else ALL_HANDS[hand],
        history=_histories(tree)[node] if history is None else history,
        last_result=None,
        winners=None,
    )


def engine_legal(tree: Tree, node: int, looked: bool) -> tuple[str, ...]:
    """What the engine allows at `node` (fold when matched included, look if not yet)."""
    stakes = tree.stakes[node]
    matched = stakes[tree.player[node]] == max(stakes)
    return allowed_actions(looked=looked, matched=matched, can_raise=max(stakes) < MAX_STAKE)


def _row(distribution: dict[str, float], actions: tuple[str, ...]) -> tuple[float, ...]:
    extra = set(distribution) - set(actions)
    if any(distribution[a] > 0 for a in extra):
        raise ValueError(f"a level chose {extra} outside the tree's actions {actions}")
    total = sum(distribution.get(a, 0.0) for a in actions)
    return tuple(distribution.get(a, 0.0) / total for a in actions)


def normal_table(tree: Tree = TREE):
    table = []
    histories = _histories(tree)
    for n, p in enumerate(tree.player):
        if p < 0:
            table.append(None)
            continue
        legal = engine_legal(tree, n, looked=True)
        table.append(
            [
                _row(heuristics.normal(view_at(tree, n, h, histories[n]), legal), tree.actions[n])
                for h in range(N_HANDS)
            ]
        )
    return table


def easy_table(tree: Tree = TREE):
    """easy's behaviour per (node, hand), its looks averaged out: walk the tree with the
    chance that easy got here still blind and the chance that it got here having looked."""
    histories = _histories(tree)
    table: list = [None] * tree.size
    for h in range(N_HANDS):
        # reach[n] = (blind, looked): easy's own chance of playing its way to n either way.
        reach = {0: (1.0, 0.0)}
        rows: dict[int, tuple[float, ...]] = {}
        for n in range(tree.size):  # parents come before children (depth-first numbering)
            p = tree.player[n]
            if p < 0:
                continue
            blind, looked = reach.get(n, (0.0, 0.0))
            actions = tree.actions[n]
            after_look = heuristics.easy_looked(
                view_at(tree, n, h, histories[n]), engine_legal(tree, n, True)
            )
            without = heuristics.easy_blind(
                view_at(tree, n, None, histories[n]), engine_legal(tree, n, False)
            )
            look = heuristics.LOOK_CHANCE
            total = blind + looked
            row = []
            for action, child in zip(actions, tree.children[n], strict=True):
                stays_blind = blind * (1 - look) * without.get(action, 0.0)
                now_looked = (blind * look + looked) * after_look.get(action, 0.0)
                if tree.player[child] >= 0:
                    b, lk = reach.get(child, (0.0, 0.0))
                    reach[child] = (b + stays_blind, lk + now_looked)
                row.append(stays_blind + now_looked)
            if total > 0:
                rows[n] = _row(dict(zip(actions, row, strict=True)), actions)
            else:  # easy never gets here with this hand; any answer will do
                rows[n] = _row(after_look, actions)
        for n, row in rows.items():
            if table[n] is None:
                table[n] = [None] * N_HANDS
            table[n][h] = row
    return table


def level_table(level: str, tree: Tree = TREE):
    if level == "hard":
        from .strategy import load_strategy

        return load_strategy().table()
    if level == "normal":
        return normal_table(tree)
    if level == "easy":
        return easy_table(tree)
    raise ValueError(f"unknown AI level {level!r}")
