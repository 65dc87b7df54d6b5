import argparse
import contextlib
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from getpass import getuser
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from rich.console import Console
from rich.text import Text

from terminal.api import Api, ApiProblem, Sessions
from terminal.game import Invite, NewMatch, QuickPlay, play, sign_in
from terminal.puzzles import solve
from terminal.ratings import ratings_screen
from terminal.review import fetch_review, whole_review
from terminal.screens import screen_for, terminal_console
from terminal.table import lobby
from terminal.tournaments import enter_or_show, tournaments_table
from terminal.watch import watch as watch_match
from terminal.watch import watch_code


class Command(BaseCommand):
    help = (
        "Play As-Nas at a terminal table: against a running server (--url), or one started "
        "here on this checkout's database and stopped at the end."
    )

    def add_arguments(self, parser):
        parser.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
        parser.add_argument(
            "--state",
            type=Path,
            default=settings.DATA_DIR / "play.json",
            help="where your token and unfinished match are kept (default: %(default)s)",
        )
        parser.add_argument("--name", help="your name, when a new player is made")
        _new_match_arguments(parser)
        _table_arguments(parser)

    def handle(
        self,
        *args,
        url,
        state,
        name,
        ai_level,
        seed,
        humans,
        turn_seconds,
        join,
        watch,
        leaderboard,
        tables,
        quick_play,
        review,
        **options,
    ):
        _refuse_what_does_not_go_together(
            url=url,
            humans=humans,
            turn_seconds=turn_seconds,
            join=join,
            watch=watch,
            quick_play=quick_play,
            verifiable=options["verifiable"],
            open_table=options["open"],
        )
        _refuse_screens_together(
            others=(humans, join, watch, quick_play, leaderboard, tables),
            alone={
                "--review": review,
                "--puzzles": options["puzzles"],
                "--tournaments": options["tournaments"],
                "--tournament": options["tournament"],
            },
        )
        console = terminal_console()
        if tables:
            _print_tables(console, url=url, state=state, name=name)
            return
        verifiable = options["verifiable"]
        fits = dict(humans=humans, max_turn_seconds=turn_seconds, ai_level=ai_level)
        quick = QuickPlay(**fits, verifiable=verifiable) if quick_play else None
        # A self-started server always uses this checkout's database, whatever its port. A
        # joined table has a player of its own, so that a friend at the same computer never
        # takes the owner's token.
        sessions = Sessions(state, server=f"{url} {join.match_id}" if join else url or "local")
        new = NewMatch(
            ai_level=ai_level,
            seed=seed,
            humans=humans,
            turn_seconds=turn_seconds,
            open=options["open"],
            verifiable=verifiable,
            client_seed=options["client_seed"],
        )
        try:
            with (
                contextlib.nullcontext(url) if url else _local_server(console) as base_url,
                screen_for(console, default_name=getuser()) as screen,
            ):
                api = Api(base_url)
                if watch:
                    watch_match(api, screen, watch)
                elif leaderboard:
                    _leaderboard(api, sessions, screen, name=name)
                elif review:
                    _review(api, sessions, screen, review, name=name)
                else:
                    _play_or_solve(api, sessions, screen, base_url, name=name, new=new, join=join,
                                   quick=quick, options=options)  # fmt: skip
        except (EOFError, KeyboardInterrupt):
            console.print("\nSaved: run play again to resume this match.")
        except (ApiProblem, OSError) as error:
            raise CommandError(f"The server refused or did not answer: {error}") from error


def _play_or_solve(
    api: Api, sessions: Sessions, screen, base_url: str, *, name, new, join, quick, options
) -> None:
    """The puzzles, the tournaments' list, a tournament's match, or a match of your own."""
    if options["puzzles"]:
        _puzzles(api, sessions, screen, name=name)
    elif options["tournaments"]:
        sign_in(api, sessions, screen, name=name)
        screen.leave(tournaments_table(api("GET", "/tournaments")["tournaments"]))
    elif options["tournament"]:
        _tournament(api, sessions, screen, options["tournament"], name=name,
                    server=base_url, record=options["record"])  # fmt: skip
    else:
        play(api, sessions, screen, server=base_url, name=name, new=new, join=join,
             quick=quick, record=options["record"])  # fmt: skip


