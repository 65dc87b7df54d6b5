"""A fast model of one deal's betting tree, for training and measuring the AI.

Seats are named by *position*: position 0 is the dealer, position 1 acts first, and so on
in turn order (position = (seat - dealer) mod 4). Looking is left out: it is free, does
not end the turn and changes no stake, so the trained strategy always looks first and
the tree holds only call / hold / raise / fold. Folding while already matched (possible
only for the dealer's first turn when nobody raised) is a dominated choice - holding
instead can never do worse - and is left out unless `matched_fold=True`.

`tests/ai/test_tree.py` walks every betting sequence through both this model and
`games.engine` and checks that they agree on the legal actions, on how the deal ends
and on every seat's score.
"""

from dataclasses import dataclass, field
from fractions import Fraction

from games.engine import MAX_STAKE, OPENING_STAKE, SEATS, allowed_actions

ACTIONS: tuple[str, ...] = ("call", "hold", "raise", "fold")


@dataclass
class Tree:
    """Nodes are numbered in depth-first order; node 0 is the start of the deal."""

    player: list[int] = field(default_factory=list)
    """Position to act, or -1 at a terminal node."""
    actions: list[tuple[str, ...]] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)
    history: list[tuple[str, ...]] = field(default_factory=list)
    """The betting actions (no looks) that lead to each node."""
    stakes: list[tuple[int, ...]] = field(default_factory=list)
    """Stakes by position on reaching the node."""
    folded: list[tuple[bool, ...]] = field(default_factory=list)
    pot: list[int] = field(default_factory=list)
    showdown: list[bool] = field(default_factory=list)
    """At a terminal node: True for a showdown, False when one seat is left."""
    index: dict[tuple[str, ...], int] = field(default_factory=dict)
    """Betting history -> node."""

    @property
    def size(self) -> int:
        return len(self.player)

    def decision_nodes(self) -> list[int]:
        return [n for n, p in enumerate(self.player) if p >= 0]

    def terminal_nodes(self) -> list[int]:
        return [n for n, p in enumerate(self.player) if p < 0]

    def payoffs(self, node: int, strengths) -> tuple[Fraction, ...]:
        """Exact scores by position at terminal `node`, given each position's hand strength
        (any comparable values; larger wins, equal ties)."""
        stakes, folded, pot = self.stakes[node], self.folded[node], self.pot[node]
        active = [p for p in range(SEATS) if not folded[p]]
        best = max(strengths[p] for p in active)
        winners = [p for p in active if strengths[p] == best]
        share = Fraction(pot, len(winners))
        return tuple((share if p in winners else 0) - stakes[p] for p in range(SEATS))


def build_tree(matched_fold: bool = False) -> Tree:
    """The betting tree of one deal, from the rules in docs/rules.md."""
    tree = Tree()

    def add(history, stakes, folded, acted, high, pot, turn) -> int:
        node = tree.size
        tree.index[history] = node
        tree.history.append(history)
        tree.stakes.append(tuple(stakes))
        tree.folded.append(tuple(folded))
        tree.pot.append(pot)
        if turn is None:
            tree.player.append(-1)
            tree.actions.append(())
            tree.children.append(())
            tree.showdown.append(sum(not f for f in folded) > 1)
            return node
        matched = stakes[turn] == high
        # Seats in the tree have looked; folding when matched is left out unless asked for.
        allowed = allowed_actions(looked=True, matched=matched, can_raise=high < MAX_STAKE)
        legal = tuple(a for a in allowed if a != "fold" or not matched or matched_fold)
        tree.player.append(turn)
        tree.actions.append(legal)
        tree.children.append(())
        tree.showdown.append(False)
        kids = []
        for action in legal:
            s, f, a, h, p = list(stakes), list(folded), list(acted), high, pot
            if action == "call":
                p += h - s[turn]
                s[turn] = h
            elif action == "raise":
                h += 1
                p += h - s[turn]
                s[turn] = h
                a = [False] * SEATS
            elif action == "fold":
                f[turn] = True
            a[turn] = True
            kids.append(add(history + (action,), s, f, a, h, p, _next_turn(s, f, a, h, turn)))
        tree.children[node] = tuple(kids)
        return node

    stakes = [0] * SEATS
    stakes[0] = OPENING_STAKE
    add((), stakes, [False] * SEATS, [False] * SEATS, OPENING_STAKE, OPENING_STAKE, 1 % SEATS)
    return tree


def _next_turn(stakes, folded, acted, high, after) -> int | None:
    active = [p for p in range(SEATS) if not folded[p]]
    if len(active) == 1:
        return None
    if all(acted[p] and stakes[p] == high for p in active):
        return None
    p = after
    while True:
        p = (p + 1) % SEATS
        if not folded[p]:
            return p


TREE: Tree = build_tree()
"""The training tree: 1,804 nodes, 788 of them decisions."""
