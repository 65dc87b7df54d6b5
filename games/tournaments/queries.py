"""The tournaments room's reads. Before the close a viewer sees a tournament's terms, its
commitment, its number of entrants, and their own match and results only; the standings,
everyone's results and the seed only after it (docs/tournaments.md)."""

import uuid
from fractions import Fraction
from typing import TYPE_CHECKING

from django.utils import timezone

from games.engine import HUMAN_SEAT, DealEnded, DomainError, TournamentPhase, duplicate
from games.match import log
from games.match.queries import match_public_events
from games.tournaments import store
from players.models import Player

if TYPE_CHECKING:
    from games.models import Tournament


def tournament_phase(tournament: "Tournament") -> TournamentPhase:
    """Where the tournament stands now: its entries not open yet, open, over, or closed."""
    now = timezone.now()
    if tournament.closed_at is not None:
        return TournamentPhase.CLOSED
    if now < tournament.entry_opens_at:
        return TournamentPhase.UPCOMING
    if now < tournament.entry_closes_at:
        return TournamentPhase.OPEN
    return TournamentPhase.PLAYING


def _terms(tournament: "Tournament") -> dict:
    closed = tournament.closed_at is not None
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "creator": tournament.creator.name,
        "ai_level": tournament.ai_level,
        "entry_opens_at": tournament.entry_opens_at,
        "entry_closes_at": tournament.entry_closes_at,
        "deadline": tournament.deadline,
        "cap": tournament.cap,
        "turn_seconds": tournament.turn_seconds,
        "pools": tournament.pools,
        "bots": tournament.bots,
        "phase": tournament_phase(tournament),
        "commitment": tournament.commitment,
        "server_seed": tournament.server_seed if closed else None,
        "closed_at": tournament.closed_at,
    }


def tournament_view(*, tournament_id: uuid.UUID, viewer: Player) -> dict:
    """The tournament as `viewer` sees it: its terms, its entrants' number, and the
    viewer's own entry (their match and their results by deal) or null."""
    tournament = store.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise DomainError("not_found", "No such tournament.")
    match_id = store.entry_match_id(tournament_id=tournament.pk, player=viewer)
    entry = None
    if match_id is not None:
        results = _results(match_id, tournament)
        entry = {
            "match": match_id,
            "deals": [
                {"deal_number": number, "result": result}
                for number, result in enumerate(results, start=1)
                if result is not None
            ],
            "total": sum((r for r in results if r is not None), Fraction(0)),
        }
    return {
        **_terms(tournament),
        "entrants": store.entrant_count(tournament_id=tournament.pk),
        "your_entry": entry,
    }


def tournament_list(*, limit: int = 50) -> list[dict]:
    """The newest tournaments' terms, with their numbers of entrants."""
    return [
        {**_terms(t), "entrants": store.entrant_count(tournament_id=t.pk)}
        for t in store.tournament_list(limit=limit)
    ]


def tournament_standings(*, tournament_id: uuid.UUID) -> dict:
    """The standings once the tournament closed: each entrant by total matchpoints (ties
    share the best place), with the percentage of the maximum, the difference from the
    field's mean, the raw total, the skill figures and every deal's score. Refused before
    the close (`tournament_not_closed`): they would show the others' results."""
    tournament = store.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise DomainError("not_found", "No such tournament.")
    if tournament.closed_at is None:
        raise DomainError(
            "tournament_not_closed",
            f"The standings appear at the close, {tournament.deadline.isoformat()}.",
        )
    entries = store.entries(tournament_id=tournament.pk)
    pools: dict[int, dict] = {}
    for match_id, pool, *_ in entries:
        pools.setdefault(pool, {})[str(match_id)] = _results(match_id, tournament)
    by_match = {str(match_id): (name, skill, kind) for match_id, _, name, skill, kind in entries}
    rows = []
    for standing in duplicate.pooled_standings(pools):
        name, skill, kind = by_match[standing.entrant]
        rows.append(
            {
                "rank": standing.rank,
                "name": name,
                "bot": kind == Player.Kind.BOT,
                "match": standing.entrant,
                "pool": standing.pool,
                "matchpoints": standing.matchpoints,
                "percentage": standing.percentage,
                "versus_mean": standing.versus_mean,
                "total": standing.total,
                "skill": _skill_sums(skill),
                "deals": [
                    {
                        "deal_number": deal.deal_number,
                        "result": deal.result,
                        "played": deal.played,
                        "matchpoints": deal.matchpoints,
                        "versus_mean": deal.versus_mean,
                    }
                    for deal in standing.deals
                ],
            }
        )
    return {"tournament": tournament.pk, "entrants": len(rows), "standings": rows}


def tournament_rating_places(*, tournament: "Tournament") -> list[tuple[uuid.UUID, uuid.UUID, int]]:
    """The human entrants as their tournament rating ranks them (docs/ratings.md,
    "Tournaments"): (player id, match id, place), from the standings scored over the humans
    alone. A bot's results are left out of the field, so that no human's place, and so no
    human's rating, moves because of a bot (docs/bots.md); a bot is rated by nobody."""
    pools: dict[int, dict] = {}
    owners: dict[str, uuid.UUID] = {}
    for match_id, pool, owner_id, kind in store.entrant_players(tournament_id=tournament.pk):
        if kind != Player.Kind.HUMAN:
            continue
        pools.setdefault(pool, {})[str(match_id)] = _results(match_id, tournament)
        owners[str(match_id)] = owner_id
    return [
        (owners[row.entrant], uuid.UUID(row.entrant), row.rank)
        for row in duplicate.pooled_standings(pools)
    ]


def tournament_matches(*, tournament_id: uuid.UUID) -> dict:
    """Once the tournament closed, every entrant's match as its public record: the events
    as someone at none of its seats sees them, its seed_revealed included, so that anyone
    can check every match and compare how the field played each deal. Refused before the
    close (`tournament_not_closed`)."""
    tournament = store.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise DomainError("not_found", "No such tournament.")
    if tournament.closed_at is None:
        raise DomainError(
            "tournament_not_closed",
            f"The matches are shown at the close, {tournament.deadline.isoformat()}.",
        )
    return {
        "tournament": tournament.pk,
        "commitment": tournament.commitment,
        "server_seed": tournament.server_seed,
        "matches": [
            {
                "match": match_id,
                "name": name,
                "pool": pool,
                "events": match_public_events(match_id=match_id),
            }
            for match_id, pool, name, *_ in store.entries(tournament_id=tournament.pk)
        ],
    }


def _results(match_id: uuid.UUID, tournament: "Tournament") -> list[Fraction | None]:
    """The entrant's points on each deal of their match (deal 1 first), None for a deal
    not ended by the deadline, which scores as the field's lowest."""
    in_time = store.deals_ended_by(match_id=match_id, deadline=tournament.deadline)
    results: list[Fraction | None] = [None] * duplicate.MATCH_DEALS
    for _, event in log.match_events(match_id=match_id):
        if isinstance(event, DealEnded) and event.series == 1 and event.deal_number in in_time:
            results[event.deal_number - 1] = event.seats[HUMAN_SEAT].delta
    return results


def _skill_sums(skill: dict | None) -> dict | None:
    """The entrant's sums of cards, play and table over their deals (docs/skill.md), or
    None where the match row keeps none."""
    sums = (skill or {}).get("sums")
    return sums[HUMAN_SEAT] if sums else None
