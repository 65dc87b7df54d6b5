"""Where each table lives on Citus (docs/scaling.md), declared once: `manage.py
citus_distribute` applies it, and tests/scaling check it against the schema.

Every row of a match, and the match itself, is distributed by the match's id and co-located,
so a match lives wholly on one shard and every query that names it runs on one node. The
small tables read on every request and written rarely are reference tables, a copy on every
node. The rest are distributed by the key they are always found by, but for the rate
counters, which stay on the coordinator with Django's own tables (auth_*, django_*, which
only the staff's admin uses).
"""

from asnas_api.models import RateCounter
from games.models import (
    Commitment,
    Deal,
    EventBatch,
    Hint,
    IdempotencyRecord,
    Match,
    Seat,
    WatchCode,
    WatchStream,
    WatchTicket,
)
from players.models import Player, Rating, RatingChange, StreamTicket, Token

# Written on sign-up, at a token's rotation and when a rated match ends (a two-phase commit
# on every node each time), read on every request.
REFERENCE = [Player, Token, Rating]
# Every row belongs to one match: co-located with it, by the match's id.
MATCH = Match
BY_MATCH = [Seat, Deal, EventBatch, Hint, WatchStream, RatingChange]
# Found by one key, never with a match: each by that key.
BY_KEY = {
    IdempotencyRecord: "player_id",  # a create's key exists before its match
    StreamTicket: "ticket_hash",  # a player's own stream has no match
    WatchTicket: "ticket_hash",
    Commitment: "id",  # drawn before any match exists
    WatchCode: "code_hash",  # the spectator has the code, not the match
}


# Plain tables of the coordinator, as Django's own are. The rate counters are counted by one
# upsert of every request, outside any match's transaction: distributed, the upsert of a
# request's two or three keys would reach as many shards and commit on several nodes each
# time; on the coordinator it is one local statement (and stays UNLOGGED).
COORDINATOR = [RateCounter]


def coordinator_tables() -> list[str]:
    return [model._meta.db_table for model in COORDINATOR]


def reference_tables() -> list[str]:
    return [model._meta.db_table for model in REFERENCE]


def distributed_tables() -> dict[str, tuple[str, str | None]]:
    """Each distributed table's distribution column, and the table it is co-located with."""
    match = MATCH._meta.db_table
    placed = {match: (MATCH._meta.pk.column, None)}
    placed |= {model._meta.db_table: ("match_id", match) for model in BY_MATCH}
    placed |= {model._meta.db_table: (column, None) for model, column in BY_KEY.items()}
    return placed
