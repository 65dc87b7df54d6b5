"""The rating of the series a step of a match ends (docs/ratings.md, "What is rated"; which
series a step ends is the engine's `series_end`): a series is rated once, as it ends, in the
transaction that ends it, so the rating commits exactly when the end does and a failed
rating rolls the end back."""

import uuid
from collections.abc import Iterable

from django.utils import timezone

from games.engine import MatchRestarted, PlayerLeft, SeriesEnd
from games.match.loaded import LoadedMatch
from games.match.log import match_events
from players.models import Player
from players.services import match_rate


def rate_series(match: LoadedMatch, ended: Iterable[SeriesEnd], *, ai_level: str) -> None:
    """Rate each series that ended, played at `ai_level` (the row may have the next series'
    level already), every human of the table at once. Matches dealt from the test-only `seed`
    are not rated: their deals were known; nor are matches with a bot seat, for anyone; nor
    a tournament's matches, which are rated together from its standings at its close
    (games.tournaments.commands, docs/ratings.md "Tournaments")."""
    if match.row.seeded or any(seat.kind == Player.Kind.BOT for seat in match.seats):
        return  # a bot is rated by its ladder only (docs/bots.md), and nobody beside it
    if match.row.tournament_id is not None:
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
    for _, event in match_events(match_id=match.row.id):
        if isinstance(event, MatchRestarted) and event.series == series:
            break
        if isinstance(event, PlayerLeft):
            left.add(event.seat)
    return left
