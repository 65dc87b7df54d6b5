import time

from django.core.management.base import BaseCommand
from django.utils import timezone

from asnas_api.throttling import LONGEST_PERIOD, purge_rate_counters
from games.idempotency import purge_idempotency_records


class Command(BaseCommand):
    help = (
        "Delete rate-limit counters of closed windows and idempotency keys past their 24 hours. "
        "serve runs it at start; run it hourly (cron) on a long-lived server."
    )

    def handle(self, *args, **options):
        counters = purge_rate_counters(before=time.time() - LONGEST_PERIOD)
        keys = purge_idempotency_records(now=timezone.now())
        self.stdout.write(f"Deleted {counters} rate counters and {keys} idempotency keys.")