def _refuse_screens_together(*, others: tuple, alone: dict[str, object]) -> None:
    """A screen of its own (`alone`: flag -> what was given) goes with no other option."""
    for flag, given in alone.items():
        if given and sum(map(bool, (*others, *alone.values()))) > 1:
            raise CommandError(f"{flag} goes alone: it is a screen of its own.")


def _leaderboard(api: Api, sessions: Sessions, screen, *, name: str | None) -> None:
    """Your rating and the leaderboard, signed in as this server's player of yours."""
    sign_in(api, sessions, screen, name=name)
    screen.leave(ratings_screen(api))


def _puzzles(api: Api, sessions: Sessions, screen, *, name: str | None) -> None:
    """Puzzles near your puzzle rating, graded by value (docs/puzzles.md)."""
    sign_in(api, sessions, screen, name=name)
    solve(api, screen)


def _tournament(
    api: Api, sessions: Sessions, screen, tournament_id: str, *, name, server, record
) -> None:
    """A tournament (docs/tournaments.md): its standings and deals compared once it closed,
    else its terms and your entry, whose match is then played here as any other."""
    sign_in(api, sessions, screen, name=name)
    entered = enter_or_show(api, screen, tournament_id)
    if entered is not None:
        play(api, sessions, screen, server=server, name=name, entered=entered, record=record)


def _review(api: Api, sessions: Sessions, screen, match_id: str, *, name: str | None) -> None:
    """The review of your decisions in match `match_id` (docs/review.md), printed whole."""
    sign_in(api, sessions, screen, name=name)
    review = fetch_review(api, match_id, lambda line: screen.show(Text(line)))
    screen.leave(whole_review(review))


