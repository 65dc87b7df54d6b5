from fractions import Fraction

from games.engine import HUMAN_SEAT
from games.models import Match
from players.models import Player


def player_stats(*, player: Player) -> dict:
    """Stats over the player's matches, leaving out seeded ones (their deals were known).
    A match counts with its current series: a restart starts its totals again."""
    rows = Match.objects.filter(owner=player, seeded=False).values_list(
        "status", "winners", "totals"
    )
    finished = [winners for status, winners, _ in rows if status == "finished"]
    return {
        "matches_played": len(rows),
        "matches_finished": len(finished),
        "matches_won": sum(1 for winners in finished if HUMAN_SEAT in winners),
        "points_total": str(
            sum((Fraction(totals[HUMAN_SEAT]) for _, _, totals in rows), Fraction(0))
        ),
    }
