"""Rating runs of the AI levels through the pure engine and the pure rating function, with no
database (docs/ratings.md): the anchors' calibration (`manage.py calibrate_ratings`), and the
ladder of AI levels in disguise that tests the ratings against a separate tournament."""

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai import AI_LEVELS
from games.ai.tournament import play_match
from players.rating import START, Entrant, Rating, places, rate

STAYED = (False,) * 4
"""No seat of an AI-only match resigns or leaves."""


def _match_seed(run_seed: int, match: int) -> int:
    return run_seed * 1_000_003 + match


@dataclass(frozen=True)
class Calibration:
    anchors: dict[str, Rating]
    matches: int
    seed: int


def calibrate(
    *, matches: int, seed: int, progress: Callable[[int], None] | None = None
) -> Calibration:
    """Every AI level at one table, one seat each (the seating rotated every match), all
    starting at OpenSkill's new-player rating and all rated, none anchored, for `matches`
    12-deal matches. A level's anchor is its mean mu over the second half of the run (the
    first half finds the level; after it mu only wanders around it, by OpenSkill's dynamics
    tau) and its final sigma, which has settled where tau keeps it."""
    ratings = dict.fromkeys(AI_LEVELS, START)
    settled: dict[str, list[float]] = {level: [] for level in AI_LEVELS}
    for match in range(matches):
        turn = match % len(AI_LEVELS)
        seating = AI_LEVELS[turn:] + AI_LEVELS[:turn]
        _, totals, _ = play_match(seating, _match_seed(seed, match))
        place = places(totals, STAYED)
        after = rate([Entrant(ratings[level], place[seat]) for seat, level in enumerate(seating)])
        for level, rating in zip(seating, after, strict=True):
            ratings[level] = rating
            if match >= matches // 2:
                settled[level].append(rating.mu)
        if progress:
            progress(match + 1)
    anchors = {
        level: Rating(round(statistics.fmean(settled[level]), 2), round(ratings[level].sigma, 2))
        for level in AI_LEVELS
    }
    return Calibration(anchors, matches, seed)


def expected_places(
    *, players: Sequence[str], tables: Sequence[str], matches: int, seed: int
) -> dict[str, float]:
    """A tournament: each level in `players` at seat 0 against three AI seats of each level
    in `tables` in turn, `matches` matches in all; its mean place (1 best, ties shared)."""
    found = {}
    for player in players:
        seen = []
        for match in range(matches):
            table = tables[match % len(tables)]
            _, totals, _ = play_match((player, table, table, table), _match_seed(seed, match))
            seen.append(places(totals, STAYED)[0])
        found[player] = statistics.fmean(seen)
    return found


def kendall_tau(first: Sequence[float], second: Sequence[float]) -> float:
    """Kendall's tau-a between two scorings of the same items: 1 when every pair is in the
    same order in both, -1 when every pair is reversed; a tie in either counts as neither."""
    pairs = [(i, j) for i in range(len(first)) for j in range(i + 1, len(first))]
    agree = 0
    for i, j in pairs:
        product = (first[i] - first[j]) * (second[i] - second[j])
        agree += (product > 0) - (product < 0)
    return agree / len(pairs)


@dataclass
class Ladder:
    ratings: dict[str, Rating]
    taus: list[float]
    """Kendall's tau after each round (each player's match) between the players' displayed
    ratings and the order of their expected places (lower place is better)."""
    anchors_after: dict[str, Rating]

    def rounds_to_order(self) -> int | None:
        """The round from which tau stays 1 to the end of the run; None if it ends below 1."""
        if not self.taus or self.taus[-1] < 1:
            return None
        last_wrong = max((r for r, tau in enumerate(self.taus) if tau < 1), default=-1)
        return last_wrong + 2


def ladder(
    *,
    players: Sequence[str],
    tables: Sequence[str],
    anchors: dict[str, Rating],
    expected: dict[str, float],
    rounds: int,
    seed: int,
) -> Ladder:
    """Players that are AI levels in disguise, each starting as a new human, play `rounds`
    rated matches each at seat 0 against three AI seats of each level in `tables` in turn,
    rated by `rate` exactly as the service rates them, the AI seats as their anchors."""
    ratings = dict.fromkeys(players, START)
    anchors_after = dict(anchors)
    taus = []
    for match in range(rounds):
        table = tables[match % len(tables)]
        for player in players:
            _, totals, _ = play_match((player, table, table, table), _match_seed(seed, match))
            place = places(totals, STAYED)
            entrants = [Entrant(ratings[player], place[0])]
            entrants += [Entrant(anchors_after[table], p, anchored=True) for p in place[1:]]
            after = rate(entrants)
            ratings[player] = after[0]
            anchors_after[table] = after[1]  # as the service would keep it: it must not move
        taus.append(
            kendall_tau(
                [ratings[player].displayed for player in players],
                [-expected[player] for player in players],
            )
        )
    return Ladder(ratings, taus, anchors_after)
