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
    Benchmark,
    BenchmarkMatch,
    Commitment,
    Deal,
    DealReview,
    EventBatch,
    Hint,
    IdempotencyRecord,
    Match,
    Puzzle,
    PuzzleMined,
    PuzzleSolver,
    PuzzleTry,
    Seat,
    Tournament,
    WatchCode,
    WatchStream,
    WatchTicket,
)
from players.models import Player, Rating, RatingChange, StreamTicket, Token

# Written on sign-up, at a token's rotation and when a rated match ends (a two-phase commit
# on every node each time), read on every request.
REFERENCE = [Player, Token, Rating]
# A tournament is written at its creation and its close, read at each entry (locked) and by
# its matches' foreign key, which Citus allows from a distributed table to a reference table
# only. The puzzles: the next one is chosen among them all by rating, in one statement on
# one node; a try writes its puzzle, its try and its solver's rating (a two-phase commit on
# every node a try, not a move), the sweep's mining a few rows at a time.
REFERENCE += [Tournament, Puzzle, PuzzleTry, PuzzleSolver]
# A bot's benchmark is written at its start and once a match (each 12 deals: a two-phase
# commit on every node), found by its bot and read whole by the bots' leaderboard, and its
# matches' marks point at it, which Citus allows from a distributed table to a reference one.
REFERENCE += [Benchmark]
# Every row belongs to one match: co-located with it, by the match's id.
MATCH = Match
BY_MATCH = [Seat, Deal, DealReview, EventBatch, Hint, WatchStream, RatingChange, PuzzleMined]
BY_MATCH += [BenchmarkMatch]  # a benchmark's mark on its match, read by the match's id
# Found by one key, never with a match: each by that key.
BY_KEY = {
    IdempotencyRecord: "player_id",  # a create's key exists before its match
    StreamTicket: "ticket_hash",  # a player's own stream has no match
    WatchTicket: "ticket_hash",
    Commitment: "id",  # drawn before any match exists
    WatchCode: "code_hash",  # the spectator has the code, not the match
}


# Constraints Citus cannot hold (a unique constraint on a distributed table must contain its
# distribution column): citus_distribute drops them (partial ones, unique indexes to
# Postgres, by their index); the code's check under a lock holds each.
POSTGRES_ONLY_CONSTRAINTS = {
    # One entry per player per tournament: tournament_enter checks it under the tournament's
    # row lock, which every entry takes first.
    Match._meta.db_table: ["match_one_entry_per_tournament"],
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
