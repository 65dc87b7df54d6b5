"""Does duplicate scoring tell skill better than totals? A pure simulation (the engine, the AI
and the duplicate scoring; no database), as docs/ratings.md's ladder is: entrants that are AI
levels in disguise play a tournament's deals at seat 0 against three AI seats, and each
scoring's order of the entrants is checked against the levels' known strengths.

Three scorings of the same entrants over the same number of deals:
- `duplicate`: the standings' matchpoints, every entrant on the same deals (the tournament);
- `shared_totals`: the raw totals of those same matches;
- `own_totals`: the raw totals when each entrant is dealt deals of their own, as in ordinary
  matches against the AI.
Each entrant decides from a random stream of its own (two disguised entrants of one level
are two players, not one), while the AI seats draw theirs from the deal's seed, as a
tournament's do: entrants who act alike meet alike AI play (docs/tournaments.md)."""

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.ai import WATCHING_LEVELS, choose_action, public_record
from games.engine import (
    MATCH_DEALS,
    Act,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    duplicate,
    evolve,
    legal_actions,
    observe,
)
from games.engine.turns import ai_rng

ENTRANT_SEAT = 0
SCORINGS = ("duplicate", "shared_totals", "own_totals")
CLOSE = ("normal", "hard")
"""The two disguised levels closest in strength against easy seats (docs/ratings.md): the
pairs a scoring most needs to order."""


def _match_seed(run_seed: int, match: int) -> int:
    return run_seed * 1_000_003 + match


def play_entrant(level: str, entrant: int, table: str, seed: int) -> list[Fraction]:
    """One 12-deal match dealt from `seed`: a disguised entrant of `level` at seat 0, deciding
    from a stream of its own, against three AI seats of `table` deciding from the seed's
    streams. The entrant's points on each deal, exactly."""
    state = MatchState()
    played = list(decide(state, StartMatch(seed)))
    for event in played:
        evolve(state, event)
    results: list[Fraction] = []
    while state.status is not Status.FINISHED:
        if state.status is Status.IN_DEAL:
            seat = state.deal.turn
            view = observe(state, seat)
            step = len(view.history)
            if seat == ENTRANT_SEAT:
                level_here = level
                rng = random.Random(f"entrant:{entrant}:{seed}:{state.deal.deal_number}:{step}")
            else:
                level_here = table
                rng = ai_rng(seed, state.series, state.deal.deal_number, seat, step)
            record = public_record(played, seat) if level_here in WATCHING_LEVELS else ()
            action = choose_action(level_here, view, legal_actions(state, seat), rng, record)
            events = decide(state, Act(seat, action))
        else:
            events = decide(state, NextDeal())
        for event in events:
            evolve(state, event)
        played.extend(events)
        if state.status is not Status.IN_DEAL and len(results) < state.deal.deal_number:
            results.append(state.deal.result.seats[ENTRANT_SEAT].delta)
    assert len(results) == MATCH_DEALS
    return results


def strengths(levels: Sequence[str], table: str, matches: int, seed: int) -> dict[str, float]:
    """Each level's known strength: its mean points a match at seat 0 against `table`'s AI
    seats over `matches` matches of their own (other seeds than any tournament's)."""
    return {
        level: statistics.fmean(
            float(sum(play_entrant(level, 0, table, _match_seed(seed, m)))) for m in range(matches)
        )
        for level in levels
    }


def pair_accuracy(scores: Sequence[Fraction], strength: Sequence[float]) -> float:
    """Of the pairs of entrants of unequal strength, the share the scores order as the
    strengths do: 1 for the stronger scoring more, 1/2 for equal scores, 0 for the weaker
    scoring more. Pairs of one strength are not counted."""
    counted = judged = 0.0
    for i in range(len(scores)):
        for j in range(i + 1, len(scores)):
            if strength[i] == strength[j]:
                continue
            stronger, weaker = (i, j) if strength[i] > strength[j] else (j, i)
            counted += 1
            judged += (
                1 if scores[stronger] > scores[weaker] else 0.5 if scores[i] == scores[j] else 0
            )
    return judged / counted


