import time

from django.utils import timezone

from asnas_api.gate import LONGEST_PERIOD, purge_rate_counters
from games.fairness.commands import commitments_purge
from games.http.idempotency import purge_idempotency_records
from games.ladder.commands import benchmark_matches_purge
from games.spectating.commands import watch_streams_purge, watch_tickets_purge
from games.tournaments.commands import tournaments_close_due
from players.services import stream_tickets_purge


def purge_expired() -> tuple[int, int, int, int, int]:
    """Delete rate counters of closed windows, idempotency keys past their 24 hours,
    expired stream and watch tickets (and the rows of watch streams whose process died),
    expired commitments and the matches of bots' benchmarks that ended over a week ago (a
    few hundred a pass, docs/bots.md); return how many of each: counters, keys, tickets,
    commitments, benchmark matches."""
    counters = purge_rate_counters(before=time.time() - LONGEST_PERIOD)
    now = timezone.now()
    keys = purge_idempotency_records(now=now)
    watch_streams_purge(now=now)
    tickets = stream_tickets_purge(now=now) + watch_tickets_purge(now=now)
    commitments = commitments_purge(now=now)
    return counters, keys, tickets, commitments, benchmark_matches_purge(now=now)


def close_due_tournaments() -> int:
    """Close the tournaments whose play deadline has passed (docs/tournaments.md): every
    match of each stops and reveals the seed. Each closes once under its row lock, however
    many clocks (or readers, which close a tournament past due too) try at once."""
    return tournaments_close_due(now=timezone.now())
