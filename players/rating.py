"""Ratings, pure: OpenSkill's Plackett-Luce model over the four seats of a match, with the AI
levels as anchors whose ratings never move (docs/ratings.md). No Django here: the ladder test
and the anchors' calibration run it without a database.

Points stay exact: places come from the exact totals. mu and sigma are floats by OpenSkill's
nature; they are a rating, not points."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""OpenSkill's defaults: a new player starts at mu 25, sigma 25/3 (beta 25/6, tau 25/300)."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def displayed(self) -> float:
        """The figure shown and ranked by: mu - 3 sigma, a skill the player has with about
        99.9 % confidence. It starts at 0 and rises as the rating grows surer. Rounded to
        1e-9 (and -0.0 made 0.0): the start's 25 - 3 * 25/3 is -3.6e-15 in floats, which
        would show as "-0.0"."""
        return round(self.mu - 3 * self.sigma, 9) + 0.0


START = Rating(MODEL.mu, MODEL.sigma)
"""Every human's rating before their first rated match."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a rated match: its rating before, its place (1 is best; equal places are
    a tie), and whether it is an anchor (an AI level), whose rating stays as it is."""

    rating: Rating
    place: int
    anchored: bool = False


def places(totals: Sequence[Fraction], quit: Sequence[bool]) -> list[int]:
    """Each seat's place by its exact final total, 1 being the best: one more than the number
    of seats ranked ahead of it, so tied seats share a place. A seat that `quit` ranks behind
    every other seat, whatever its total; seats that quit share the last place."""
    stayed = [total for total, gone in zip(totals, quit, strict=True) if not gone]
    return [
        len(stayed) + 1 if gone else 1 + sum(1 for other in stayed if other > total)
        for total, gone in zip(totals, quit, strict=True)
    ]


def rate(entrants: Sequence[Entrant]) -> list[Rating]:
    """The entrants' ratings after the match, in order. An anchor's comes back as it went in:
    OpenSkill updates it like any other, and that update is discarded."""
    teams = [[MODEL.rating(mu=e.rating.mu, sigma=e.rating.sigma)] for e in entrants]
    rated = MODEL.rate(teams, ranks=[e.place for e in entrants])
    return [
        e.rating if e.anchored else Rating(team[0].mu, team[0].sigma)
        for e, team in zip(entrants, rated, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class Rated:
    """A human's result in a rated match: their place and their rating after it."""

    place: int
    after: Rating


def rate_match(
    *,
    totals: Sequence[Fraction],
    humans: Mapping[int, Rating],
    quit: Sequence[bool],
    anchor: Rating,
) -> dict[int, Rated]:
    """Rate the humans of one match (docs/ratings.md, "Places from exact totals"): `humans`
    maps a human seat to its rating before, `quit` says which seats' humans left or resigned,
    every other seat is an AI seat entering as `anchor`.

    Those who stayed are rated from one call that places every seat by its exact total, the
    seats of those who quit entering as the anchor (the AI played them on): a seat that
    quits cannot lift the others' places by coming last. Those who quit are rated from a
    second call that places them last, together, and the other seats by their totals, each
    human entering with their own rating; there only the quitters' updates are kept."""
    stayed = {seat: before for seat, before in humans.items() if not quit[seat]}
    gone = {seat: before for seat, before in humans.items() if quit[seat]}
    by_totals = places(totals, [False] * len(totals))
    gone_last = places(totals, quit)
    rated = _rate_kept(stayed, stayed, by_totals, anchor, len(totals))
    rated |= _rate_kept(gone, humans, gone_last, anchor, len(totals))
    return rated


def _rate_kept(
    kept: Mapping[int, Rating],
    entering: Mapping[int, Rating],
    seat_places: Sequence[int],
    anchor: Rating,
    seats: int,
) -> dict[int, Rated]:
    """One OpenSkill call: the seats of `entering` with their ratings, every other seat as
    `anchor`; only the updates of the seats of `kept` are kept."""
    if not kept:
        return {}
    after = rate(
        [
            Entrant(entering.get(seat, anchor), seat_places[seat], anchored=seat not in kept)
            for seat in range(seats)
        ]
    )
    return {seat: Rated(seat_places[seat], after[seat]) for seat in kept}
