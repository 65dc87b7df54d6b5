import uuid
from fractions import Fraction

from players.models import Player


def player_stats(*, player: Player) -> dict:
    """Stats over the matches the player sits at, from their own seat's totals, leaving out
    seeded ones (their deals were known). A match counts with its current series: a restart
    starts its totals again."""
    # Through the reverse relation: players knows nothing of games, whose seats point here.
    rows = player.seats.filter(match__seeded=False).values_list(
        "number", "match__status", "match__winners", "match__totals"
    )
    finished = [(seat, winners) for seat, status, winners, _ in rows if status == "finished"]
    return {
        "matches_played": len(rows),
        "matches_finished": len(finished),
        "matches_won": sum(1 for seat, winners in finished if seat in winners),
        "points_total": str(
            sum((Fraction(totals[seat]) for seat, _, _, totals in rows), Fraction(0))
        ),
    }


def player_seated(*, player: Player, match_id: uuid.UUID) -> bool:
    # Through the reverse relation, as above: players imports nothing of games.
    return player.seats.filter(match_id=match_id).exists()
