"""Which series an event ends, and how it stood then: what the rating of a series
(games/match/rating.py, through games/match/reactions.py) is given."""

from dataclasses import dataclass
from fractions import Fraction

from .cards import SEATS
from .events import Event, MatchFinished, MatchRestarted, PlayerLeft, Resigned
from .state import MatchState, Status

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
