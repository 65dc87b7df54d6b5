"""Full-width CFR over exact counterfactual values, vectorised with numpy over hand classes.

Offline only (training and measuring): numpy is in the `dev` dependency group, and the
service never imports this module.

Every iteration walks the whole tree once per position q, with one 121-vector per node:
the opponents' reach of the node is a product of their own per-hand reaches, and q's
counterfactual value at each terminal node is summed over all 261,331 deals exactly, with
the generating functions of `exploit.py` (see there): the number of shuffles that deal
(h, a, b, c) is F(h) G(a) G(b) G(c), so sums over deals are sums over pairs of hands
that make up ten cards. Here those sums are batched over all terminal nodes at once, and
the showdown's "every active opponent weaker than h" restriction becomes a cumulative
sum over hands in strength order instead of exploit.py's incremental loop.

Values are kept without the factor F(h) (the same for every node of hand h, so regrets
and best responses are unchanged by it).

Methods (updates alternate between positions, as CFR+ prescribes):
- `cfr`: plain regret matching, uniform averaging (vanilla CFR);
- `lcfr`: plain regret matching, regrets and average weighted by the iteration (linear CFR);
- `cfr+`: regret matching+ (regrets floored at 0), average weighted by the iteration;
- `dcfr`: discounted CFR with alpha = 1.5, beta = 0, gamma = 2 (Brown & Sandholm 2019).
"""

from dataclasses import dataclass
from functools import cache

import numpy as np

from games.engine import SEATS

from .deals import TOTAL_WEIGHT
from .exploit import _FOUR, _algebra, _minus
from .hands import HAND_COUNTS, N_HANDS, STRENGTH
from .tree import TREE, Tree

METHODS: tuple[str, ...] = ("cfr", "lcfr", "cfr+", "dcfr")
_CHUNK = 48
"""Showdown terminals per batch (bounds the memory of the cumulative sums)."""


def _grouped(values: np.ndarray, starts: np.ndarray, present: np.ndarray, n: int) -> np.ndarray:
    """Sums of `values` (T x k, columns sorted by group) per group: T x n."""
    out = np.zeros((values.shape[0], n))
    if values.shape[1]:
        out[:, present] = np.add.reduceat(values, starts, axis=1)
    return out


@dataclass
class _Groups:
    """Column indices sorted by a group key, with what `_grouped` needs."""

    order: np.ndarray
    starts: np.ndarray
    present: np.ndarray
    n: int

    @classmethod
    def of(cls, keys, n: int) -> "_Groups":
        keys = np.asarray(keys, dtype=np.int64)
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        present, starts = np.unique(sorted_keys, return_index=True)
        return cls(order, starts, present, n)

    def sum(self, values: np.ndarray, presorted: bool = True) -> np.ndarray:
        """Per group sums of `values` (T x k); unless presorted, columns are sorted first."""
        return _grouped(
            values if presorted else values[:, self.order], self.starts, self.present, self.n
        )


class _Terms:
    """Index arrays for sums over deals, built once from exploit.py's algebra."""

    def __init__(self):
        alg = _algebra()
        self.g = np.array(alg.small_g)
        self.big_f = np.array(alg.big_f)
        self.rank = np.array(STRENGTH)
        self.n_tens = alg.n_tens
        nt = self.n_tens
        pa, pb, pt = [], [], []
        for t, (a_list, b_list) in enumerate(alg.by_target):
            pa += a_list
            pb += b_list
            pt += [t] * len(a_list)
        # Pairs (a, b) making up ten cards t, sorted by t.
        by_t = _Groups.of(pt, nt)
        self.pa = np.array(pa)[by_t.order]
        self.pb = np.array(pb)[by_t.order]
        self.pt = np.array(pt)[by_t.order]
        self.pairs = _Groups(np.arange(len(pa)), by_t.starts, by_t.present, nt)
        # (h, c, t): q holds h, the last opponent c, the first two make up t.
        mh, mc, mt = [], [], []
        for h in range(N_HANDS):
            cs, ts = alg.mass_terms[h]
            mh += [h] * len(cs)
            mc += cs
            mt += ts
        self.mh, self.mc, self.mt = np.array(mh), np.array(mc), np.array(mt)
        self.mass_by_h = _Groups.of(self.mh, N_HANDS)  # already sorted by h
        strict = self.rank[self.mc] < self.rank[self.mh]
        self.sh, self.sc, self.st = self.mh[strict], self.mc[strict], self.mt[strict]
        self.strict_by_h = _Groups.of(self.sh, N_HANDS)
        # Ties with one opponent holding h: the other two hold (b, c).
        th, tb, tc = [], [], []
        for h in range(N_HANDS):
            for b, c in alg.tie_pairs[h]:
                th.append(h)
                tb.append(b)
                tc.append(c)
        self.th, self.tb, self.tc = np.array(th), np.array(tb), np.array(tc)
        self.ties_by_h = _Groups.of(self.th, N_HANDS)
        # Ties with two opponents holding h: the third holds tie_two[h] (-1: impossible).
        self.tie_two = np.array([alg.tie_one[h][2] for h in range(N_HANDS)])
        self.all_equal = np.array(
            [
                _minus(_FOUR, tuple(4 * x for x in HAND_COUNTS[h])) == (0,) * 5
                for h in range(N_HANDS)
            ]
        )


