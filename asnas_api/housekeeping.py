import time

from django.utils import timezone

from asnas_api.throttling import LONGEST_PERIOD, purge_rate_counters
from games.idempotency import purge_idempotency_records


def purge_expired() -> tuple[int, int]:
    """Delete rate counters of closed windows and idempotency keys past their 24 hours;
    return how many of each."""
    counters = purge_rate_counters(before=time.time() - LONGEST_PERIOD)
    keys = purge_idempotency_records(now=timezone.now())
    return counters, keys
