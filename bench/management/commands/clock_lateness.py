import statistics
import subprocess
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from asnas_api.clock import clock_process, clocks_stop
from asnas_api.management.commands import run_clock
from games.match import log as match_log
from games.match.commands import match_create, match_join
from games.match.integrity import replay_stored
from games.models import Match
from players.models import Player
from players.services import player_create


class Command(BaseCommand):
    help = (
        "Measure the turn clock: seat --matches two-human tables whose humans never act, "
        "with --turn-seconds turns, run --clocks clock processes for --seconds, and print the "
        "p50, p99 and max of (the clock's write - the deadline) over every turn it took. The "
        "clock's settings (ASNAS_CLOCK_*) apply. Run it on a throwaway database: it adds "
        "matches, and deletes them at the end."
    )

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=50)
        parser.add_argument("--turn-seconds", type=int, default=2)
        parser.add_argument("--seconds", type=float, default=30)
        parser.add_argument("--clocks", type=int, default=1)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, matches, turn_seconds, seconds, clocks, seed, **options):
        people = [player_create(name=f"clock-lateness-{n}")[0] for n in range(2)]
        ids = []
        # Started first, so that every deadline comes while a clock runs.
        running = [clock_process(stdout=subprocess.PIPE) for _ in range(clocks)]
        for clock in running:
            if clock.stdout.readline().decode().strip() != run_clock.READY:
                raise CommandError("a clock did not start")
        started = time.monotonic()
        for number in range(matches):
            table = match_create(
                owner=people[0],
                ai_level="easy",
                seed=seed + number,
                humans=2,
                turn_seconds=turn_seconds,
            )
            match_join(match_id=table.row.id, player=people[1], invite=table.row.invite)
            ids.append(table.row.id)
        try:
            time.sleep(max(0, seconds - (time.monotonic() - started)))
        finally:
            clocks_stop(running)
        late = []
        for match_id in ids:
            with transaction.atomic():
                stored = match_log.match_stored(match_id=match_id)
            late += [delay.total_seconds() for delay in replay_stored(stored, []).clock_lateness]
        Match.objects.filter(id__in=ids).delete()
        Player.objects.filter(id__in=[person.id for person in people]).delete()
        if len(late) < 2:
            self.stdout.write(f"{len(late)} turns taken: too few to measure; run it longer.")
            return
        late.sort()
        percentiles = statistics.quantiles(late, n=100, method="inclusive")
        self.stdout.write(
            f"{len(late)} turns taken by {clocks} clock(s) in {matches} matches over {seconds:g} s "
            f"(poll {settings.ASNAS_CLOCK_POLL_SECONDS:g} s, grace "
            f"{settings.ASNAS_CLOCK_GRACE_SECONDS:g} s): lateness p50 "
            f"{percentiles[49] * 1000:.0f} ms, p99 {percentiles[98] * 1000:.0f} ms, "
            f"max {late[-1] * 1000:.0f} ms"
        )
