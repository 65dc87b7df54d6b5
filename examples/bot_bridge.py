"""The bot bridge: plays a bot account's matches for a program in any language.

It imports nothing of the service (the standard library only) and talks HTTP to a running
server. The program (the "engine") is started with COMMAND and speaks the line protocol
`asnas-bot/1` of docs/bots.md: for each of its decisions the bridge writes one line to the
engine's standard input, and reads one line back, the action:

    asnas-bot/1 match=5b1f... series=1 deal=3 seat=0 dealer=2 hand=- looked=0,1,0,0
      stakes=1,2,2,1 folded=0,0,1,0 history=1:raise,2:call,3:fold legal=look,call,raise,fold
    look

(one line, wrapped here). An engine that answers something not in `legal`, nothing within
the answer time, or that exits, is told so on the bridge's standard error; the bridge does
not act for it, so the server's turn clock does (a bot's match has a 10 s clock), and the
match goes on. An engine that was too late or exited is started again for its next decision.

    python examples/bot_bridge.py --engine "sh my_bot.sh" [--url http://127.0.0.1:8000]
        [--token TOKEN | --name NAME] [--matches N | --benchmark DEALS] [--level hard]
        [--answer-seconds S] [--give-up-after 5] [--no-stream]

Without --token (or ASNAS_BOT_TOKEN) it registers a new bot named --name and prints its
token. It plays --matches matches alone against the AI, one after another, and prints one
line per finished match; it exits 0 when all were played. With --benchmark it asks the
server for a benchmark of DEALS deals against three `hard` seats (docs/bots.md, the bot
ladder), plays its matches as the server deals them, and prints the figure at the end. It
learns that the clock acted from the player's event stream, or (--no-stream, where a proxy
cuts streams) by asking each second.
"""

import argparse
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

PROTOCOL = "asnas-bot/1"


def say(text: str) -> None:
    print(f"bot bridge: {text}", file=sys.stderr, flush=True)


