from django.core.management.base import BaseCommand

from asnas_api.housekeeping import purge_expired


class Command(BaseCommand):
    help = (
        "Delete rate-limit counters of closed windows, idempotency keys past their 24 hours and "
        "expired stream tickets and commitments, and the matches of bots' benchmarks that ended "
        "over a week ago. "
        "The turn clock runs it every ASNAS_PURGE_INTERVAL_SECONDS."
    )

    def handle(self, *args, **options):
        counters, keys, tickets, commitments, benchmark_matches = purge_expired()
        self.stdout.write(
            f"Deleted {counters} rate counters, {keys} idempotency keys,"
            f" {tickets} stream tickets, {commitments} commitments"
            f" and {benchmark_matches} benchmark matches."
        )
