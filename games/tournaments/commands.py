"""The tournaments room's writes: create a tournament (its seed drawn and committed to at
once), enter it (a match of the entrant's own on its deals), and close it at the play
deadline (every match stopped and its seed revealed), once, however many clocks and
readers try at the same moment."""

import logging
import secrets
import uuid
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone

from games.ai import AI_LEVELS
from games.engine import DomainError, fairness
from games.match.commands import match_create, match_tournament_close
from games.match.queries import match_write_view
from games.models import Tournament
from games.tournaments import queries, store
from players.models import Player
from players.services import player_kind_locked, tournament_rate

log = logging.getLogger(__name__)

TOURNAMENT_LEVELS = ("easy", "normal", "hard")
"""The AI levels a tournament may be played at: not `expert`, which adapts to the deals
before, so that entrants who play alike would not meet alike play."""
TURN_SECONDS = 60
"""A tournament match's turn clock when its creator names none."""


@transaction.atomic
def tournament_create(
    *,
    creator: Player,
    name: str,
    ai_level: str,
    entry_opens_at: datetime,
    entry_closes_at: datetime,
    deadline: datetime,
    cap: int | None = None,
    turn_seconds: int = TURN_SECONDS,
    pools: int = 1,
    bots: bool = False,
) -> Tournament:
    """A tournament: its seed is drawn now and its commitment (the seed's SHA-256) public
    from this answer on; nothing can change its deals afterwards. With `pools` above 1 each
    entrant is dealt one of that many deal pools, whose seeds derive from the one seed, so
    that a friend who is told the deals holds them only as likely as 1 in `pools`. Bots enter
    only if `bots` (docs/bots.md)."""
    if ai_level not in TOURNAMENT_LEVELS:
        known = "is not an AI level" if ai_level not in AI_LEVELS else "adapts to earlier deals"
        raise DomainError(
            "tournament_level_refused",
            f"A tournament's AI plays at easy, normal or hard; {ai_level!r} {known}.",
        )
    if entry_closes_at <= entry_opens_at:
        raise DomainError("invalid_entry_window", "The entry window must end after it opens.")
    if deadline <= entry_closes_at:
        raise DomainError(
            "invalid_deadline", "The play deadline must come after the entry window ends."
        )
    server_seed = secrets.token_bytes(fairness.SEED_BYTES)
    return store.tournament_insert(
        creator=creator,
        name=name,
        ai_level=ai_level,
        entry_opens_at=entry_opens_at,
        entry_closes_at=entry_closes_at,
        deadline=deadline,
        cap=cap,
        turn_seconds=turn_seconds,
        pools=pools,
        bots=bots,
        server_seed=server_seed.hex(),
        commitment=fairness.commitment(server_seed),
    )


@transaction.atomic
def tournament_enter(*, tournament_id: uuid.UUID, player: Player) -> dict:
    """Enter the tournament: the entrant's match starts at once, from seat 0, on the
    tournament's deals. Answers with the match as its first write does (MatchWriteView).
    The tournament's lock makes its cap hold against entries at the same moment."""
    tournament = store.tournament_lock(tournament_id=tournament_id)
    if tournament is None:
        raise DomainError("not_found", "No such tournament.")
    now = timezone.now()
    if tournament.closed_at is not None or tournament.deadline <= now:
        raise DomainError(
            "entry_closed", f"This tournament closed at {_when(tournament.deadline)}."
        )
    if now < tournament.entry_opens_at:
        raise DomainError("entry_not_open", f"Entries open at {_when(tournament.entry_opens_at)}.")
    if tournament.entry_closes_at <= now:
        raise DomainError("entry_closed", f"Entries closed at {_when(tournament.entry_closes_at)}.")
    if player_kind_locked(player=player) == Player.Kind.BOT and not tournament.bots:
        raise DomainError("bots_not_allowed", "This tournament's organizer did not allow bots.")
    if store.entry_match_id(tournament_id=tournament.pk, player=player) is not None:
        raise DomainError("already_entered", "You entered this tournament already.")
    if (
        tournament.cap is not None
        and store.entrant_count(tournament_id=tournament.pk) >= tournament.cap
    ):
        raise DomainError("tournament_full", "This tournament is full.")
    match = match_create(
        owner=player,
        ai_level=tournament.ai_level,
        turn_seconds=tournament.turn_seconds,
        tournament=tournament,
        pool=secrets.randbelow(tournament.pools),  # drawn now: nobody chooses their pool
    )
    return match_write_view(match=match)


def tournament_close(*, tournament_id: uuid.UUID, now: datetime | None = None) -> bool:
    """Close the tournament if its deadline has passed and it is not closed yet: every
    entrant's match stops and reveals the seed, and the human entrants are rated from the
    standings (docs/ratings.md), in one transaction under the tournament's lock. True if this
    call closed it; False if it was not due or another closed it."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = store.tournament_lock(tournament_id=tournament_id)
        if tournament is None or tournament.closed_at is not None or now < tournament.deadline:
            return False
        for match_id, *_ in store.entries(tournament_id=tournament.pk):
            match_tournament_close(match_id=match_id)
        store.tournament_mark_closed(tournament, now=now)
        # Rated once, from the standings, as it closes: its matches were not rated alone.
        tournament_rate(
            entrants=queries.tournament_rating_places(tournament=tournament), finished_at=now
        )
    log.info("tournament %s closed", tournament_id)
    return True


def tournaments_close_due(*, now: datetime) -> int:
    """Close every tournament past its deadline (the clock's housekeeping): how many this
    call closed. Each closes in its own transaction, so one failing leaves the others."""
    return sum(
        tournament_close(tournament_id=pk, now=now) for pk in store.tournament_ids_due(now=now)
    )


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def tournament_read_answer(*, tournament_id: uuid.UUID, viewer: Player) -> dict:
    """The tournament as `viewer` sees it (queries.tournament_view), closed first if its
    deadline has passed and no clock closed it yet."""
    tournament_close(tournament_id=tournament_id)
    return queries.tournament_view(tournament_id=tournament_id, viewer=viewer)


def tournament_standings_answer(*, tournament_id: uuid.UUID) -> dict:
    """The standings (queries.tournament_standings), the tournament closed first if due."""
    tournament_close(tournament_id=tournament_id)
    return queries.tournament_standings(tournament_id=tournament_id)


def tournament_matches_answer(*, tournament_id: uuid.UUID) -> dict:
    """Every entrant's public match (queries.tournament_matches), closed first if due."""
    tournament_close(tournament_id=tournament_id)
    return queries.tournament_matches(tournament_id=tournament_id)


def tournament_create_answer(**terms) -> dict:
    """`tournament_create`, answering with the tournament as its creator sees it."""
    tournament = tournament_create(**terms)
    return queries.tournament_view(tournament_id=tournament.pk, viewer=terms["creator"])
