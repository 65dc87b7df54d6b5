import uuid
from fractions import Fraction

from players.models import Player, Token
from players.models import Rating as RatingRow
from players.rating import START, Rating


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


RATING_HISTORY = 50
"""How many rated matches /players/me lists, newest first; `matches` counts them all."""
LEADERBOARD_MATCHES = 5
"""A player is on the leaderboard from this many rated matches on."""


def _figures(mu: float, sigma: float) -> dict:
    return {"mu": mu, "sigma": sigma, "displayed": Rating(mu, sigma).displayed}


def player_rating(*, player: Player) -> dict:
    """The player's rating (the starting one before any rated match) and their latest rated
    matches, newest first."""
    row = RatingRow.objects.filter(player=player).first()
    mu, sigma = (row.mu, row.sigma) if row else (START.mu, START.sigma)
    matches = row.matches if row else 0
    history = player.rating_changes.order_by("-finished_at", "-id")[:RATING_HISTORY]
    return {
        **_figures(mu, sigma),
        "matches": matches,
        "provisional": matches < LEADERBOARD_MATCHES,
        "leaderboard_from": LEADERBOARD_MATCHES,
        "history": [
            {
                "match_id": change.match_id,
                "series": change.series,
                "finished_at": change.finished_at,
                "place": change.place,
                "before": _figures(change.mu_before, change.sigma_before),
                "after": _figures(change.mu_after, change.sigma_after),
            }
            for change in history
        ],
    }


def leaderboard():
    """The players with LEADERBOARD_MATCHES rated matches or more, best displayed rating
    first (ties by id, so that pages never overlap): one query a page, on its partial index."""
    return (
        RatingRow.objects.filter(matches__gte=LEADERBOARD_MATCHES)
        .select_related("player")
        .order_by("-displayed", "player_id")
    )


def token_works(*, token_hash: str) -> bool:
    """Whether the token with this hash still works (not rotated or revoked)."""
    return Token.objects.filter(token_hash=token_hash).exists()


def token_is_a_bots(*, token_hash: str) -> bool:
    """Whether the token with this hash is a bot's (docs/bots.md: a bot's token watches
    nothing)."""
    return Token.objects.filter(token_hash=token_hash, player__kind=Player.Kind.BOT).exists()
