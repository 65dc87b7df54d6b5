"""Offline: the `expert` level's exploiting strategies and their safe share (numpy).

For every assignment of an archetype (easy, normal, hard) to the three seats after the
expert (all hard excepted, where the expert plays the blueprint), the exploiting
strategy is an exact best response, per position of the expert, against those opponents'
tables; where the best response gains nothing over the blueprint at a (node, hand) it
keeps the blueprint's row, so the mix differs from the blueprint only where it pays.

The expert plays (1 - eps) blueprint + eps exploiting strategy. `safe_share` finds the
largest eps on a grid whose mix, for every assignment, is at most `BOUND` pts/deal
exploitable, computed exactly.
"""

from fractions import Fraction
from itertools import product

import numpy as np

from games.engine import SEATS

from .expert import ARCHETYPES, BLUEPRINT, EPS_DENOMINATOR, FOLLOW_BLUEPRINT
from .hands import N_HANDS
from .solver import Evaluator
from .strategy import load_strategy
from .tables import level_table
from .tree import TREE

BOUND = 0.02
"""The largest exploitability (pts/deal) any mix the expert plays may have."""
GAIN_TOLERANCE = 1e-9
"""A best response deviates from the blueprint only where it gains more than this share
of the node's value scale."""


def assignments() -> list[tuple[str, str, str]]:
    """Archetypes of the seats 1, 2 and 3 after the expert; all-blueprint left out."""
    return [a for a in product(ARCHETYPES, repeat=3) if a != (BLUEPRINT,) * 3]


class Builder:
    def __init__(self):
        self.evaluator = Evaluator(TREE)
        layout = self.evaluator.layout
        self.blueprint = self.evaluator.to_rows(load_strategy().table())
        self.archetype_rows = {
            k: self.blueprint if k == BLUEPRINT else self.evaluator.to_rows(level_table(k))
            for k in ARCHETYPES
        }
        self.row_player = np.array([TREE.player[n] for n in layout.node_of_row])
        self.base = self.exploitability(self.blueprint)
        """The blueprint's own exploitability."""

    def composite(self, archetypes: tuple[str, str, str], q: int) -> np.ndarray:
        """Rows where position p != q plays the archetype of its offset from q."""
        rows = self.blueprint.copy()
        for offset, k in enumerate(archetypes, start=1):
            mask = self.row_player == (q + offset) % SEATS
            rows[mask] = self.archetype_rows[k][mask]
        return rows

    def exploiting(self, archetypes: tuple[str, str, str]) -> np.ndarray:
        """Per decision node (in `layout.decisions` order) and hand: the best response's
        action index, or FOLLOW_BLUEPRINT where it gains nothing over the blueprint."""
        ev, layout = self.evaluator, self.evaluator.layout
        choice = np.full((len(layout.decisions), N_HANDS), FOLLOW_BLUEPRINT, dtype=np.uint8)
        index_of = {n: i for i, n in enumerate(layout.decisions)}
        for q in range(SEATS):
            rows = self.composite(archetypes, q)
            _, best = ev.node_values(rows, ev.reach(rows), q)
            for n in layout.decisions:
                if TREE.player[n] != q:
                    continue
                kids = list(TREE.children[n])
                values = best[kids]  # actions x hands
                start = layout.first_row[n]
                blue = (self.blueprint[start : start + len(kids)] * values).sum(axis=0)
                top = values.max(axis=0)
                scale = np.abs(values).max(axis=0)
                gains = top - blue > GAIN_TOLERANCE * np.maximum(scale, 1e-300)
                pick = values.argmax(axis=0)
                choice[index_of[n], gains] = pick[gains]
        return choice

    def mix(self, choice: np.ndarray, eps: Fraction) -> np.ndarray:
        """(1 - eps) blueprint + eps exploiting strategy, as rows x 121."""
        layout = self.evaluator.layout
        e = float(eps)
        rows = self.blueprint.copy()
        for i, n in enumerate(layout.decisions):
            start = layout.first_row[n]
            k = len(TREE.actions[n])
            for h in np.flatnonzero(choice[i] != FOLLOW_BLUEPRINT):
                block = rows[start : start + k, h] * (1 - e)
                block[choice[i, h]] += e
                rows[start : start + k, h] = block
        return rows

    def mix_of(self, choice: bytes, share: int) -> np.ndarray:
        """The mix the expert plays, from the asset's form of T_A and its share."""
        table = np.frombuffer(choice, dtype=np.uint8).reshape(-1, N_HANDS)
        return self.mix(table, Fraction(share, EPS_DENOMINATOR))

    def exploitability(self, rows: np.ndarray) -> float:
        return self.evaluator.exploitability(rows)["average"]


def safe_share(builder: Builder, choice: np.ndarray, bound: float = BOUND) -> tuple[int, float]:
    """A share (in thousandths) whose mix is at most `bound` exploitable, close to the
    largest, and that mix's exploitability. Exploitability grows about linearly with the
    share: aim at 95% of the bound on the line through the blueprint and the share 1/10,
    then step down until a measured mix is within the bound."""
    probe = EPS_DENOMINATOR // 10
    at_probe = builder.exploitability(builder.mix(choice, Fraction(probe, EPS_DENOMINATOR)))
    slope = max(at_probe - builder.base, 1e-12) / probe
    share = min(EPS_DENOMINATOR, int(0.95 * (bound - builder.base) / slope))
    while share > 0:
        if share == probe:
            measured = at_probe
        else:
            rows = builder.mix(choice, Fraction(share, EPS_DENOMINATOR))
            measured = builder.exploitability(rows)
        if measured <= bound:
            return share, measured
        share = int(share * 0.9 * bound / measured)
    return 0, builder.base


def build(progress=None) -> tuple[Builder, dict, dict, dict]:
    """(the builder, shares in thousandths, T_A tables as bytes, each mix's
    exploitability)."""
    builder = Builder()
    shares, choices, measured = {}, {}, {}
    for assignment in assignments():
        choice = builder.exploiting(assignment)
        shares[assignment], measured[assignment] = safe_share(builder, choice)
        choices[assignment] = choice.tobytes()
        if progress:
            progress(assignment, shares[assignment], measured[assignment])
    return builder, shares, choices, measured