@cache
def _terms() -> _Terms:
    return _Terms()


def _pair_products(terms: _Terms, p1: np.ndarray, p2: np.ndarray) -> np.ndarray:
    """T x (pairs): p1[a] p2[b] for every pair, in the pairs' order."""
    return p1[:, terms.pa] * p2[:, terms.pb]


def _mass(terms: _Terms, p1, p2, p3) -> np.ndarray:
    """T x 121: per hand h of q, the sum over deals of the three opponents' reach."""
    full = terms.pairs.sum(_pair_products(terms, p1, p2))
    return terms.mass_by_h.sum(p3[:, terms.mc] * full[:, terms.mt])


def _showdown(terms: _Terms, polys, active: tuple[bool, bool, bool]) -> np.ndarray:
    """T x 121: per hand h of q, the sum over deals of reach x q's share of the pot, when
    opponents `polys` (idle ones first, the last active) show down or have folded."""
    p1, p2, p3 = polys
    r1, r2, _ = active
    rank = terms.rank
    products = _pair_products(terms, p1, p2)
    t_count = p1.shape[0]
    if r1 or r2:
        # Pairs whose restricted members are all weaker than h have key <= rank(h).
        key = np.maximum(np.where(r1, rank[terms.pa], -1), np.where(r2, rank[terms.pb], -1)) + 1
        groups = _key_groups(key)
        cumulative = np.cumsum(
            groups.sum(products, presorted=False).reshape(t_count, N_HANDS + 1, terms.n_tens),
            axis=1,
        )
        restricted = cumulative[:, rank[terms.sh], terms.st]
    else:
        restricted = terms.pairs.sum(products)[:, terms.st]
    share = terms.strict_by_h.sum(p3[:, terms.sc] * restricted)
    # Ties: some active opponents hold h itself, the others weaker (or anything if idle).
    share += _ties(terms, polys, active)
    return share


_KEY_GROUPS: dict = {}


def _key_groups(key: np.ndarray) -> _Groups:
    cache_key = key.tobytes()
    groups = _KEY_GROUPS.get(cache_key)
    if groups is None:
        terms = _terms()
        groups = _Groups.of(key * terms.n_tens + terms.pt, (N_HANDS + 1) * terms.n_tens)
        _KEY_GROUPS[cache_key] = groups
    return groups


def _ties(terms: _Terms, polys, active) -> np.ndarray:
    rank = terms.rank
    total = np.zeros((polys[0].shape[0], N_HANDS))
    index = [i for i in range(3) if active[i]]
    for mask in range(1, 1 << len(index)):
        tied = [index[j] for j in range(len(index)) if mask >> j & 1]
        rest = [i for i in range(3) if i not in tied]
        weight = np.prod([polys[i] for i in tied], axis=0)  # T x 121, at h
        k = len(tied)
        if k == 1:
            (i1, i2) = rest
            ok = np.ones(len(terms.th), dtype=bool)
            if active[i1]:
                ok &= rank[terms.tb] < rank[terms.th]
            if active[i2]:
                ok &= rank[terms.tc] < rank[terms.th]
            values = polys[i1][:, terms.tb] * polys[i2][:, terms.tc] * ok
            coef = terms.ties_by_h.sum(values)
        elif k == 2:
            (i1,) = rest
            c = terms.tie_two
            possible = c >= 0
            if active[i1]:
                possible &= rank[np.where(possible, c, 0)] < rank
            coef = np.where(possible, polys[i1][:, np.where(possible, c, 0)], 0.0)
        else:
            coef = np.broadcast_to(terms.all_equal.astype(float), total.shape)
        total += weight * coef / (k + 1)
    return total