def _new_match_arguments(parser) -> None:
    """What a new match or table is: its AI, its seeds, its humans, its clock."""
    parser.add_argument(
        "--ai-level",
        choices=("easy", "normal", "hard", "expert"),
        help="the AI seats' level in new matches (default: asked at each new match)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="deal the new match from this seed, to replay it (servers allow it only in "
        "development)",
    )
    parser.add_argument(
        "--humans",
        type=int,
        choices=range(1, 5),
        metavar="N",
        help="make a new table for N humans (1 to 4), you among them: it prints the "
        "invite and the command your friends run to join",
    )
    parser.add_argument(
        "--turn-seconds",
        type=int,
        metavar="S",
        help="with --humans: the seconds each turn may take before the server plays it "
        "(10 to 86400; the server's default is 60 at a table)",
    )
    parser.add_argument(
        "--open",
        action="store_true",
        help="with --humans: list the new table in the lobby, where anyone may join it "
        "without the invite",
    )
    parser.add_argument(
        "--verifiable",
        action="store_true",
        help="with --humans: reveal each series' server seed as it ends, so that anyone "
        "can check every deal, folded hands included (a match against the AI is "
        "verifiable anyway; docs/fairness.md); with --quick-play: sit at a verifiable "
        "table only (or open one), whose folded hands are shown to all after each series",
    )
    parser.add_argument(
        "--client-seed",
        metavar="TEXT",
        help="your part of the dealing's randomness (1 to 64 printable ASCII characters), "
        "for a new match, a table you join and each restart (docs/fairness.md)",
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="when the match ends, keep its record (docs/record.md) in FILE; check it "
        "with import_record, its deals with verify_match",
    )


def _table_arguments(parser) -> None:
    """Where else to sit: a friend's table, the lobby, a match to watch, the leaderboard."""
    parser.add_argument(
        "--join",
        type=_invite,
        metavar="INVITE",
        help="join a friend's table: the invite MATCH_ID:CODE that their play printed, or "
        "an open table's MATCH_ID from --tables (needs their --url)",
    )
    parser.add_argument(
        "--tables",
        action="store_true",
        help="list the open tables waiting for humans, and how to sit at one (needs --url)",
    )
    parser.add_argument(
        "--quick-play",
        action="store_true",
        help="sit at the open table that waited longest, or open one; --humans, "
        "--turn-seconds (the longest turn you accept) and --ai-level choose which fit",
    )
    parser.add_argument(
        "--watch",
        type=_watch_code,
        metavar="CODE",
        help="watch a match as a spectator, without an account: the watch code its owner "
        "shared, or the whole watch link (needs --url)",
    )
    parser.add_argument(
        "--puzzles",
        action="store_true",
        help="solve puzzles from real deals near your puzzle rating, each graded by the exact "
        "value of every action (docs/puzzles.md)",
    )
    parser.add_argument(
        "--tournaments",
        action="store_true",
        help="list the newest duplicate tournaments (docs/tournaments.md) and their ids",
    )
    parser.add_argument(
        "--tournament",
        metavar="ID",
        help="a tournament: enter it and play its match (or resume it); after its close, "
        "its standings and each deal compared across the entrants",
    )
    parser.add_argument(
        "--review",
        metavar="MATCH_ID",
        help="print the review of your decisions in match MATCH_ID (docs/review.md): "
        "accuracy, points lost per deal, each decision's class and each action's value",
    )
    parser.add_argument(
        "--leaderboard",
        action="store_true",
        help="show your rating and the leaderboard, then stop",
    )


def _refuse_what_does_not_go_together(
    *, url, humans, turn_seconds, join, watch, quick_play, verifiable, open_table
) -> None:
    if watch and not url:
        raise CommandError("--watch needs --url: the server of the match.")
    if join and not url:
        raise CommandError(
            "--join needs --url: the server of the table, as its owner's play shows it."
        )
    if turn_seconds is not None and humans is None and not quick_play:
        raise CommandError("--turn-seconds goes with --humans, which makes a new table.")
    if verifiable and (humans or 1) < 2 and not quick_play:
        raise CommandError(
            "--verifiable goes with --humans 2 to 4 or --quick-play: a match against the "
            "AI is verifiable anyway."
        )
    if open_table and (humans or 1) < 2:
        raise CommandError("--open goes with --humans 2 to 4: only a table waits for others.")


def _print_tables(console: Console, *, url, state: Path, name: str | None) -> None:
    if not url:
        raise CommandError("--tables needs --url: the server whose tables to list.")
    try:
        listed = _tables(Api(url), Sessions(state, server=url), name)
    except (ApiProblem, OSError) as error:
        raise CommandError(f"The server refused or did not answer: {error}") from error
    console.print(lobby(listed, url))


def _tables(api: Api, sessions: Sessions, name: str | None) -> list[dict]:
    """The lobby, read with this server's player of yours (made now if there is none)."""
    session = sessions.load()
    api.token = session.get("token")
    if not api.token:
        api.token = session["token"] = api("POST", "/players", {"name": name or getuser()})["token"]
        sessions.save(session)
    return api("GET", "/tables")["tables"]


def _watch_code(text: str) -> str:
    try:
        return watch_code(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _invite(text: str) -> Invite:
    try:
        return Invite.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


@contextlib.contextmanager
def _local_server(console: Console):
    """`manage.py serve` on a free port, logging to DATA_DIR/play-server.log, for as long as
    the game lasts."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log_path = settings.DATA_DIR / "play-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, settings.BASE_DIR / "manage.py", "serve", "--port", str(port)]
            # One player needs one worker; --dev because it serves only this machine.
            + ["--workers", "1", "--dev"],
            stdout=log,
            stderr=subprocess.STDOUT,
            # Its own process group, so Ctrl-C at the table stops it only through us, once.
            process_group=0,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        with console.status(f"Starting a server at {url} (log: {log_path})"):
            _wait_until_ready(url, server, log_path)
        yield url
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def _wait_until_ready(url: str, server: subprocess.Popen, log_path: Path) -> None:
    # The first start creates the database cluster, which takes a while on a slow disk.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise CommandError(f"The server did not start; see {log_path}")
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise CommandError(f"The server was not ready after 120 s; see {log_path}")
