"""The bot bridge (examples/bot_bridge.py, `manage.py bot`) against a real `serve`, with the
bot written as a POSIX shell script (tests/clients/bots/shell_bot.sh): whole matches played
through the line protocol asnas-bot/1, and an engine that answers garbage, too late or not
at all told so while its match goes on under the bot's 10 s turn clock (docs/bots.md)."""

import json
import queue
import re
import runpy
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.servers import BASE_DIR

pytestmark = pytest.mark.slow

BRIDGE = BASE_DIR / "examples" / "bot_bridge.py"
BOTS = BASE_DIR / "docs" / "bots.md"
SHELL_BOT = BASE_DIR / "tests" / "clients" / "bots" / "shell_bot.sh"
# Three whole matches in the default run, the twenty of issue #39 with -m simulation.
DEFAULT_MATCHES, SIMULATED_MATCHES = 3, 20
LINE = re.compile(
    r"asnas-bot/1 match=[0-9a-f-]{36} series=\d+ deal=\d+ seat=[0-3] dealer=[0-3]"
    r" hand=(?P<hand>-|(?:[A-Za-z]+,){4}[A-Za-z]+) looked=[01](?:,[01]){3}"
    r" stakes=\d(?:,\d){3} folded=[01](?:,[01]){3}"
    r" history=(?:-|[0-3]:[a-z]+(?:,[0-3]:[a-z]+)*) legal=[a-z]+(?:,[a-z]+)*"
)


