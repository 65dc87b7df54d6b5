"""The coaching room's store: the only code touching Hint rows, which keep what each player
was advised and when."""

from games.engine import MatchState
from games.match.loaded import LoadedMatch
from games.models import Hint
from players.models import Player


def hint_insert(*, match: LoadedMatch, player: Player, state: MatchState, advice: dict) -> None:
    """Keep the advice `player` was given at this point of the match (docs/ai.md)."""
    Hint.objects.create(
        match_id=match.row.id,
        player=player,
        version=state.version,
        series=state.series,
        deal_number=state.deal_number,
        advice=advice,
    )
