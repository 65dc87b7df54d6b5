import time

from django.utils import timezone

from asnas_api.throttling import LONGEST_PERIOD, purge_rate_counters
from games.idempotency import purge_idempotency_records
from games.services import commitments_purge
from players.services import stream_tickets_purge


def purge_expired() -> tuple[int, int, int, int]:
    """Delete rate counters of closed windows, idempotency keys past their 24 hours,
    expired stream tickets and expired commitments; return how many of each."""
    counters = purge_rate_counters(before=time.time() - LONGEST_PERIOD)
    keys = purge_idempotency_records(now=timezone.now())
    tickets = stream_tickets_purge(now=timezone.now())
    commitments = commitments_purge(now=timezone.now())
    return counters, keys, tickets, commitments