class Api:
    """JSON over HTTP with the bot's token; waits out a 429, and a 503 that says when to
    come back (a benchmark's read just after the server started), as Retry-After says."""

    def __init__(self, url: str, token: str | None = None):
        self.base, self.token = url.rstrip("/") + "/api/v1", token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(self.base + path, data, headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    return response.status, json.loads(response.read() or b"{}")
            except urllib.error.HTTPError as error:
                if error.code != 429 and not (error.code == 503 and "Retry-After" in error.headers):
                    return error.code, json.loads(error.read() or b"{}")
                time.sleep(float(error.headers.get("Retry-After", "1")))

    def ok(self, method: str, path: str, body: dict | None = None) -> dict:
        status, answer = self.call(method, path, body)
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {answer.get('detail', answer)}")
        return answer


def notices(api: Api, into: queue.Queue) -> None:
    """The player's stream (Server-Sent Events), read with the standard library: each
    notice's match id goes `into` the queue; reconnects when the stream drops."""
    while True:
        request = urllib.request.Request(
            api.base + "/players/me/stream", headers={"Authorization": f"Bearer {api.token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as stream:
                for raw in stream:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("data:"):
                        into.put(json.loads(line[5:]).get("match_id"))
        except (OSError, ValueError):
            time.sleep(1)


def _relay(stdout, lines: queue.Queue) -> None:
    """The engine's lines as it writes them, then None when it closes its output."""
    for line in stdout:
        lines.put(line)
    lines.put(None)


class Engine:
    """The program, started again after it exits or answers too late."""

    def __init__(self, command: str):
        self.command, self.process, self.lines = command, None, queue.Queue()

    def _start(self) -> None:
        self.process = subprocess.Popen(
            shlex.split(self.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            start_new_session=os.name == "posix",  # its children are stopped with it
        )
        # Each process its own queue, so that a line it writes too late is never read.
        self.lines = queue.Queue()
        threading.Thread(target=_relay, args=(self.process.stdout, self.lines), daemon=True).start()

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, signal.SIGKILL)  # a shell's `sleep` child too
            else:
                self.process.kill()
        except ProcessLookupError:
            pass  # it had ended
        self.process.wait()
        self.process = None

    def ask(self, line: str, seconds: float) -> str | None:
        """The engine's answer to `line`, or None (and a message) when it gave none in time."""
        if self.process is None or self.process.poll() is not None:
            self._start()
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
            answer = self.lines.get(timeout=seconds)
        except (BrokenPipeError, OSError):
            answer = None
        except queue.Empty:
            say(f"the engine gave no answer within {seconds:g} s; it is started again")
            self.stop()
            return None
        if answer is None:
            code = self.process.wait()
            say(f"the engine exited (code {code}) without answering; it is started again")
            self.process = None
        return answer


def decision_line(view: dict, history: list[tuple[int, str]]) -> str:
    """The protocol's line for the seat's decision: only what the seat's own view shows."""
    seats = view["seats"]

    def each(key: str) -> str:
        return ",".join(str(int(seat[key])) for seat in seats)

    fields = {
        "match": view["id"],
        "series": view["series"],
        "deal": view["deal_number"],
        "seat": view["your_seat"],
        "dealer": view["dealer"],
        "hand": ",".join(view["your_cards"] or ["-"]),
        "looked": each("looked"),
        "stakes": each("stake"),
        "folded": each("folded"),
        "history": ",".join(f"{seat}:{action}" for seat, action in history) or "-",
        "legal": ",".join(view["legal_actions"]),
    }
    return " ".join([PROTOCOL, *(f"{key}={value}" for key, value in fields.items())])


class DealHistory:
    """The actions of the deal in play, from the match's events as the seat may see them."""

    def __init__(self, match_id: str):
        self.match_id, self.after, self.actions = match_id, 0, []

    def read(self, api: Api) -> list[tuple[int, str]]:
        while True:
            page = api.ok("GET", f"/matches/{self.match_id}/events?after={self.after}")
            for event in page["events"]:
                self.after = event["seq"]
                if event["type"] == "deal_started":
                    self.actions = []
                elif event["type"] == "action":
                    self.actions.append((event["seat"], event["action"]))
            if not page["has_more"]:
                return self.actions


def play_match(api: Api, engine: Engine, match_id: str, woken: queue.Queue, args) -> dict:
    """Plays one match to its end; the finished view."""
    history, failed_at, failures = DealHistory(match_id), None, 0
    while True:
        view = api.ok("GET", f"/matches/{match_id}")
        if view["status"] == "finished":
            return view
        if view["status"] == "deal_over":
            api.call("POST", f"/matches/{match_id}/next-deal", {})  # the clock may deal first
            continue
        mine = view["turn"] == view["your_seat"] and view["legal_actions"]
        if mine and view["version"] != failed_at:
            answer = engine.ask(decision_line(view, history.read(api)), args.answer_seconds)
            answer = None if answer is None else answer.strip()
            if answer in view["legal_actions"]:
                body = {"action": answer, "expected_version": view["version"]}
                status, refused = api.call("POST", f"/matches/{match_id}/actions", body)
                if status == 200:
                    failures = 0
                    continue
                say(f"the server refused {answer!r}: {refused.get('detail', status)}")
            elif answer is not None:
                legal = ",".join(view["legal_actions"])
                say(f"the engine answered {answer[:80]!r}, not one of {legal}; the clock will act")
            failed_at, failures = view["version"], failures + 1
            if failures >= args.give_up_after:
                raise SystemExit(
                    f"bot bridge: the engine failed {failures} decisions in a row; stopping "
                    f"(the turn clock plays match {match_id} to its end)"
                )
        try:  # until a notice wakes us, or a second: the clock acts on the server
            woken.get(timeout=1)
        except queue.Empty:
            pass


def play_benchmark(api: Api, engine: Engine, woken: queue.Queue, args) -> int:
    """Asks for a benchmark and plays each match the server deals for it, until it is over."""
    status, benchmark = api.call("POST", "/bots/me/benchmark", {"deals": args.benchmark})
    if status != 201:
        raise SystemExit(f"bot bridge: no benchmark: {benchmark.get('detail', status)}")
    played = 0
    while benchmark["current_match"]:
        play_match(api, engine, benchmark["current_match"], woken, args)
        played += 1
        # The read that follows a match's end counts its deals and deals the next match.
        benchmark = api.ok("GET", "/bots/me/benchmark")
        print(f"benchmark: {benchmark['deals_counted']} of {benchmark['deals']} deals", flush=True)
    if benchmark["status"] != "finished":
        raise SystemExit(f"bot bridge: the benchmark ended {benchmark['status']}")
    play, result = benchmark["play"], benchmark["result"]
    print(
        f"benchmark finished: {played} matches, play {play['mean']} "
        f"({play['low_rounded']} to {play['high_rounded']}), result {result['mean']} "
        f"({result['low_rounded']} to {result['high_rounded']}), "
        f"{benchmark['deals_per_second']} deals a second",
        flush=True,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="the program's command line")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("ASNAS_BOT_TOKEN"))
    parser.add_argument("--name", default="Bridgebot", help="a new bot's name, without --token")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument(
        "--benchmark", type=int, metavar="DEALS", help="play a benchmark of DEALS deals instead"
    )
    parser.add_argument("--level", default="hard", help="the AI seats' level")
    parser.add_argument("--answer-seconds", type=float, default=8.0)
    parser.add_argument(
        "--give-up-after",
        type=int,
        default=5,
        help="stop after this many decisions in a row that the engine failed",
    )
    parser.add_argument(
        "--no-stream", action="store_true", help="read no event stream: look again each second"
    )
    args = parser.parse_args(argv)
    api = Api(args.url, args.token)
    if not api.token:
        created = api.ok("POST", "/players", {"name": args.name, "bot": True})
        api.token = created["token"]
        print(f"registered bot {created['name']} ({created['id']}); token {api.token}", flush=True)
    woken: queue.Queue = queue.Queue()
    if not args.no_stream:
        threading.Thread(target=notices, args=(api, woken), daemon=True).start()
    engine = Engine(args.engine)
    try:
        if args.benchmark:
            return play_benchmark(api, engine, woken, args)
        for number in range(1, args.matches + 1):
            match_id = api.ok("POST", "/matches", {"ai_level": args.level})["id"]
            view = play_match(api, engine, match_id, woken, args)
            totals = " ".join(seat["total"] for seat in view["seats"])
            print(f"match {number} {match_id} finished: totals {totals}", flush=True)
    finally:
        engine.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
