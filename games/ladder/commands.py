"""The ladder room's writes: start a bot's benchmark (its seed drawn, its first match dealt),
advance it (a finished match's deals added to the figure and the next match dealt), and the
housekeeping that deletes old benchmark matches (docs/bots.md)."""

import secrets
import threading
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.ai import coach, coach_tables
from games.ai.benchmark import Sums, seat_plays
from games.engine import MATCH_DEALS, BenchmarkStatus, DomainError, fairness
from games.ladder import queries, store
from games.match import log
from games.match import store as match_store
from games.match.commands import match_create
from games.models import Benchmark
from players.models import Player
from players.services import player_kind_locked

BENCHMARK_LEVEL = "hard"
"""The three AI seats' level: the strategy the figure's `play` is measured against."""
BOT_SEAT = 0
"""Where a benchmark seats its bot (`match_create` seats the owner there)."""
BENCHMARK_TURN_SECONDS = 10
"""A benchmark match's turn clock: a bot's (docs/bots.md)."""
FEWEST_DEALS = 120
MOST_DEALS = 12_000
KEPT_FOR = timedelta(days=7)
"""How long a benchmark's matches are kept once it finished or was abandoned (each about
12.8 KB, docs/scaling.md); the benchmark's figure is kept for good."""
PURGED_AT_ONCE = 200
"""The most matches one housekeeping pass deletes: a pass stays short, the next goes on."""


@transaction.atomic
def benchmark_start(*, player: Player, deals: int, server_seed: bytes | None = None) -> Benchmark:
    """A new benchmark of `deals` deals against three `hard` seats; its first match is dealt
    at once (no match-creation limit counts it). A benchmark still running is abandoned: a
    bot has one at a time. Each match deals from a seed derived from `server_seed` (drawn
    now unless given: the tests fix it to compare bots on the same deals)."""
    if deals % MATCH_DEALS or not FEWEST_DEALS <= deals <= MOST_DEALS:
        raise DomainError(
            "invalid_benchmark_size",
            f"A benchmark is {FEWEST_DEALS} to {MOST_DEALS:,} deals, in whole matches of "
            f"{MATCH_DEALS}; {deals} is not.",
        )
    # The benchmark's lock first, the player's row after: on Citus, two starts that both
    # locked the player (a reference table) before it deadlocked on the rows they wrote.
    running = store.benchmark_lock(player=player)
    if player_kind_locked(player=player) != Player.Kind.BOT:
        raise DomainError("only_for_bots", "Only a bot is benchmarked: declare the account a bot.")
    now = timezone.now()
    if running is not None and running.status == BenchmarkStatus.RUNNING:
        running.status, running.finished_at, running.current_match = (
            BenchmarkStatus.ABANDONED,
            now,
            None,
        )
        store.benchmark_save(running, "status", "finished_at", "current_match")
    benchmark = store.benchmark_insert(
        player=player,
        deals=deals,
        server_seed=(server_seed or secrets.token_bytes(fairness.SEED_BYTES)).hex(),
        status=BenchmarkStatus.RUNNING,
        sums=Sums().to_dict(),
    )
    _deal_next(benchmark)
    store.benchmark_save(benchmark, "matches", "current_match")
    return benchmark


def benchmark_advance(*, player: Player) -> Benchmark | None:
    """The player's newest benchmark, brought up to date: if its match in play has ended,
    the match's deals are added to the figure, and the next match is dealt, or the benchmark
    finishes. Under the benchmark's lock, so a match counts once however many reads come."""
    with transaction.atomic():
        benchmark = store.benchmark_lock(player=player)
        if benchmark is None or benchmark.status != BenchmarkStatus.RUNNING:
            return benchmark
        if not store.match_over(match_id=benchmark.current_match):
            return benchmark
        # The coach's tables make a decision's values a walk down the betting tree. Until
        # this process has mapped them, a match's deals would be valued by sums over every
        # deal (about 6 s of CPU), and waiting for a first build took a minute or more, past
        # the request's deadline (a 503 that held the lock meanwhile): say so, change nothing.
        if coach_tables.mapped() is None:
            _warm_soon()
            raise DomainError(
                "benchmark_pending",
                "The match that ended is counted once this server's AI tables are ready; "
                "retry soon.",
            )
        sums = Sums.from_dict(benchmark.sums)
        events = (event for _, event in log.match_events(match_id=benchmark.current_match))
        for play, result in seat_plays(events, BOT_SEAT):
            sums = sums.add(play=play, result=result)
        benchmark.sums = sums.to_dict()
        if benchmark.matches * MATCH_DEALS >= benchmark.deals:
            benchmark.status, benchmark.finished_at = BenchmarkStatus.FINISHED, timezone.now()
            benchmark.current_match = None
        else:
            _deal_next(benchmark)
        store.benchmark_save(benchmark, "sums", "status", "finished_at", "matches", "current_match")
    return benchmark


_warm_started = threading.Lock()


def _warm_soon() -> None:
    """The AI's tables mapped in a thread of its own (`coach.warm`), started once per process:
    an ASGI worker starts one as it starts, a WSGI process or a test process has no other."""
    if _warm_started.acquire(blocking=False):
        threading.Thread(target=coach.warm, name="coach-warm-up", daemon=True).start()


def _deal_next(benchmark: Benchmark) -> None:
    """Deal the benchmark's next match, seated as any match alone (the bot at seat 0), from
    its own seed: HMAC-SHA256 of `pool:<number>` keyed with the benchmark's seed."""
    number = benchmark.matches
    match = match_create(
        owner=benchmark.player,
        ai_level=BENCHMARK_LEVEL,
        turn_seconds=BENCHMARK_TURN_SECONDS,
        dealt_from=fairness.pool_seed(bytes.fromhex(benchmark.server_seed), number),
    )
    store.benchmark_match_insert(benchmark=benchmark, match_id=match.row.id, number=number)
    benchmark.matches, benchmark.current_match = number + 1, match.row.id


def benchmark_start_answer(*, player: Player, deals: int) -> dict:
    """`benchmark_start`, answering with the benchmark as its bot sees it."""
    return queries.benchmark_view(benchmark=benchmark_start(player=player, deals=deals))


def benchmark_read_answer(*, player: Player) -> dict:
    """The bot's newest benchmark (queries.benchmark_view), advanced first."""
    if player.kind != Player.Kind.BOT:
        raise DomainError("only_for_bots", "Only a bot is benchmarked: declare the account a bot.")
    benchmark = benchmark_advance(player=player)
    if benchmark is None:
        raise DomainError("not_found", "You have not asked for a benchmark yet.")
    return queries.benchmark_view(benchmark=benchmark)


def benchmark_matches_purge(*, now: datetime) -> int:
    """Delete up to PURGED_AT_ONCE matches of benchmarks that ended more than KEPT_FOR ago
    (the clock's housekeeping): how many matches went."""
    match_ids = store.benchmark_match_ids_ended_before(before=now - KEPT_FOR, limit=PURGED_AT_ONCE)
    if match_ids:
        match_store.matches_delete(match_ids=match_ids)
    return len(match_ids)
