"""External-sampling Monte Carlo CFR over the full game: 788 decision nodes x 121 hands.

One *iteration* samples one deal (exactly as a shuffle deals it) and walks the tree once
for each traversing position 0, 1, 2, 3: every action of the traverser is explored
and its regrets updated; the other positions sample one action from their current
strategy and add it, weighted by the iteration number, to their average strategy
(linear averaging). Plain regret matching (negative regrets kept) converges about twice
as fast here as regret matching+ (`plus=True`).

Information set = (betting node, own hand class): the trained strategy always looks
before acting, and the node determines the position, stakes, pot and who has folded.
"""

import random
from bisect import bisect
from itertools import accumulate

from games.engine import SEATS

from .deals import all_deals
from .hands import N_HANDS, STRENGTH
from .tree import TREE, Tree


class Trainer:
    def __init__(self, seed: int, tree: Tree = TREE, plus: bool = False, linear: bool = True):
        self.plus = plus
        self.linear = linear
        self.tree = tree
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = 0
        size = tree.size
        self.regret: list[list[float] | None] = [None] * (size * N_HANDS)
        self.average: list[list[float] | None] = [None] * (size * N_HANDS)
        for n, p in enumerate(tree.player):
            if p >= 0:
                k = len(tree.actions[n])
                for h in range(N_HANDS):
                    self.regret[n * N_HANDS + h] = [0.0] * k
                    self.average[n * N_HANDS + h] = [0.0] * k
        deals, weights = all_deals()
        self._deals = deals
        self._cum = list(accumulate(weights))

    def sample_deal(self) -> tuple[int, int, int, int]:
        """A deal with exactly the probability that a shuffle deals it."""
        return self._deals[bisect(self._cum, self.rng.random() * self._cum[-1])]

    def run(self, iterations: int) -> None:
        strength = STRENGTH
        traverse = self._traverse
        for _ in range(iterations):
            self.iterations += 1
            t = float(self.iterations) if self.linear else 1.0
            deal = self.sample_deal()
            s = [strength[h] for h in deal]
            for q in range(SEATS):
                traverse(q, deal, s, t)

    def _traverse(self, q: int, deal, s: list[int], t: float) -> None:
        """One external-sampling walk for traverser q; t weighs the average strategy."""
        tree = self.tree
        player = tree.player
        children = tree.children
        stakes, folded, pot, showdown = tree.stakes, tree.folded, tree.pot, tree.showdown
        regret, average = self.regret, self.average
        rand = self.rng.random
        seats = range(SEATS)
        mine = s[q]
        floor = 0.0 if self.plus else float("-inf")

        def walk(n: int) -> float:
            if folded[n][q]:  # once q folds, its score is fixed
                return -stakes[n][q]
            p = player[n]
            if p < 0:
                if not showdown[n]:
                    return pot[n] - stakes[n][q]
                ties = 1
                f = folded[n]
                for o in seats:
                    if o != q and not f[o]:
                        if s[o] > mine:
                            return -stakes[n][q]
                        if s[o] == mine:
                            ties += 1
                return pot[n] / ties - stakes[n][q]
            info = n * N_HANDS + deal[p]
            r = regret[info]
            total = sum(x for x in r if x > 0.0)
            kids = children[n]
            k = len(kids)
            if p == q:
                values = [walk(c) for c in kids]
                if total > 0.0:
                    v = sum(x * y for x, y in zip(r, values, strict=True) if x > 0.0) / total
                else:
                    v = sum(values) / k
                for i in range(k):
                    x = r[i] + values[i] - v
                    r[i] = x if x > floor else floor
                return v
            acc = average[info]
            x = rand()
            if total > 0.0:
                scale = t / total
                for i in range(k):
                    if r[i] > 0.0:
                        acc[i] += r[i] * scale
                x *= total
                for i in range(k):
                    if r[i] > 0.0:
                        x -= r[i]
                        if x < 0.0:
                            return walk(kids[i])
                return walk(kids[k - 1])
            share = t / k
            for i in range(k):
                acc[i] += share
            return walk(kids[int(x * k)])

        walk(0)

    def average_table(self):
        """The average strategy as a table (see `exploit`); unvisited rows are uniform."""
        tree = self.tree
        table = []
        for n, p in enumerate(tree.player):
            if p < 0:
                table.append(None)
                continue
            k = len(tree.actions[n])
            row = []
            for h in range(N_HANDS):
                acc = self.average[n * N_HANDS + h]
                total = sum(acc)
                row.append(tuple(a / total for a in acc) if total > 0 else (1.0 / k,) * k)
            table.append(row)
        return table
