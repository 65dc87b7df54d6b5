"""Duplicate-deal tournaments between AI levels, played through the real engine.

A lineup is four levels, one per seat (for example hard, normal, normal, normal). Every
12-deal match is dealt from one seed and replayed once for each distinct seating of the
lineup, so every level meets the same cards from every seat; luck mostly cancels out.
Each AI decision uses `ai_rng`, exactly as in the service.
"""

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations

from games.engine import (
    MATCH_DEALS,
    Act,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
)


@dataclass
class LevelStats:
    """Per level: one mean score per deal slot (averaged over the seatings and the level's
    seats), so that the confidence interval respects the duplicate pairing."""

    deal_means: list[float] = field(default_factory=list)
    match_tops: list[float] = field(default_factory=list)
    """Per seating and match: the share of first place this level's seats took."""

    def mean(self) -> float:
        return sum(self.deal_means) / len(self.deal_means)

    def ci95(self) -> float:
        n = len(self.deal_means)
        if n < 2:
            return math.inf
        m = self.mean()
        var = sum((x - m) ** 2 for x in self.deal_means) / (n - 1)
        return 1.96 * math.sqrt(var / n)

    def top_rate(self) -> float:
        return sum(self.match_tops) / len(self.match_tops)


def paired_difference(first: LevelStats, second: LevelStats) -> LevelStats:
    """Deal by deal, `first` minus `second`, for two runs with the same seed (the same
    cards and the same random sources): its interval is the comparison's."""
    if len(first.deal_means) != len(second.deal_means):
        raise ValueError("the two runs must have the same number of deals")
    return LevelStats(
        [a - b for a, b in zip(first.deal_means, second.deal_means, strict=True)],
        [a - b for a, b in zip(first.match_tops, second.match_tops, strict=True)],
    )


def seatings(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct assignment of the lineup's levels to the four seats."""
    return sorted(set(permutations(lineup)))


def play_match(levels: tuple[str, ...], seed: int) -> tuple[list[list[Fraction]], list, list]:
    """Play one 12-deal match; returns each deal's scores by seat, the final totals and
    the match's events."""
    from . import WATCHING_LEVELS, ai_rng, choose_action, public_record

    state = MatchState()
    played = []
    for event in decide(state, StartMatch(seed)):
        evolve(state, event)
        played.append(event)
    deals = []
    # A seat's record holds finished deals only, so it stays the same through a deal: worked
    # out once per seat and deal, not at each of the expert's decisions from every event.
    records: dict[tuple[int, int], tuple] = {}
    while True:
        if state.status is Status.IN_DEAL:
            seat = state.deal.turn
            view = observe(state, seat)
            rng = ai_rng(seed, state.series, state.deal.deal_number, seat, len(view.history))
            record = ()
            if levels[seat] in WATCHING_LEVELS:
                key = (seat, state.deal.deal_number)
                if key not in records:
                    records[key] = public_record(played, seat)
                record = records[key]
            action = choose_action(levels[seat], view, legal_actions(state, seat), rng, record)
            events = decide(state, Act(seat, action))
        elif state.status is Status.DEAL_OVER:
            events = decide(state, NextDeal())
        else:
            break
        for event in events:
            evolve(state, event)
        played.extend(events)
        if state.status is not Status.IN_DEAL and len(deals) < state.deal.deal_number:
            deals.append([result.delta for result in state.deal.result.seats])
    assert len(deals) == MATCH_DEALS
    return deals, list(state.totals), played


def run(lineup: tuple[str, ...], matches: int, seed: int, progress=None) -> dict[str, LevelStats]:
    """Play `matches` duplicate matches (12 deals each) of `lineup` in every seating."""
    stats: dict[str, LevelStats] = {level: LevelStats() for level in lineup}
    arrangements = seatings(tuple(lineup))
    for m in range(matches):
        match_seed = seed * 1_000_003 + m
        sums = defaultdict(lambda: [0.0] * MATCH_DEALS)
        counts = defaultdict(int)
        for levels in arrangements:
            deals, totals, _ = play_match(levels, match_seed)
            best = max(totals)
            top = [seat for seat, total in enumerate(totals) if total == best]
            for level in set(levels):
                seats = [seat for seat, lv in enumerate(levels) if lv == level]
                counts[level] += len(seats)
                for d, scores in enumerate(deals):
                    sums[level][d] += float(sum(scores[s] for s in seats))
                stats[level].match_tops.append(sum(1 for s in top if s in seats) / len(top))
        for level, per_deal in sums.items():
            stats[level].deal_means.extend(x / counts[level] for x in per_deal)
        if progress:
            progress(m + 1)
    return stats
