"""`manage.py train_ai`: train the `hard` level's strategy and write its asset. No DB."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.ai import strategy, training
from games.management.progress import progress_bar


class Command(BaseCommand):
    help = (
        "Train the hard AI with external-sampling MCCFR over the full game (788 betting "
        "nodes x 121 hands), measure it exactly and write games/ai/hard_strategy.json."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument(
            "--iterations", type=int, default=7_000_000, help="per worker (default: as shipped)"
        )
        parser.add_argument("--seed", type=int, default=9, help="default: as shipped")
        parser.add_argument(
            "--report-every",
            type=int,
            default=1_000_000,
            help="iterations between exact exploitability reports (0: only at the end)",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=2,
            help="independent runs in parallel processes (seeds seed, seed+1, ...), "
            "merged at the end; periodic reports need --workers 1",
        )
        parser.add_argument("--output", type=Path, default=strategy.ASSET_PATH)
        parser.add_argument("--no-progress", action="store_true")

    def handle(
        self, *args, iterations, seed, report_every, workers, output, no_progress, **options
    ):
        if iterations < 1 or workers < 1:
            raise CommandError("--iterations and --workers must be at least 1")
        self.stdout.write(
            f"Training {iterations:,} MCCFR iterations, seed {seed}"
            + (
                f", in each of {workers} workers (seeds {seed}..{seed + workers - 1})"
                if workers > 1
                else ""
            )
        )
        progress = progress_bar(disable=no_progress)
        started = time.perf_counter()
        with progress:
            task = progress.add_task("iterations", total=iterations * workers)

            def on_report(done, measured):
                by_position = " ".join(f"{x:.4f}" for x in measured["positions"])
                progress.console.print(
                    f"{done:>12,} iterations  {time.perf_counter() - started:7.0f} s  "
                    f"exploitability {measured['average']:.5f} pts/deal "
                    f"(by position from the dealer: {by_position})"
                )

            def on_progress(done):
                progress.update(task, completed=done)

            if workers == 1:
                trainer = training.train(
                    iterations,
                    seed,
                    on_progress=on_progress,
                    report_every=report_every,
                    on_report=on_report,
                )
            else:
                trainer = training.train_parallel(
                    iterations, seed, workers, on_progress=on_progress
                )
        seconds = time.perf_counter() - started
        self.stdout.write("Measuring the quantized table exactly over all 261,331 deals...")
        header = training.write(trainer, output, seconds)
        self.stdout.write(
            self.style.SUCCESS(
                f"Wrote {output} ({output.stat().st_size / 1024:.0f} KiB): exploitability "
                f"{header['exploitability']:.5f} pts/deal, rules {header['rules_version']}, "
                f"sha256 {header['sha256'][:16]}..."
            )
        )