@dataclass
class _Layout:
    """The tree flattened for numpy: one row per (decision node, action)."""

    tree: Tree
    first_row: np.ndarray
    """Per node: its first action row (decision nodes)."""
    node_of_row: np.ndarray
    row_starts: np.ndarray
    """Start row of each decision node, in decision node order (for reduceat)."""
    decisions: list[int]
    terminals: np.ndarray

    @classmethod
    def of(cls, tree: Tree) -> "_Layout":
        first = np.full(tree.size, -1)
        nodes = []
        row = 0
        decisions = tree.decision_nodes()
        starts = []
        for n in decisions:
            first[n] = row
            starts.append(row)
            k = len(tree.actions[n])
            nodes += [n] * k
            row += k
        return cls(
            tree,
            first,
            np.array(nodes),
            np.array(starts),
            decisions,
            np.array(tree.terminal_nodes()),
        )

    @property
    def rows(self) -> int:
        return len(self.node_of_row)


def _normalise(layout: _Layout, positive: np.ndarray) -> np.ndarray:
    """Per row block: positive / its node's sum, or uniform where the sum is 0."""
    sums = np.add.reduceat(positive, layout.row_starts, axis=0)
    counts = np.diff(np.append(layout.row_starts, layout.rows))
    per_row_sum = np.repeat(sums, counts, axis=0)
    per_row_count = np.repeat(counts, counts)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(per_row_sum > 0, positive / per_row_sum, 1.0 / per_row_count)


class Evaluator:
    """Exact counterfactual values of one position against the others' strategies."""

    def __init__(self, tree: Tree = TREE):
        self.tree = tree
        self.layout = _Layout.of(tree)
        self.terms = _terms()
        terminals = self.layout.terminals
        self.stake = np.array([tree.stakes[n] for n in terminals], dtype=float)
        self.pot = np.array([tree.pot[n] for n in terminals], dtype=float)
        self.folded = np.array([tree.folded[n] for n in terminals])
        self.showdown = np.array([tree.showdown[n] for n in terminals])

    def reach(self, strategy: np.ndarray) -> np.ndarray:
        """Per node and position: the per-hand probability that the position's own
        actions lead there. strategy: rows x 121."""
        tree, first = self.tree, self.layout.first_row
        reach = np.empty((tree.size, SEATS, N_HANDS))
        reach[0] = 1.0
        for n in self.layout.decisions:
            p = tree.player[n]
            for i, c in enumerate(tree.children[n]):
                reach[c] = reach[n]
                reach[c, p] *= strategy[first[n] + i]
        return reach

    def terminal_values(self, reach: np.ndarray, q: int) -> np.ndarray:
        """Per terminal node (in `layout.terminals` order) and hand h of q: q's score summed
        over the deals where q holds h, weighted by the opponents' reach (without F(h))."""
        terms = self.terms
        terminals = self.layout.terminals
        others = [o for o in range(SEATS) if o != q]
        polys = {o: reach[terminals, o] * terms.g for o in others}
        mass = _mass(terms, *(polys[o] for o in others))
        stake = self.stake[:, q][:, None]
        values = np.where(
            self.folded[:, q][:, None], -stake * mass, (self.pot[:, None] - stake) * mass
        )
        contest = self.showdown & ~self.folded[:, q]
        patterns = {}
        for i in np.flatnonzero(contest):
            patterns.setdefault(tuple(bool(self.folded[i, o]) for o in others), []).append(i)
        for idle_flags, rows in patterns.items():
            idle = [o for o, f in zip(others, idle_flags, strict=True) if f]
            act = [o for o, f in zip(others, idle_flags, strict=True) if not f]
            order = (idle + act)[:2] + [act[-1]]
            active = tuple(o in act for o in order)
            rows = np.array(rows)
            for start in range(0, len(rows), _CHUNK):
                chunk = rows[start : start + _CHUNK]
                share = _showdown(terms, [polys[o][chunk] for o in order], active)
                values[chunk] = self.pot[chunk, None] * share - stake[chunk] * mass[chunk]
        return values

    def node_values(self, strategy: np.ndarray, reach: np.ndarray, q: int):
        """(on-strategy values, best-response values) per node for q: N x 121 each."""
        tree, first = self.tree, self.layout.first_row
        mean = np.zeros((tree.size, N_HANDS))
        best = np.zeros((tree.size, N_HANDS))
        terminal = self.terminal_values(reach, q)
        mean[self.layout.terminals] = terminal
        best[self.layout.terminals] = terminal
        for n in reversed(self.layout.decisions):
            kids = list(tree.children[n])
            if tree.player[n] == q:
                rows = strategy[first[n] : first[n] + len(kids)]
                mean[n] = (rows * mean[kids]).sum(axis=0)
                best[n] = best[kids].max(axis=0)
            else:
                mean[n] = mean[kids].sum(axis=0)
                best[n] = best[kids].sum(axis=0)
        return mean, best

    def exploitability(self, strategy: np.ndarray) -> dict:
        """As `exploit.exploitability`, for a strategy given as rows x 121."""
        reach = self.reach(strategy)
        gains = []
        for q in range(SEATS):
            mean, best = self.node_values(strategy, reach, q)
            gains.append(float(self.terms.big_f @ (best[0] - mean[0])) / TOTAL_WEIGHT)
        return {"positions": gains, "average": sum(gains) / SEATS}

    def to_rows(self, table) -> np.ndarray:
        """An `exploit` table as rows x 121."""
        rows = np.empty((self.layout.rows, N_HANDS))
        for n in self.layout.decisions:
            start = self.layout.first_row[n]
            rows[start : start + len(self.tree.actions[n])] = np.array(table[n]).T
        return rows

    def to_table(self, rows: np.ndarray):
        """rows x 121 as an `exploit` table."""
        table = [None] * self.tree.size
        for n in self.layout.decisions:
            start = self.layout.first_row[n]
            block = rows[start : start + len(self.tree.actions[n])].T
            table[n] = [tuple(float(x) for x in row) for row in block]
        return table


