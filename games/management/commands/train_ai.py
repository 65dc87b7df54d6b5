"""`manage.py train_ai`: train the `hard` level's strategy and write its asset. No DB."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.ai import strategy, training
from games.management.progress import progress_bar

SHIPPED_METHOD = "cfr+"
SHIPPED_ITERATIONS = {training.MCCFR: 7_000_000, "cfr+": 500}
"""Iterations (per worker for MCCFR) of the tables each method made; cfr+ is shipped."""
DEFAULT_ITERATIONS = 500
DEFAULT_REPORT_EVERY = {training.MCCFR: 1_000_000}


class Command(BaseCommand):
    help = (
        "Train the hard AI over the full game (788 betting nodes x 121 hands) with "
        "full-width CFR+ (default), another full-width CFR variant or sampled MCCFR, "
        "measure it exactly and write games/ai/hard_strategy.json."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument(
            "--method",
            choices=sorted(training.ALGORITHMS),
            default=SHIPPED_METHOD,
            help="cfr, lcfr, cfr+, dcfr: full-width and deterministic (numpy); "
            "mccfr: sampled, pure Python (default: cfr+, as shipped)",
        )
        parser.add_argument(
            "--iterations",
            type=int,
            help="per worker for mccfr (default: as shipped for cfr+ and mccfr, "
            f"{DEFAULT_ITERATIONS} for the others)",
        )
        parser.add_argument("--seed", type=int, default=9, help="mccfr only (default: as shipped)")
        parser.add_argument(
            "--report-every",
            type=int,
            help="iterations between exact exploitability reports (0: only at the end; "
            "default 1,000,000 for mccfr, 50 for the others)",
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=2,
            help="mccfr only: independent runs in parallel processes (seeds seed, seed+1, "
            "...), merged at the end; periodic reports need --workers 1",
        )
        parser.add_argument("--output", type=Path, default=strategy.ASSET_PATH)
        parser.add_argument("--no-progress", action="store_true")

    def handle(
        self,
        *args,
        method,
        iterations,
        seed,
        report_every,
        workers,
        output,
        no_progress,
        **options,
    ):
        iterations = iterations or SHIPPED_ITERATIONS.get(method, DEFAULT_ITERATIONS)
        report_every = (
            DEFAULT_REPORT_EVERY.get(method, 50) if report_every is None else report_every
        )
        if iterations < 1 or workers < 1:
            raise CommandError("--iterations and --workers must be at least 1")
        self.stdout.write(_plan(method, iterations, seed, workers))
        started, cpu_started = time.perf_counter(), time.process_time()
        trainer = _train(
            method, iterations, seed, workers, report_every=report_every, visible=not no_progress
        )
        seconds = time.perf_counter() - started
        cpu_seconds = time.process_time() - cpu_started
        self.stdout.write(
            f"Trained in {seconds:.0f} s wall, {cpu_seconds:.0f} s cpu (this process). "
            "Measuring the quantized table exactly over all 261,331 deals..."
        )
        header = training.write(trainer, output, seconds, cpu_seconds=cpu_seconds)
        self.stdout.write(
            self.style.SUCCESS(
                f"Wrote {output} ({output.stat().st_size / 1024:.0f} KiB): exploitability "
                f"{header['exploitability']:.6f} pts/deal, rules {header['rules_version']}, "
                f"sha256 {header['sha256'][:16]}..."
            )
        )


def _plan(method: str, iterations: int, seed: int, workers: int) -> str:
    """What is about to be trained, as the first line says it."""
    if method != training.MCCFR:
        return f"Training {iterations:,} full-width {method} iterations"
    return f"Training {iterations:,} MCCFR iterations, seed {seed}" + (
        f", in each of {workers} workers (seeds {seed}..{seed + workers - 1})"
        if workers > 1
        else ""
    )


def _train(
    method: str, iterations: int, seed: int, workers: int, *, report_every: int, visible: bool
):
    """The trained trainer, with a progress bar and, every `report_every` iterations, the
    exact exploitability so far."""
    sampled = method == training.MCCFR
    progress = progress_bar(disable=not visible)
    started, cpu_started = time.perf_counter(), time.process_time()
    with progress:
        task = progress.add_task("iterations", total=iterations * (workers if sampled else 1))

        def on_report(done, measured):
            by_position = " ".join(f"{x:.5f}" for x in measured["positions"])
            progress.console.print(
                f"{done:>12,} iterations  {time.perf_counter() - started:7.0f} s wall  "
                f"{time.process_time() - cpu_started:7.0f} s cpu  "
                f"exploitability {measured['average']:.6f} pts/deal "
                f"(by position from the dealer: {by_position})"
            )

        def on_progress(done):
            progress.update(task, completed=done)

        if not sampled:
            return training.train_full_width(
                method,
                iterations,
                on_progress=on_progress,
                report_every=report_every,
                on_report=on_report,
            )
        if workers == 1:
            return training.train(
                iterations,
                seed,
                on_progress=on_progress,
                report_every=report_every,
                on_report=on_report,
            )
        return training.train_parallel(iterations, seed, workers, on_progress=on_progress)
