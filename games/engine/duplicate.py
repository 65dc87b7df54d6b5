"""Duplicate scoring (docs/tournaments.md): every entrant of a tournament plays the same
deals, so each entrant's result on a deal is compared only with the others' on that deal.

Matchpoints as in duplicate bridge: on each deal an entrant gets 1 for every other entrant
who scored less and 1/2 for every one who scored the same, so the maximum on a deal is the
number of other entrants. A deal an entrant did not play by the deadline scores as the
field's lowest result on that deal (0 where nobody played it). A tournament of several deal
pools scores each entrant within their pool, and merges the pools' standings by percentage
(`pooled_standings`). Everything is exact."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .state import MATCH_DEALS

HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class DealScore:
    deal_number: int
    result: Fraction
    """The entrant's points on the deal, or the field's lowest where they did not play it."""
    played: bool
    matchpoints: Fraction
    versus_mean: Fraction
    """The result less the field's mean result on the deal."""


@dataclass(frozen=True, slots=True)
class Standing:
    entrant: str
    pool: int
    rank: int
    """1 for the best; entrants with equal matchpoints share the best of their places."""
    matchpoints: Fraction
    percentage: Fraction
    """The matchpoints as a percentage of the maximum (50 with nobody to compare with)."""
    versus_mean: Fraction
    """The sum over the deals of the result less the field's mean."""
    total: Fraction
    """The raw total: the sum of the results, unplayed deals scored as above."""
    deals: tuple[DealScore, ...]


def field_results(
    results: Mapping[str, Sequence[Fraction | None]], deals: int = MATCH_DEALS
) -> dict[str, list[tuple[Fraction, bool]]]:
    """Each entrant's result on each deal with whether they played it: `results` gives
    each entrant's points by deal (deal 1 first; None, or missing at the end, where the
    deal was not played), and an unplayed deal takes the lowest played result on it."""
    lowest = []
    for index in range(deals):
        played = [r[index] for r in results.values() if index < len(r) and r[index] is not None]
        lowest.append(min(played, default=Fraction(0)))
    return {
        entrant: [
            (r[index], True) if index < len(r) and r[index] is not None else (lowest[index], False)
            for index in range(deals)
        ]
        for entrant, r in results.items()
    }


def standings(
    results: Mapping[str, Sequence[Fraction | None]], deals: int = MATCH_DEALS, pool: int = 0
) -> list[Standing]:
    """The standings of one pool of a tournament by total matchpoints, best first (ties in
    entrant order), from each entrant's results by deal as `field_results` reads them."""
    scored = field_results(results, deals)
    others = len(scored) - 1
    by_entrant: dict[str, list[DealScore]] = {entrant: [] for entrant in scored}
    for index in range(deals):
        on_deal = {entrant: scored[entrant][index] for entrant in scored}
        mean = sum((r for r, _ in on_deal.values()), Fraction(0)) / max(len(on_deal), 1)
        for entrant, (result, played) in on_deal.items():
            points = sum(
                (1 if result > other else HALF if result == other else 0)
                for who, (other, _) in on_deal.items()
                if who != entrant
            )
            by_entrant[entrant].append(
                DealScore(index + 1, result, played, Fraction(points), result - mean)
            )
    maximum = others * deals
    rows = []
    for entrant, scores in by_entrant.items():
        points = sum((s.matchpoints for s in scores), Fraction(0))
        rows.append(
            (
                entrant,
                points,
                points * 100 / maximum if maximum else Fraction(50),
                sum((s.versus_mean for s in scores), Fraction(0)),
                sum((s.result for s in scores), Fraction(0)),
                tuple(scores),
            )
        )
    rows.sort(key=lambda row: -row[1])
    return [
        Standing(row[0], pool, _shared_place(rows, place, lambda r: r[1]), *row[1:])
        for place, row in enumerate(rows, start=1)
    ]


def pooled_standings(
    pools: Mapping[int, Mapping[str, Sequence[Fraction | None]]], deals: int = MATCH_DEALS
) -> list[Standing]:
    """The standings of a tournament of several deal pools: each entrant scored within
    their pool, all of them ranked by percentage (equal percentages share a place). With
    one pool it is `standings`: the percentage orders as the matchpoints do."""
    every = [row for pool, results in pools.items() for row in standings(results, deals, pool)]
    every.sort(key=lambda row: -row.percentage)
    return [
        Standing(
            row.entrant,
            row.pool,
            _shared_place(every, place, lambda r: r.percentage),
            row.matchpoints,
            row.percentage,
            row.versus_mean,
            row.total,
            row.deals,
        )
        for place, row in enumerate(every, start=1)
    ]


def _shared_place(rows: Sequence, place: int, score) -> int:
    """The best place among the rows whose score equals that of the row at `place`."""
    mine = score(rows[place - 1])
    return next(n for n, other in enumerate(rows, start=1) if score(other) == mine)