def api(url: str, path: str, token: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"{url}/api/v1{path}",
        None if body is None else json.dumps(body).encode(),
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def bot_token(server_url) -> str:
    """One bot for the module: registrations are limited per address, matches are not."""
    request = urllib.request.Request(
        f"{server_url}/api/v1/players",
        json.dumps({"name": "Shellbot", "bot": True}).encode(),
        {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["token"]


def bridge(server_url, token, tmp_path, matches: int, command=None, **env):
    """Runs the bridge with the shell bot; the finished run and the lines the bot read."""
    log = tmp_path / "lines.txt"
    command = command or [sys.executable, str(BRIDGE)]
    run = subprocess.run(
        [*command, "--engine", f"sh {SHELL_BOT}", "--url", server_url, "--token", token]
        + ["--matches", str(matches), "--level", "easy"],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "BOT_LOG": str(log), **env},
        capture_output=True,
        text=True,
        timeout=120 + 30 * matches,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run, log.read_text().splitlines()


def finished_matches(run) -> list[str]:
    return re.findall(r"^match \d+ (\S+) finished: totals ", run.stdout, re.M)


def check_played_whole(server_url, token, match_ids: list[str], lines: list[str]) -> None:
    """Each match finished after twelve deals, every line is the protocol's, and every action
    of the bot's seat was the bot's own (`by` player: the clock never had to act)."""
    for match_id in match_ids:
        view = api(server_url, f"/matches/{match_id}", token)
        assert view["status"] == "finished" and view["deal_number"] == 12
        assert view["seats"][0]["kind"] == "bot"
        actions = bot_actions(server_url, token, match_id)
        assert actions and {by for _, by in actions} == {"player"}
    for line in lines:
        assert LINE.fullmatch(line), line
    assert {line.split()[1].removeprefix("match=") for line in lines} == set(match_ids)


def bot_actions(server_url, token, match_id) -> list[tuple[str, str]]:
    """(action, by) of every action of seat 0 in the match."""
    found, after = [], 0
    while True:
        page = api(server_url, f"/matches/{match_id}/events?after={after}", token)
        for event in page["events"]:
            after = event["seq"]
            if event["type"] == "action" and event["seat"] == 0:
                found.append((event["action"], event["by"]))
        if not page["has_more"]:
            return found


def test_the_bridge_plays_whole_matches_for_a_shell_bot(server_url, bot_token, tmp_path):
    started = time.monotonic()
    run, lines = bridge(server_url, bot_token, tmp_path, DEFAULT_MATCHES)
    match_ids = finished_matches(run)
    assert len(match_ids) == DEFAULT_MATCHES, run.stdout + run.stderr
    check_played_whole(server_url, bot_token, match_ids, lines)
    assert "bot bridge:" not in run.stderr  # nothing went wrong, so nothing was said
    print(f"{DEFAULT_MATCHES} matches in {time.monotonic() - started:.1f} s")


@pytest.mark.simulation
def test_the_bridge_plays_twenty_whole_matches_for_a_shell_bot(server_url, bot_token, tmp_path):
    started = time.monotonic()
    run, lines = bridge(server_url, bot_token, tmp_path, SIMULATED_MATCHES)
    match_ids = finished_matches(run)
    assert len(match_ids) == SIMULATED_MATCHES
    check_played_whole(server_url, bot_token, match_ids, lines)
    print(f"{SIMULATED_MATCHES} matches in {time.monotonic() - started:.1f} s")


@pytest.mark.simulation
def test_the_bridge_plays_a_benchmark_for_a_shell_bot(server_url, bot_token, tmp_path):
    # The smallest benchmark (120 deals, ten matches against three hard seats), played as the
    # server deals it; the figure printed is the server's.
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, str(BRIDGE), "--engine", f"sh {SHELL_BOT}", "--url", server_url]
        + ["--token", bot_token, "--benchmark", "120"],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "BOT_LOG": str(tmp_path / "lines.txt")},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    benchmark = api(server_url, "/bots/me/benchmark", bot_token)
    assert benchmark["status"] == "finished" and benchmark["deals_counted"] == 120
    *_, last = run.stdout.splitlines()
    assert last.startswith(f"benchmark finished: 10 matches, play {benchmark['play']['mean']} ")
    print(f"{last} ({time.monotonic() - started:.1f} s)")


def test_manage_py_bot_runs_the_same_bridge(server_url, bot_token, tmp_path):
    command = [sys.executable, "manage.py", "bot"]
    env = {"DATABASE_URL": "postgresql://unused/unused"}  # the bridge needs no database
    run, lines = bridge(server_url, bot_token, tmp_path, 1, command=command, **env)
    (match_id,) = finished_matches(run)
    check_played_whole(server_url, bot_token, [match_id], lines)


@pytest.mark.parametrize(
    ("misbehave", "message"),
    [
        ("garbage", "the engine answered 'dance on the table', not one of "),
        ("late", "the engine gave no answer within 2 s; it is started again"),
        ("exit", "the engine exited (code 3) without answering; it is started again"),
    ],
)
def test_an_engine_that_fails_a_decision_is_told_and_the_clock_plays_it(
    server_url, bot_token, tmp_path, misbehave, message
):
    """The engine fails its first decision; the bridge says so and does not act, the turn
    clock acts for the bot's seat after 10 s, and the match goes on to its end with the
    engine (started again where it was late or exited) answering the rest."""
    mark = tmp_path / "misbehaved"
    run, lines = subprocess_with(server_url, bot_token, tmp_path, misbehave, mark)
    assert mark.exists()
    assert message in run.stderr, run.stderr
    assert run.stderr.count("bot bridge:") == 1, run.stderr
    (match_id,) = finished_matches(run)
    view = api(server_url, f"/matches/{match_id}", bot_token)
    assert view["status"] == "finished"
    actions = bot_actions(server_url, bot_token, match_id)
    # The clock acted once in the bot's place (a look keeps its turn, so it may act again
    # in the same turn); every other action is the engine's.
    by_clock = [index for index, (_, by) in enumerate(actions) if by == "clock"]
    assert by_clock and by_clock == list(range(by_clock[0], by_clock[-1] + 1))
    assert len(by_clock) <= 2 and sum(by == "player" for _, by in actions) > 0
    assert len(lines) >= 2


def subprocess_with(server_url, token, tmp_path, misbehave, mark):
    command = [sys.executable, str(BRIDGE), "--answer-seconds", "2"]
    env = {"MISBEHAVE": misbehave, "MISBEHAVE_MARK": str(mark)}
    return bridge(server_url, token, tmp_path, 1, command=command, **env)


def test_the_bridges_stream_reader_hears_whose_turn_it_is(server_url, bot_token):
    """The bridge's own reader of the player's stream (the standard library's): opened while
    a match waits for the bot, it hands on that match's id (`your_turn`)."""
    bridge = runpy.run_path(str(BRIDGE))
    match_id = api(server_url, "/matches", bot_token, {"ai_level": "easy"})["id"]
    heard: queue.Queue = queue.Queue()
    reader = bridge["Api"](server_url, bot_token)
    threading.Thread(target=bridge["notices"], args=(reader, heard), daemon=True).start()
    deadline = time.monotonic() + 30
    while (found := heard.get(timeout=max(0.1, deadline - time.monotonic()))) != match_id:
        assert time.monotonic() < deadline, f"heard {found}, never {match_id}"
    api(server_url, f"/matches/{match_id}/resign", bot_token, {})


def test_a_bridge_whose_engine_never_answers_stops_and_its_match_goes_on(
    server_url, bot_token, tmp_path
):
    """An engine that cannot even start (`false` exits at once): the bridge says so, stops
    after --give-up-after failed decisions with a message naming the match, and the server's
    clock plays the bot's seat from then on."""
    run = subprocess.run(
        [sys.executable, str(BRIDGE), "--engine", "false", "--url", server_url]
        + ["--token", bot_token, "--give-up-after", "1", "--level", "easy"],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the engine exited (code 1) without answering" in run.stderr
    (match_id,) = re.findall(r"the turn clock plays match (\S+) to its end", run.stderr)
    deadline = time.monotonic() + 30
    while not any(by == "clock" for _, by in bot_actions(server_url, bot_token, match_id)):
        assert time.monotonic() < deadline, "the clock never acted for the bot"
        time.sleep(0.5)
    api(server_url, f"/matches/{match_id}/resign", bot_token, {})


def test_the_docs_name_every_field_of_the_decision_line_in_its_order():
    """docs/bots.md's table of the protocol is the bridge's line: the version, then each
    field in the order the bridge writes them (no server: a view as the API answers it)."""
    bridge = runpy.run_path(str(BRIDGE))
    seats = [{"looked": seat == 1, "stake": 1 + seat % 2, "folded": seat == 2} for seat in range(4)]
    view = {
        "id": "5b1f0c6e-2f0b-4d3e-9a61-0c4b3b1de2a7",
        "series": 1,
        "deal_number": 3,
        "your_seat": 0,
        "dealer": 2,
        "your_cards": None,
        "seats": seats,
        "legal_actions": ["look", "call", "raise", "fold"],
    }
    line = bridge["decision_line"](view, [(3, "look"), (3, "raise")])
    assert line == (
        "asnas-bot/1 match=5b1f0c6e-2f0b-4d3e-9a61-0c4b3b1de2a7 series=1 deal=3 seat=0 "
        "dealer=2 hand=- looked=0,1,0,0 stakes=1,2,1,2 folded=0,0,1,0 history=3:look,3:raise "
        "legal=look,call,raise,fold"
    )
    assert LINE.fullmatch(line)
    section = BOTS.read_text().split("### The line protocol")[1].split("\nA worked exchange")[0]
    rows = re.findall(r"^\| (`[^|]*`|\(first\)) \|", section, re.M)
    named = [name for row in rows for name in re.findall(r"`([a-z]+)`", row)]
    version, *pairs = line.split(" ")
    assert f"`{version}`" in section and version == bridge["PROTOCOL"]
    assert named == [pair.split("=")[0] for pair in pairs]
