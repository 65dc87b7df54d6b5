"""Which series a step of a match ends, and their rating (docs/ratings.md, "What is rated"):
a series is rated once, as it ends, in the transaction that ends it, so the rating commits
exactly when the end does and a failed rating rolls the end back."""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from django.utils import timezone

from games import repository
from games.engine import (
    SEATS,
    Event,
    MatchFinished,
    MatchRestarted,
    MatchState,
    PlayerLeft,
    Resigned,
    Status,
)
from games.repository import LoadedMatch
from players.models import Player
from players.services import match_rate

IN_PLAY = (Status.IN_DEAL, Status.DEAL_OVER)
"""A series whose deal 1 has been dealt and that has not finished."""


@dataclass(frozen=True, slots=True)
class SeriesEnd:
    """A series as it ended: its totals (an unfinished deal counts for nobody) and the seats
    whose humans quit it."""

    series: int
    totals: tuple[Fraction, ...]
    quit: tuple[bool, ...]


def series_end(state: MatchState, event: Event) -> SeriesEnd | None:
    """The series `event` ends, seen from the `state` just before it; None if it ends none.

    All 12 deals played: those who left quit. Cut short once deal 1 was dealt, by a
    resignation, by the last human's leaving (the match is abandoned) or by a restart alone
    (a shared table restarts only once finished): every human of the table quit, so that
    walking away from a losing series counts as resigning it."""
    if isinstance(event, MatchFinished):
        return SeriesEnd(event.series, event.totals, tuple(state.left))
    cut_short = isinstance(event, Resigned | MatchRestarted) or (
        isinstance(event, PlayerLeft) and event.abandoned
    )
    if not cut_short or state.status not in IN_PLAY:
        return None
    humans = tuple(state.seated(seat) for seat in range(SEATS))
    return SeriesEnd(state.series, tuple(state.totals), humans)


def rate_series(match: LoadedMatch, ended: Iterable[SeriesEnd], *, ai_level: str) -> None:
    """Rate each series that ended, played at `ai_level` (the row may have the next series'
    level already), every human of the table at once. Matches dealt from the test-only `seed`
    are not rated: their deals were known."""
    if match.row.seeded:
        return
    humans = {
        number: uuid.UUID(seat.player)
        for number, seat in enumerate(match.seats)
        if seat.kind == Player.Kind.HUMAN and seat.player is not None
    }
    for end in ended:
        gone = _left_before(match, end.series)
        match_rate(
            match_id=match.row.id,
            series=end.series,
            ai_level=ai_level,
            humans={seat: pid for seat, pid in humans.items() if seat not in gone},
            totals=end.totals,
            # The AI played a seat left in an earlier series from this one's first deal on.
            quit=tuple(quit and seat not in gone for seat, quit in enumerate(end.quit)),
            finished_at=timezone.now(),
        )


def _left_before(match: LoadedMatch, series: int) -> set[int]:
    """The seats whose humans left before `series` began: they were rated as they left
    their own series, and have no part in this one (the state's `left` keeps them for the
    whole match). Read from the log only where a series was restarted."""
    left: set[int] = set()
    if series == 1 or not any(match.state.left):
        return left
    for _, event in repository.match_events(match_id=match.row.id):
        if isinstance(event, MatchRestarted) and event.series == series:
            break
        if isinstance(event, PlayerLeft):
            left.add(event.seat)
    return left
