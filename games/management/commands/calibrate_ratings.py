"""`manage.py calibrate_ratings`: the AI levels' anchor ratings (docs/ratings.md). No DB."""

import time

from django.core.management.base import BaseCommand

from games.rating_runs import calibrate

DEFAULT_MATCHES = 4000
DEFAULT_SEED = 2026


class Command(BaseCommand):
    help = (
        "Play every AI level against the others, one seat each, rate them all with OpenSkill "
        "and print their anchors as players/rating_anchors.py holds them: paste its output "
        "there (and in docs/ratings.md) to recalibrate."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=DEFAULT_MATCHES)
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED)

    def handle(self, *args, matches, seed, **options):
        started = time.perf_counter()

        def progress(done):
            if done % 500 == 0:
                self.stderr.write(f"  {done}/{matches} matches")

        found = calibrate(matches=matches, seed=seed, progress=progress)
        self.stdout.write(
            f"# manage.py calibrate_ratings --matches {matches} --seed {seed}"
            f" ({time.perf_counter() - started:.0f} s)"
        )
        self.stdout.write("ANCHORS = {")
        for level, rating in found.anchors.items():
            self.stdout.write(f'    "{level}": Rating(mu={rating.mu}, sigma={rating.sigma}),')
        self.stdout.write("}")
