"""`manage.py simulate`: the engine's benchmark. Plays random legal deals, one core, no DB."""

import time

from django.core.management.base import BaseCommand, CommandError

from games.engine import new_seed
from games.engine.simulate import simulate
from games.management.progress import progress_bar

PROGRESS_EVERY = 1000
"""Deals between progress-bar updates: often enough to watch, rare enough to cost nothing."""


class Command(BaseCommand):
    help = (
        "Play deals with uniformly random legal actions through decide/evolve and report "
        "deals per second (the engine's benchmark). Touches no database."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--deals", type=int, default=100_000, help="deals to play")
        parser.add_argument("--seed", type=int, help="random seed (default: a fresh one)")
        parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    def handle(self, *args, deals, seed, no_progress, **options):
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        if seed is None:
            seed = new_seed()
        self.stdout.write(f"Simulating {deals:,} deals with seed {seed}")
        progress = progress_bar(disable=no_progress)
        with progress:
            task = progress.add_task("deals", total=deals)

            def on_deal(done: int) -> None:
                if done % PROGRESS_EVERY == 0:
                    progress.update(task, completed=done)

            started, started_cpu = time.perf_counter(), time.process_time()
            report = simulate(deals, seed, on_deal=on_deal)
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - started_cpu
            progress.update(task, completed=deals)

        rate = report.deals / elapsed if elapsed else float("inf")
        # Per CPU-second too: on a shared machine the wall time counts other processes' turns.
        per_cpu_second = report.deals / cpu if cpu else float("inf")
        self.stdout.write(
            f"deals: {report.deals:,} in {elapsed:.2f} s = {rate:,.0f} deals/s "
            f"({per_cpu_second:,.0f} per CPU-second)"
        )
        self.stdout.write(
            f"actions: {report.actions:,} ({report.actions / report.deals:.2f} per deal, "
            f"at most {report.max_actions_in_deal} in one deal, looks included)"
        )
        for outcome, count in sorted(report.outcomes.items()):
            self.stdout.write(f"{outcome}: {count:,} ({100 * count / report.deals:.1f}%)")
