"""The ladder room's store: the only code touching Benchmark and BenchmarkMatch rows, and
its reads of the benchmark matches' own rows (the match room's: only its store writes them)."""

import uuid
import zlib
from datetime import datetime

from django.db import connection
from django.db.models import Q

from games.engine import BenchmarkStatus, Status
from games.match.store import SEQUENTIAL
from games.models import Benchmark, BenchmarkMatch, Match
from players.models import Player

LADDER_LOCKS = 0x4C41
"""The advisory locks' first key for a player's benchmarks (two-key locks, a space apart
from the one-key locks of the clock)."""


def benchmark_insert(**fields) -> Benchmark:
    return Benchmark.objects.create(**fields)


def benchmark_latest(*, player: Player) -> Benchmark | None:
    """The player's newest benchmark, whatever its status."""
    return Benchmark.objects.filter(player=player).order_by("-created_at").first()


def benchmark_lock(*, player: Player) -> Benchmark | None:
    """The player's newest benchmark, locked until the transaction ends: its advance (the
    next match dealt, the sums taken) and a new benchmark take this lock, so that a match is
    counted once and dealt once, however many requests of the bot come at once.
    On Citus the advance reads a match on one shard and deals the next on another, and may
    create the AI's players (a reference table): the transaction keeps one connection a
    node (SEQUENTIAL; Postgres alone ignores it).
    A player with no benchmark yet has no row to lock: the lock is an advisory one on the
    player, so that two first benchmarks asked for at once are dealt one after the other."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {SEQUENTIAL}")
        key = zlib.crc32(player.pk.bytes) - 2**31  # an int4, as the lock takes
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LADDER_LOCKS, key])
    return benchmark_latest(player=player)


def benchmark_save(benchmark: Benchmark, *fields: str) -> None:
    benchmark.save(update_fields=list(fields))


def benchmark_match_insert(*, benchmark: Benchmark, match_id: uuid.UUID, number: int) -> None:
    BenchmarkMatch.objects.create(benchmark=benchmark, match_id=match_id, number=number)


def is_benchmark_match(*, match_id: uuid.UUID) -> bool:
    """Whether a benchmark dealt the match (a read by the match's id: one shard)."""
    return BenchmarkMatch.objects.filter(match_id=match_id).exists()


def match_over(*, match_id: uuid.UUID) -> bool:
    """Whether the match has ended (finished, or abandoned), so its deals can be counted."""
    status = Match.objects.filter(id=match_id).values_list("status", flat=True).first()
    return status in (Status.FINISHED, Status.ABANDONED)


def finished_benchmarks() -> list[tuple[str, dict, datetime]]:
    """Each bot's latest finished benchmark, as (the bot's name, its sums, when it finished):
    one row a bot, whose latest finished benchmark replaces its earlier ones."""
    latest = (
        Benchmark.objects.filter(status=BenchmarkStatus.FINISHED)
        .order_by("player_id", "-finished_at")
        .distinct("player_id")
    )
    return list(latest.values_list("player__name", "sums", "finished_at"))


def benchmark_match_ids_ended_before(*, before: datetime, limit: int) -> list[uuid.UUID]:
    """Up to `limit` matches of benchmarks that finished or were abandoned before `before`,
    themselves over: what the housekeeping deletes."""
    old = BenchmarkMatch.objects.filter(
        ~Q(benchmark__status=BenchmarkStatus.RUNNING), benchmark__finished_at__lt=before
    )
    ended = Match.objects.filter(
        id__in=old.values("match_id"), status__in=(Status.FINISHED, Status.ABANDONED)
    )
    return list(ended.values_list("id", flat=True)[:limit])
