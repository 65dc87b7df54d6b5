"""`manage.py ai_tournament`: duplicate-deal tournament between AI levels. No DB."""

import time

from django.core.management.base import BaseCommand, CommandError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from games.ai import AI_LEVELS
from games.ai.tournament import run, seatings
from games.engine import MATCH_DEALS, SEATS


class Command(BaseCommand):
    help = (
        "Play a lineup of four AI levels through the engine with duplicate dealing: every "
        "12-deal match is replayed in every distinct seating of the lineup. Prints points "
        "per deal with 95% confidence intervals and each level's chance of finishing top."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument(
            "--deals", type=int, default=20_000, help="deals per seating (rounded up to 12s)"
        )
        parser.add_argument(
            "--levels",
            nargs=SEATS,
            default=["hard", "normal", "normal", "normal"],
            choices=AI_LEVELS,
            metavar="LEVEL",
            help="the four seats' levels (default: hard normal normal normal)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, deals, levels, seed, no_progress, **options):
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        if len(set(levels)) < 2:
            raise CommandError("--levels needs at least two different levels")
        lineup = tuple(levels)
        matches = -(-deals // MATCH_DEALS)
        arrangements = seatings(lineup)
        self.stdout.write(
            f"{' '.join(lineup)}: {matches:,} matches ({matches * MATCH_DEALS:,} deals) x "
            f"{len(arrangements)} seatings, seed {seed}"
        )
        progress = Progress(
            TextColumn("matches"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=no_progress,
        )
        started = time.perf_counter()
        with progress:
            task = progress.add_task("matches", total=matches)
            stats = run(lineup, matches, seed, lambda m: progress.update(task, completed=m))
        self.stdout.write(f"({time.perf_counter() - started:.0f} s)")
        seats_of = {level: lineup.count(level) for level in stats}
        for level, s in sorted(stats.items(), key=lambda item: -item[1].mean()):
            self.stdout.write(
                f"  {level:<7} x{seats_of[level]}  {s.mean():+.4f} ± {s.ci95():.4f} pts/deal "
                f"per seat (95% CI)   finishes top of a 12-deal match: "
                f"{s.top_rate() / seats_of[level]:.1%} per seat "
                f"(an even share is {1 / len(lineup):.0%})"
            )
