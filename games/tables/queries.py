"""The tables room's reads: the lobby (the open tables still waiting that fit some
filters), and the table an invitation lets a player join, as the lobby shows it."""

import uuid

from games.engine import DomainError, Join, decide
from games.match import store as match_store
from games.match.loaded import LoadedMatch
from games.tables import store
from games.tables.filters import TableFilters
from games.tables.store import OpenTable
from players.models import Player

TABLES_LIMIT = 50
"""The most tables the lobby lists: the longest waiting."""


def tables_open(*, filters: TableFilters) -> list[dict]:
    """The open tables still waiting that fit `filters`, longest waiting first, as
    OpenTableSerializer shows them: one query, however many tables."""
    return [_open_table(table) for table in store.tables_open(filters=filters, limit=TABLES_LIMIT)]


def table_invitation(*, match_id: uuid.UUID, player: Player, invite: str) -> dict:
    """The table `invite` lets `player` join, as the lobby shows an open table, so that they
    can choose before joining; nothing changes. Refused as the join would be: a wrong invite
    or an unknown match is `not_found` (the two look alike), and `already_seated`,
    `match_full` (started) or `match_abandoned` once the table is no longer theirs to join."""
    match = table_admitting(
        match=match_store.match_load(match_id=match_id, player=None), player=player, invite=invite
    )
    # The engine's own refusals of this join; the events it would record are dropped.
    decide(match.state, Join(player.name))
    return _open_table(store.open_table(match))


def table_admitting(*, match: LoadedMatch | None, player: Player, invite: str) -> LoadedMatch:
    """`match` if `invite` lets `player` take a seat there, as a join and an invitation
    check it: a wrong invite or no match is `not_found` (the two look alike), a table they
    sit at already is `already_seated`."""
    if match is None or not match.admits(invite):
        raise DomainError("not_found", "No such match.")
    if any(seat.player == str(player.pk) for seat in match.seats):
        raise DomainError("already_seated", "You already sit at this table.")
    return match


def _open_table(table: OpenTable) -> dict:
    """A waiting table as OpenTableSerializer shows it: what someone choosing where to sit
    may know of it, and no more (no invite, no hand, no seed)."""
    return {
        "id": table.id,
        "owner": table.seats[0].name,
        "humans": table.humans,
        "seats_free": sum(seat.player is None for seat in table.seats),
        "seats": [
            {"seat": number, "name": seat.name, "kind": seat.kind, "free": seat.player is None}
            for number, seat in enumerate(table.seats)
        ],
        "turn_seconds": table.turn_seconds,
        "ai_level": table.ai_level,
        "verifiable": table.verifiable,
        "spectators": table.spectators,
        "fill_at": table.fill_at,
        "bots": table.bots,
        "created_at": table.created_at,
    }
