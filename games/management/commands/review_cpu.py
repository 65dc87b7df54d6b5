"""`manage.py review_cpu`: the server's CPU for a whole match's review (docs/review.md, "What
it costs"), the old way and the new side by side in one run. No DB."""

import random
import statistics
import time

from django.core.management.base import BaseCommand

from games.ai import AI_LEVELS, coach, coach_tables
from games.engine import DealEnded, DealStarted, decode_event, encode_event
from games.management.commands.review_counts import simulated_match
from games.review import bodies


def deal_ends(lines: list[str]) -> list[tuple[int, bodies.Key]]:
    """Where each deal of a match's encoded events ends: (how many events then, its key)."""
    ends, key = [], None
    for seq, line in enumerate(lines, 1):
        event = decode_event(line)
        if isinstance(event, DealStarted):
            key = (event.series, event.deal_number)
        elif isinstance(event, DealEnded):
            ends.append((seq, key))
    return ends


def reviews_whole(lines: list[str], level: str) -> tuple[list, list[float]]:
    """The old way: at each deal's end, the match's events so far decoded and replayed from
    the first; (each deal's (key, body), each deal end's CPU seconds)."""
    found, cpu = [], []
    for end, key in deal_ends(lines):
        started = time.process_time()
        events = [decode_event(line) for line in lines[:end]]
        found.extend(bodies.reviews(events, level, wanted={key}))
        cpu.append(time.process_time() - started)
    return found, cpu


def reviews_deal_by_deal(lines: list[str], level: str) -> tuple[list, list[float]]:
    """The new way, as games.review.commands does it in the process that kept the match's
    replay: at each deal's end, only the events since the last decoded and replayed."""
    found, cpu, replay = [], [], bodies.Replay(level)
    for end, key in deal_ends(lines):
        started = time.process_time()
        events = [(seq, decode_event(lines[seq - 1])) for seq in range(replay.seq + 1, end + 1)]
        found.extend(bodies.reviews_after(replay, events, {key}))
        cpu.append(time.process_time() - started)
    return found, cpu


WAYS = {"whole match": reviews_whole, "deal by deal": reviews_deal_by_deal}


class Command(BaseCommand):
    help = (
        "Simulate --matches 12-deal matches a level (seat 0 a player choosing as the level, "
        "the others AI seats of it) and review each as the server does, deal end by deal "
        "end, both the old way (the match replayed whole at each deal's end) and the new "
        "(only the events since the last deal's end): per whole match, the process CPU "
        "time's mean, standard deviation and maximum. The database's own CPU (one read of "
        "the events and one small update per deal) is left out; so is the simulation, and a "
        "first match per level reviewed both ways before the others, to warm the process."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=40)
        parser.add_argument(
            "--levels", nargs="+", choices=AI_LEVELS, default=["hard", "normal", "easy"]
        )
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, matches, levels, seed, **options):
        coach.warm()
        coach_tables.load()
        order = random.Random(seed)
        for level in levels:
            # A process's first reviews work out the blind spots not shipped worked out, once
            # (docs/review.md): one match reviewed both ways first, not counted.
            warm_up = [encode_event(e) for e in simulated_match(level, level, seed - 1)]
            for way in WAYS.values():
                way(warm_up, level)
            totals = {way: [] for way in WAYS}
            for match in range(matches):
                lines = [encode_event(e) for e in simulated_match(level, level, seed + match)]
                # Either way first by turns: the second meets the per-process caches of
                # blind values the first filled, so neither is always the one favoured.
                ways = list(WAYS)
                order.shuffle(ways)
                found = {}
                for way in ways:
                    found[way], cpu = WAYS[way](lines, level)
                    totals[way].append(sum(cpu))
                if found["whole match"] != found["deal by deal"]:
                    raise SystemExit(f"{level} match {match}: the two ways' reviews differ")
            for way, cpu in totals.items():
                ms = [1000 * each for each in cpu]
                self.stdout.write(
                    f"{level:<6} {way:<12} {len(ms)} matches: mean {statistics.mean(ms):.1f} ms,"
                    f" sd {statistics.pstdev(ms):.1f}, max {max(ms):.1f} ms"
                    f" ({sum(ms > 50 for ms in ms)} over 50 ms)"
                )
