"""`manage.py bench`: the load benchmark over real HTTP and Postgres (see docs/performance.md)."""

import contextlib
import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from rich.console import Console

from bench import baseline, compare, hint_burst, report, watchers
from bench.checkout import Baseline, working_tree
from bench.players import Player, hit
from bench.seed import seed_finished_matches
from bench.server import SERVERS, Server, cpu_between
from bench.streams import HeldStreams
from games.ai import AI_LEVELS, DEFAULT_AI_LEVEL
from games.engine import MATCH_DEALS
from games.management.progress import progress_bar

# (name, method, path) of /healthz and the floors (asnas_api/bench_metrics.py), measured
# before play.
YARDSTICKS = (
    ("healthz", "GET", "/healthz"),
    ("floor_read", "GET", "/bench/floor/read"),
    ("floor_write", "POST", "/bench/floor/write/{match}"),
)


class Command(BaseCommand):
    help = (
        "Start the server on a fresh embedded Postgres, measure bare /healthz, then let simulated "
        "players play whole matches over HTTP; report latency, queries and server CPU."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        _play_arguments(parser)
        _hint_burst_arguments(parser)
        _baseline_arguments(parser)
        _watcher_arguments(parser)
        parser.add_argument("--json", type=Path, help="also write the report to this file")
        parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")

    def handle(self, *args, **options):
        if options["watchers"]:
            self._watchers(options)
            return
        if options["baseline"] is not None:
            self._baseline(options)
            return
        if options["workers"] is None:
            options["workers"] = 4
        for name in ("players", "matches_per_player", "workers", "healthz_requests"):
            if options[name] < 1:
                raise CommandError(f"--{name.replace('_', '-')} must be at least 1")
        if options["hint_burst"]:
            self._hint_burst(options)
            return
        console = Console(stderr=True)
        self.progress = progress_bar(disable=options["no_progress"], console=console)
        load_before = os.getloadavg()
        with Server(options["workers"], options["server"]) as server, self.progress:
            yardsticks, play, streams = self._run(server, options)
        config = {
            key: options[key]
            for key in (
                "server",
                "players",
                "matches_per_player",
                "workers",
                "seed_matches",
                "ai_level",
                "streams",
            )
        }
        config.update(cpus=os.cpu_count(), load_before=load_before, load_after=os.getloadavg())
        result = report.build(config=config, yardsticks=yardsticks, play=play)
        if streams:
            result["streams"] = streams
        report.show(Console(file=self.stdout, width=120), result)
        if options["json"]:
            options["json"].write_text(json.dumps(result, indent=2) + "\n")

    def _baseline(self, options: dict) -> None:
        load = baseline_load(options)
        console = Console(stderr=True)
        load_before = os.getloadavg()
        try:
            checkout = Baseline(options["baseline"])
        except ValueError as error:
            raise CommandError(str(error)) from error
        working = working_tree()
        with checkout as side:
            results = baseline.run(
                side,
                working,
                load,
                options["rounds"],
                say=lambda text: console.print(text, highlight=False),
            )
        config = {
            "baseline": side.commit,
            "working_tree": working.commit,
            "rounds": options["rounds"],
            **dataclasses.asdict(load),
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_after": os.getloadavg(),
        }
        result = {
            "config": config,
            "summary": compare.summarize(results, load.players),
            "rounds": results,
        }
        compare.show(Console(file=self.stdout, width=160), result)
        if options["json"]:
            options["json"].write_text(json.dumps(result, indent=2) + "\n")

    def _watchers(self, options: dict) -> None:
        try:
            sizes = tuple(int(size) for size in options["watcher_sizes"].split(","))
        except ValueError as error:
            raise CommandError("--watcher-sizes is a list of numbers: 1,10,100,1000") from error
        if min(sizes) < 1 or options["watcher_writes"] < 1 or options["rounds"] < 1:
            raise CommandError("sizes, --watcher-writes and --rounds must be at least 1")
        load = watchers.WatcherLoad(
            sizes=(0, *sizes), writes=options["watcher_writes"], rounds=options["rounds"]
        )
        console = Console(stderr=True)
        load_before = os.getloadavg()
        working = working_tree()
        with contextlib.ExitStack() as stack:
            sides = [working]
            if options["baseline"] is not None:
                try:
                    checkout = Baseline(options["baseline"])
                except ValueError as error:
                    raise CommandError(str(error)) from error
                sides.insert(0, stack.enter_context(checkout))
            results = watchers.run(sides, load, say=lambda text: console.print(text))
        result = {
            "config": {
                "sides": {side.name: side.commit for side in sides},
                **dataclasses.asdict(load),
                "cpus": os.cpu_count(),
                "load_before": load_before,
                "load_after": os.getloadavg(),
            },
            "summary": watchers.summarize(results),
            "rounds": results,
        }
        report.show_watchers(Console(file=self.stdout, width=160), result)
        if options["json"]:
            options["json"].write_text(json.dumps(result, indent=2) + "\n")

    def _hint_burst(self, options: dict) -> None:
        if options["workers"] is None:
            options["workers"] = 4
        for name in ("hint_players", "hint_addresses", "hint_repeats", "workers"):
            if options[name] < 1:
                raise CommandError(f"--{name.replace('_', '-')} must be at least 1")
        load_before = os.getloadavg()
        with Server(options["workers"], options["server"]) as server:
            result = hint_burst.run(
                server,
                players=options["hint_players"],
                addresses=options["hint_addresses"],
                repeats=options["hint_repeats"],
                quiet_seconds=options["quiet_seconds"],
                seconds=options["burst_seconds"],
                seed=options["seed"],
            )
        result["config"] = {
            "server": options["server"],
            "workers": options["workers"],
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_after": os.getloadavg(),
        }
        report.show_hint_burst(Console(file=self.stdout, width=120), result)
        if options["json"]:
            options["json"].write_text(json.dumps(result, indent=2) + "\n")

    def _run(self, server: Server, options: dict) -> tuple[dict[str, dict], dict, dict]:
        with contextlib.ExitStack() as held:
            streams = {}
            if options["streams"]:
                streams = self._hold_streams(server, options["streams"], held)
            return (*self._measure(server, options), streams)

    def _hold_streams(self, server: Server, count: int, held: contextlib.ExitStack) -> dict:
        """Open `count` streams, kept until `held` closes; what they cost the server's memory."""
        task = self.progress.add_task(f"opening {count} streams", total=1)
        rss_before, threads_before = server.settled_rss_bytes(), server.threads()
        held.enter_context(HeldStreams(server.url, count))
        time.sleep(1)  # what the streams allocated settles
        rss_after, threads_after = server.rss_bytes(), server.threads()
        self.progress.update(task, completed=1)
        return {
            "open": count,
            "server_rss_mib_before": rss_before / 2**20,
            "server_rss_mib_after": rss_after / 2**20,
            "kib_per_stream": (rss_after - rss_before) / count / 1024,
            # All opened at once: the threads are as many as were in their views at once.
            "server_threads_before": threads_before,
            "server_threads_after": threads_after,
        }

    def _measure(self, server: Server, options: dict) -> tuple[dict[str, dict], dict]:
        players = [
            Player(number, server.url, options["seed"], options["ai_level"])
            for number in range(options["players"])
        ]
        # Warm-up: every worker imports and connects, and one finished match is the seed's model.
        self._phase(server, "warm-up", [_warm_up(player) for player in players])
        if options["seed_matches"]:
            task = self.progress.add_task("storing finished matches", total=options["seed_matches"])
            seed_finished_matches(
                players[0].finished_match_ids[0],
                options["seed_matches"],
                on_chunk=lambda done: self.progress.update(task, completed=done),
            )
        for player in players:
            player.samples.clear()
            player.deals_done = 0

        # The yardstick and the floors, each in a phase of its own: the server CPU of a phase
        # over its requests is what one costs. A floor write appends to a player's finished
        # match, which nothing reads afterwards.
        per_thread = -(-options["healthz_requests"] // len(players))
        yardsticks = {}
        for name, method, path in YARDSTICKS:
            samples = [[] for _ in players]
            paths = [path.format(match=player.finished_match_ids[0]) for player in players]
            phase = self._phase(
                server,
                name,
                [
                    partial(hit, server.url, method, path, per_thread, mine)
                    for path, mine in zip(paths, samples, strict=True)
                ],
                total=per_thread * len(players),
                done=lambda samples=samples: sum(map(len, samples)),
            )
            phase["samples"] = [sample for mine in samples for sample in mine]
            yardsticks[name] = phase

        matches = options["matches_per_player"]
        play = self._phase(
            server,
            "deals played",
            [partial(_play, player, matches) for player in players],
            total=len(players) * matches * MATCH_DEALS,
            done=lambda: sum(player.deals_done for player in players),
        )
        play["samples"] = [sample for player in players for sample in player.samples]
        return yardsticks, play

    def _phase(
        self,
        server: Server,
        name: str,
        tasks: list[Callable[[], None]],
        total: int | None = None,
        done: Callable[[], int] | None = None,
    ) -> dict:
        """Run `tasks` in one thread each, and measure the wall time and server CPU they take."""
        errors: list[BaseException] = []

        def guarded(task):
            try:
                task()
            except BaseException as error:  # re-raised below, in the main thread
                errors.append(error)

        progress_task = self.progress.add_task(name, total=total)
        threads = [threading.Thread(target=guarded, args=(task,), daemon=True) for task in tasks]
        cpu_before, client_before = server.cpu_sample(), time.process_time_ns()
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.2)
                if done:
                    self.progress.update(progress_task, completed=done())
        seconds = time.perf_counter() - started
        client_ns = time.process_time_ns() - client_before
        server_ns = cpu_between(cpu_before, server.cpu_sample())
        self.progress.update(progress_task, completed=done() if done else 1, total=total or 1)
        if errors:
            raise CommandError(f"{name}: {errors[0]!r}") from errors[0]
        return {"seconds": seconds, "server_ns": server_ns, "client_ns": client_ns}


def _warm_up(player: Player) -> Callable[[], None]:
    def run() -> None:
        player.register()
        player.play_match()

    return run


def _play(player: Player, matches: int) -> None:
    for _ in range(matches):
        player.play_match()


# Options that only the plain bench has: --baseline runs the load both sides support.
NOT_WITH_BASELINE = {
    "hint_burst": False,
    "seed_matches": 0,
    "streams": 0,
    "server": SERVERS[0],
}


def baseline_load(options: dict) -> baseline.Load:
    """The load of `bench --baseline` from the command's options, checked."""
    for name, default in NOT_WITH_BASELINE.items():
        if options[name] != default:
            raise CommandError(f"--{name.replace('_', '-')} does not go with --baseline")
    for name in ("players", "rounds"):
        if options[name] < 1:
            raise CommandError(f"--{name} must be at least 1")
    if options["workers"] is not None and options["workers"] < 1:
        raise CommandError("--workers must be at least 1")
    if options["hints"] < 0:
        raise CommandError("--hints must not be negative")
    for name in ("seconds", "get_seconds"):
        if options[name] <= 0:
            raise CommandError(f"--{name.replace('_', '-')} must be more than 0")
    if options["settle_seconds"] < 0:
        raise CommandError("--settle-seconds must not be negative")
    return baseline.Load(
        workers=options["workers"] or 2,
        players=options["players"],
        seconds=options["seconds"],
        get_seconds=options["get_seconds"],
        hints=options["hints"],
        settle_seconds=options["settle_seconds"],
        ai_level=options["ai_level"],
        seed=options["seed"],
    )


def _play_arguments(parser) -> None:
    """How many play, on which server, with what stored first."""
    parser.add_argument("--players", type=int, default=8, help="concurrent players")
    parser.add_argument("--matches-per-player", type=int, default=2)
    parser.add_argument(
        "--workers",
        type=int,
        help="server worker processes (default 4; with --baseline 2, as serve's own default)",
    )
    parser.add_argument(
        "--server", choices=SERVERS, default=SERVERS[0], help="the HTTP server to measure"
    )
    parser.add_argument(
        "--seed-matches",
        type=int,
        default=0,
        help="finished matches to store before measuring (copies of a real one)",
    )
    parser.add_argument(
        "--healthz-requests",
        type=int,
        default=4000,
        help="requests in the /healthz phase, and in each floor's",
    )
    parser.add_argument(
        "--streams",
        type=int,
        default=0,
        help="event streams held open (idle, on waiting tables) from warm-up to the end",
    )
    parser.add_argument("--ai-level", choices=AI_LEVELS, default=DEFAULT_AI_LEVEL)
    parser.add_argument("--seed", type=int, default=1, help="seeds every match and action")


def _hint_burst_arguments(parser) -> None:
    """--hint-burst: a reader's latency while players ask for hints (bench/hint_burst.py)."""
    parser.add_argument(
        "--hint-burst",
        action="store_true",
        help="instead of play: one player's GET latency alone, then while --hint-players "
        "ask for hints as fast as their limits allow (bench/hint_burst.py)",
    )
    parser.add_argument("--hint-players", type=int, default=10)
    parser.add_argument(
        "--hint-addresses",
        type=int,
        default=1,
        help="the addresses the hint players come from (1: all from one)",
    )
    parser.add_argument(
        "--hint-repeats",
        type=int,
        default=1,
        help="hints each asks at one spot before it plays on (1: every hint a new spot)",
    )
    parser.add_argument("--quiet-seconds", type=float, default=20)
    parser.add_argument("--burst-seconds", type=float, default=60)


def _baseline_arguments(parser) -> None:
    """--baseline: the working tree against another revision, round by round."""
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="compare with the code at REV (a commit, branch or tag), run from an export "
        "with its own virtual environment, round by round alternated with the working tree "
        "(bench/baseline.py)",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="with --baseline: rounds of each side"
    )
    parser.add_argument(
        "--seconds", type=float, default=15, help="with --baseline: seconds of writes a round"
    )
    parser.add_argument(
        "--get-seconds",
        type=float,
        default=5,
        help="with --baseline: seconds of match GETs a round",
    )
    parser.add_argument(
        "--hints",
        type=int,
        default=100,
        help="with --baseline: hints a round, each at a new spot, where the side has hints",
    )
    parser.add_argument(
        "--settle-seconds",
        type=float,
        default=30,
        help="with --baseline: at most this long for memory to settle after the warm-up",
    )


def _watcher_arguments(parser) -> None:
    """--watchers: what an event costs at 1 to 1,000 spectators of one match (bench/watchers.py)."""
    parser.add_argument(
        "--watchers",
        action="store_true",
        help="instead of play: statements, server CPU and a writer's latency per write while "
        "each of --watcher-sizes spectators watch one match; with --baseline, both sides "
        "alternated for --rounds (bench/watchers.py)",
    )
    parser.add_argument("--watcher-sizes", default="1,10,100,1000")
    parser.add_argument("--watcher-writes", type=int, default=10, help="writes at each size")