class Solver:
    """Full-width CFR with alternating updates; deterministic (no random source)."""

    def __init__(self, method: str = "cfr+", tree: Tree = TREE):
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
        self.method = method
        self.evaluator = Evaluator(tree)
        layout = self.evaluator.layout
        self.regret = np.zeros((layout.rows, N_HANDS))
        self.average = np.zeros((layout.rows, N_HANDS))
        players = np.array([tree.player[n] for n in layout.node_of_row])
        self.rows_of = [players == q for q in range(SEATS)]
        nodes = layout.node_of_row
        actions = np.arange(layout.rows) - layout.first_row[nodes]
        self.child_of_row = np.array(
            [tree.children[n][i] for n, i in zip(nodes, actions, strict=True)]
        )
        self.iterations = 0

    def current(self) -> np.ndarray:
        return _normalise(self.evaluator.layout, np.maximum(self.regret, 0.0))

    def average_rows(self) -> np.ndarray:
        return _normalise(self.evaluator.layout, self.average)

    def average_table(self):
        return self.evaluator.to_table(self.average_rows())

    def run(self, iterations: int) -> None:
        ev = self.evaluator
        layout = ev.layout
        node_of_row = layout.node_of_row
        for _ in range(iterations):
            self.iterations += 1
            t = self.iterations
            for q in range(SEATS):
                strategy = self.current()
                reach = ev.reach(strategy)
                mean, _ = ev.node_values(strategy, reach, q)
                rows = self.rows_of[q]
                instant = mean[self.child_of_row[rows]] - mean[node_of_row[rows]]
                own_reach = reach[node_of_row[rows], q]
                self._update(rows, instant, strategy[rows] * own_reach, t)

    def _update(self, rows, instant, contribution, t: int) -> None:
        regret = self.regret[rows]
        if self.method == "cfr":
            regret += instant
            weight = 1.0
        elif self.method == "lcfr":
            regret = regret * ((t - 1) / t if t > 1 else 1.0) + instant
            weight = t
        elif self.method == "cfr+":
            regret = np.maximum(regret + instant, 0.0)
            weight = t
        else:  # dcfr: discount the past before adding this iteration
            if t > 1:
                a = (t - 1) ** 1.5
                regret = np.where(regret > 0, regret * a / (a + 1), regret * 0.5)
                self.average[rows] *= ((t - 1) / t) ** 2
            regret = regret + instant
            weight = 1.0
        self.regret[rows] = regret
        self.average[rows] += weight * contribution
