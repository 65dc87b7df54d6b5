"""`manage.py train_expert`: build the `expert` level's asset, or check it. No DB."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.ai import expert, expert_training
from games.ai.exploit import exploitability
from games.management.progress import progress_bar


class Command(BaseCommand):
    help = (
        "Build games/ai/expert_strategy.json: for each assignment of easy, normal or hard "
        "to the expert's three opponents, an exact best response and a share of it that "
        "keeps the expert's mix with the hard blueprint at most 0.02 pts/deal exploitable, "
        "measured exactly. --verify measures the asset's mixes again with exploit.py "
        "(pure Python, independent of the numpy evaluator)."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--output", type=Path, default=expert.ASSET_PATH)
        parser.add_argument("--verify", action="store_true", help="check the asset instead")
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, output, verify, no_progress, **options):
        started, cpu_started = time.perf_counter(), time.process_time()
        assignments = expert_training.assignments()
        progress = progress_bar(disable=no_progress)
        with progress:
            task = progress.add_task("assignments", total=len(assignments))

            def report(assignment, share, measured):
                progress.console.print(
                    f"{','.join(assignment):<18} share {share / expert.EPS_DENOMINATOR:.3f}  "
                    f"exploitability {measured:.6f} pts/deal",
                    highlight=False,
                )
                progress.advance(task)

            if verify:
                self._verify(output, report)
                return
            _, shares, choices, measured = expert_training.build(report)
        meta = {
            "bound": expert_training.BOUND,
            "exploitability": {",".join(a): round(x, 7) for a, x in sorted(measured.items())},
            "wall_seconds": round(time.perf_counter() - started),
            "cpu_seconds": round(time.process_time() - cpu_started),
        }
        expert.write_asset(output, shares, choices, meta)
        self.stdout.write(
            self.style.SUCCESS(
                f"Wrote {output} ({output.stat().st_size / 1024:.0f} KiB): the worst mix is "
                f"{max(measured.values()):.6f} pts/deal exploitable, "
                f"in {meta['cpu_seconds']} s cpu"
            )
        )

    def _verify(self, path, report):
        asset = expert.read_asset(path)
        builder = expert_training.Builder()
        worst = 0.0
        for assignment in expert_training.assignments():
            share = asset.shares[assignment]
            rows = builder.mix_of(asset.choices[assignment], share)
            measured = exploitability(builder.evaluator.to_table(rows))["average"]
            report(assignment, share, measured)
            worst = max(worst, measured)
        if worst > expert_training.BOUND:
            raise CommandError(f"a mix is {worst:.6f} pts/deal exploitable, over the bound")
        self.stdout.write(self.style.SUCCESS(f"exploit.py: the worst mix is {worst:.6f} pts/deal"))