def tournament(
    entrants: Sequence[str],
    table: str,
    deals: int,
    seed: int,
    strength: Mapping[str, float],
    close: Sequence[str] = CLOSE,
) -> dict[str, float]:
    """One tournament of `deals` deals (a whole number of 12-deal matches) for the disguised
    `entrants` (their levels): each scoring's pair accuracy over every pair of unequal
    strength, and (as "close:<scoring>") over the pairs of the `close` levels alone."""
    matches = deals // MATCH_DEALS
    shared = {str(e): [] for e in range(len(entrants))}
    own = {str(e): [] for e in range(len(entrants))}
    for m in range(matches):
        for e, level in enumerate(entrants):
            shared[str(e)] += play_entrant(level, e, table, _match_seed(seed, 2 * m))
            # Deals of the entrant's own: a seed no other entrant's match is dealt from.
            own[str(e)] += play_entrant(level, e, table, _match_seed(seed, 2 * m + 1) * 64 + e)
    points = {s.entrant: s.matchpoints for s in duplicate.standings(shared, deals=deals)}
    scores = {
        "duplicate": points,
        "shared_totals": {e: sum(r, Fraction(0)) for e, r in shared.items()},
        "own_totals": {e: sum(r, Fraction(0)) for e, r in own.items()},
    }
    found = {}
    for prefix, levels in (("", set(entrants)), ("close:", set(close))):
        order = [str(e) for e, level in enumerate(entrants) if level in levels]
        truth = [strength[entrants[int(e)]] for e in order]
        if len(set(truth)) < 2:
            continue
        for name in SCORINGS:
            found[prefix + name] = pair_accuracy([scores[name][e] for e in order], truth)
    return found


@dataclass(frozen=True)
class Estimate:
    """A mean over independent tournaments with its 95 % interval (normal approximation)."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "Estimate":
        spread = statistics.stdev(values) if len(values) > 1 else math.inf
        return cls(statistics.fmean(values), 1.96 * spread / math.sqrt(len(values)))

    def __str__(self) -> str:
        return f"{self.mean:.3f} ± {self.half_width:.3f}"


@dataclass(frozen=True)
class Comparison:
    entrants: int
    deals: int
    tournaments: int
    accuracy: dict[str, Estimate]
    """Each scoring's mean pair accuracy."""
    edge_over_shared: Estimate
    """duplicate minus shared_totals, tournament by tournament (the same deals)."""
    edge_over_own: Estimate
    """duplicate minus own_totals, tournament by tournament."""
    close: dict[str, Estimate]
    """Each scoring's mean pair accuracy over the pairs of the CLOSE levels alone."""

    def line(self) -> str:
        shown = ", ".join(f"{name} {self.accuracy[name]}" for name in SCORINGS)
        close = ", ".join(f"{name} {self.close[name]}" for name in SCORINGS)
        return (
            f"{self.entrants} entrants, {self.deals} deals, {self.tournaments} tournaments: "
            f"{shown}; edge over shared totals {self.edge_over_shared}, "
            f"over own totals {self.edge_over_own}; normal against hard alone: {close}"
        )


def compare(
    *,
    levels: Sequence[str],
    per_level: int,
    table: str,
    deals: int,
    tournaments: int,
    seed: int,
    strength: Mapping[str, float],
) -> Comparison:
    """`tournaments` tournaments of `per_level` disguised entrants of each of `levels`, each
    scored the three ways; the means with their intervals."""
    entrants = [level for level in levels for _ in range(per_level)]
    trials = [
        tournament(entrants, table, deals, _match_seed(seed, t) * 7919, strength)
        for t in range(tournaments)
    ]
    return Comparison(
        entrants=len(entrants),
        deals=deals,
        tournaments=tournaments,
        accuracy={name: Estimate.of([t[name] for t in trials]) for name in SCORINGS},
        edge_over_shared=Estimate.of([t["duplicate"] - t["shared_totals"] for t in trials]),
        edge_over_own=Estimate.of([t["duplicate"] - t["own_totals"] for t in trials]),
        close={name: Estimate.of([t["close:" + name] for t in trials]) for name in SCORINGS},
    )
