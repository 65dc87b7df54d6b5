"""The examples of the README and docs/ run against a real server, so they cannot rot: the
README's curl taste looks at a hand; in docs/curl.md the shell loop plays a match and stops at
the first error, and two people play a table with curl; in docs/clients.md the Python and
TypeScript snippets play a match with the generated client and types."""

import ast
import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest

from tests.clients.npm import TS_DIR, run
from tests.schema_file import SCHEMA_FILE
from tests.servers import BASE_DIR, served

pytestmark = pytest.mark.slow

README = BASE_DIR / "README.md"
CURL = BASE_DIR / "docs" / "curl.md"
CLIENTS = BASE_DIR / "docs" / "clients.md"


def block(page: Path, language: str, containing: str) -> str:
    """The code block of `page` in `language` that contains `containing`."""
    blocks = re.findall(rf"```{language}\n(.*?)```", page.read_text(), re.S)
    (found,) = [code for code in blocks if containing in code]
    return found


def post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def shell_loop(
    server_url: str, match_id: str, token: str, path: str = "/usr/bin:/bin"
) -> subprocess.CompletedProcess:
    env = {
        "PATH": path,
        "B": f"{server_url}/api/v1",
        "AUTH": f"Authorization: Bearer {token}",
        "M": match_id,
    }
    script = block(CURL, "sh", "api() {")
    return subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300
    )


def answers(output: str) -> list[dict]:
    """The JSON bodies curl printed one after another (a body ends with no newline)."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while at < len(output.rstrip()):
        body, at = decoder.raw_decode(output, at)
        found.append(body)
    return found


def keys(value) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        return set(value).union(*(keys(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(keys(item) for item in value))
    return set()


def test_the_readme_taste_looks_at_your_cards(server_url):
    taste = block(README, "sh", "field() {")
    # Seed 3 deals deal 1 so that seat 0 acts: unseeded, seat 0 may deal, see all three AI
    # seats fold to its opening stake and find the deal over (the README says so).
    seeded = taste.replace("-d '{}'", "-d '{\"seed\": 3}'")
    assert seeded != taste
    result = subprocess.run(
        ["bash", "-c", seeded.replace("http://127.0.0.1:8000", server_url)],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    view, looked = answers(result.stdout)
    assert (view["status"], view["turn"], view["your_seat"]) == ("in_deal", 0, 0), view
    assert view["your_cards"] is None and "look" in view["legal_actions"]
    assert len(looked["your_cards"]) == 5 and looked["your_category"], looked
    assert looked["events"][-1] | {"seat": 0, "action": "look"} == looked["events"][-1]
    # Each field the README shows in an answer is one the server sends.
    comments = re.findall(r"(?:^# .*\n)+", taste, re.M)  # one under each answering curl
    assert len(comments) == 2, comments
    for comment, body in zip(comments, (view, looked), strict=True):
        assert set(re.findall(r'"(\w+)":', comment)) <= keys(body), comment


@pytest.fixture
def player(server_url) -> str:
    return post(f"{server_url}/api/v1/players", {"name": "Readme"})["token"]


def test_the_shell_loop_plays_a_whole_match(server_url, player):
    match = post(f"{server_url}/api/v1/matches", {"seed": 3}, player)
    result = shell_loop(server_url, match["id"], player)
    assert result.returncode == 0, result.stderr
    assert "'type': 'match_finished'" in result.stdout, result.stdout
    assert result.stderr == ""


def test_the_shell_loop_stops_at_the_first_error(server_url, player):
    result = shell_loop(server_url, "00000000-0000-0000-0000-000000000000", player)
    # One refused request, its problem printed, and no more: not a loop of 404s.
    assert result.stderr.count("HTTP 404") == 1, result.stderr
    assert '"code":"not_found"' in result.stderr
    assert "Traceback" not in result.stderr


# 3 requests a second per player: a match from the shell makes about 60, as fast as it can.
LOW_TOKEN_RATE = "3/s"

# Runs the real curl and keeps what the loop's `-w '%{http_code}'` prints: the statuses.
STATUS_RECORDING_CURL = """#!/bin/bash
out=$(/usr/bin/curl "$@"); rc=$?
printf %s "$out"; echo "$out" >> "$(dirname "$0")/statuses"
exit $rc
"""


@pytest.fixture(scope="module")
def throttled_server_url(server_env, tmp_path_factory) -> str:
    """A second server on the same database, with a low per-player limit."""
    log = tmp_path_factory.mktemp("throttled") / "serve.log"
    with served(log, {**server_env, "ASNAS_RATE_TOKEN": LOW_TOKEN_RATE}) as (url, _):
        yield url


def test_the_shell_loop_waits_out_429s_and_finishes(throttled_server_url, tmp_path):
    token = post(f"{throttled_server_url}/api/v1/players", {"name": "Readme"})["token"]
    match = post(f"{throttled_server_url}/api/v1/matches", {"seed": 3}, token)
    curl = tmp_path / "curl"
    curl.write_text(STATUS_RECORDING_CURL)
    curl.chmod(0o755)
    statuses_file = tmp_path / "statuses"
    met = threading.Event()  # the loop has met a 429

    def use_up_the_budget() -> None:
        """The same player's reads, beside the loop, until it meets a 429: on a loaded machine
        the loop alone may make fewer than 3 requests a second and never be refused."""
        request = urllib.request.Request(
            f"{throttled_server_url}/api/v1/matches/{match['id']}",
            headers={"Authorization": f"Bearer {token}"},
        )
        deadline = time.monotonic() + 120
        while not met.is_set() and time.monotonic() < deadline:
            try:
                urllib.request.urlopen(request, timeout=30).close()
            except urllib.error.HTTPError as error:  # its own 429s, once the budget is used up
                error.close()
            if statuses_file.exists() and "429" in statuses_file.read_text().split():
                met.set()
            time.sleep(0.1)

    reader = threading.Thread(target=use_up_the_budget)
    started = time.monotonic()
    reader.start()
    try:
        result = shell_loop(throttled_server_url, match["id"], token, f"{tmp_path}:/usr/bin:/bin")
    finally:
        met.set()
        reader.join()
    took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    assert "'type': 'match_finished'" in result.stdout, result.stdout
    assert result.stderr == ""
    statuses = (tmp_path / "statuses").read_text().split()
    refused = statuses.count("429")
    assert refused, statuses
    # Each 429 was followed by a wait (Retry-After is at least 1 s), not by a flood of retries.
    assert took >= refused * 0.9, (took, refused)
    assert refused < len(statuses) / 2, statuses
    assert set(statuses) == {"200", "429"}


def run_snippet(code: str, server_url: str, asnas_client) -> subprocess.CompletedProcess:
    """A Python snippet of docs/clients.md run against `server_url`, with the generated client
    importable."""
    client_dir = asnas_client.__path__[0].rsplit("/", 1)[0]
    return subprocess.run(
        [sys.executable, "-c", code.replace("http://127.0.0.1:8000", server_url)],
        env={"PYTHONPATH": client_dir},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_python_snippet_plays_a_whole_match(server_url, asnas_client, tmp_path):
    result = run_snippet(block(CLIENTS, "python", "def ok(answer)"), server_url, asnas_client)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.endswith(" match_finished") for line in lines), lines[-5:]
    winners, totals = lines[-1].split("] ")
    assert winners.startswith("[") and totals.startswith("[")


def test_the_python_stream_snippet_replays_the_finished_match(server_url, asnas_client, tmp_path):
    code = block(CLIENTS, "python", "def ok(answer)")
    code += block(CLIENTS, "python", "httpx_sse.connect_sse")
    result = run_snippet(code, server_url, asnas_client)
    assert result.returncode == 0, result.stderr
    streamed = result.stdout.split("]\n")[-1].splitlines()  # after the winners and totals
    assert streamed[0] == "1 match_created" and streamed[-1].endswith(" match_finished")
    assert [line.split()[0] for line in streamed] == [str(n) for n in range(1, len(streamed) + 1)]


def test_two_people_play_a_table_to_the_end_with_curl(server_url, tmp_path):
    script = block(CURL, "sh", "register() {")
    result = subprocess.run(
        ["bash", "-c", script],
        env={"PATH": "/usr/bin:/bin", "B": f"{server_url}/api/v1"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    *_, last_view, deals_streamed = result.stdout.strip().splitlines()
    winners, totals = last_view.split("] ", 1)
    assert winners.startswith("["), result.stdout
    assert sum(Fraction(total) for total in ast.literal_eval(totals)) == 0  # four exact totals
    assert deals_streamed == "12"
    assert result.stderr == ""
    # Babak's stream held every event once, in order, to the end.
    stream = (tmp_path / "babak.sse").read_text()
    ids = [int(line[4:]) for line in stream.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, len(ids) + 1))
    assert stream.rstrip().splitlines()[-2] == "event: match_finished"


@pytest.fixture(scope="module")
def ts_snippet(node_modules, tmp_path_factory):
    """The TypeScript snippet of docs/clients.md, compiled with `tsc --strict` against the types
    generated from openapi.yaml; runs it with a base URL and answers the finished process."""
    code = block(CLIENTS, "ts", "class ProblemError")
    return compiled_ts(code, tmp_path_factory.mktemp("ts_snippet"), node_modules)


def compiled_ts(code: str, build: Path, node_modules: Path):
    """`code` compiled in `build` as the snippet is; a function that runs it."""
    (build / "main.ts").write_text(code)
    config = re.sub(
        r'"files": \[[^]]*\]', '"files": ["main.ts"]', (TS_DIR / "tsconfig.json").read_text()
    )
    (build / "tsconfig.json").write_text(config)
    (build / "node_modules").symlink_to(node_modules)
    bin_dir = node_modules / ".bin"
    run(bin_dir / "openapi-typescript", SCHEMA_FILE, "-o", build / "schema.ts", cwd=build)
    run(bin_dir / "tsc", "--strict", "-p", build, cwd=build)

    def node(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["node", build / "build" / "main.js", *arguments],
            capture_output=True,
            text=True,
            timeout=300,
        )

    return node


def test_the_typescript_snippet_plays_a_whole_match(ts_snippet, server_url):
    result = ts_snippet(server_url)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.endswith(" match_finished") for line in lines), lines[-5:]
    assert lines[-2].startswith("verified: every dealer, and")  # from the public record alone
    assert lines[-1].startswith("[")  # the winners, then the totals


def test_the_typescript_snippet_stops_on_a_problem_body(ts_snippet, server_url):
    result = ts_snippet(server_url, "x" * 65)  # names are 1 to 64 characters
    assert result.returncode == 1
    assert result.stderr.startswith("400 validation_error: "), result.stderr
    assert result.stdout == ""


def test_the_typescript_snippet_stops_on_an_answer_that_is_no_problem_body(ts_snippet, server_url):
    # Under /nowhere there is no API: Django's HTML 404 page, not JSON.
    result = ts_snippet(f"{server_url}/nowhere")
    assert result.returncode == 1
    assert result.stderr.startswith("404 Not Found from "), result.stderr
    assert "SyntaxError" not in result.stderr


TS_TAMPERED = {
    "seed": (
        '(events[events.length - 1] as Schemas["MatchFinishedEvent"]).server_seed ?? ""',
        '"ab".repeat(32)',
        "seed != commitment",
    ),
    "card": (
        "[...seat.hand].sort()",
        '[...seat.hand].map((card, i) => (i > 0 ? card : card === "As" ? "Shah" : "As")).sort()',
        "a hand shown",
    ),
}


@pytest.mark.parametrize("tampered", TS_TAMPERED)
def test_the_typescript_verification_fails_on_a_tampered_seed_or_a_swapped_card(
    node_modules, server_url, tmp_path, tampered
):
    original, changed, error = TS_TAMPERED[tampered]
    code = block(CLIENTS, "ts", "class ProblemError")
    assert original in code
    result = compiled_ts(code.replace(original, changed), tmp_path, node_modules)(server_url)
    assert result.returncode == 1 and error in result.stderr, result.stderr


def test_the_python_verification_snippet_verifies_the_finished_match(server_url, asnas_client):
    code = block(CLIENTS, "python", "def ok(answer)") + block(CLIENTS, "python", "def draw(")
    result = run_snippet(code, server_url, asnas_client)
    assert result.returncode == 0, result.stderr
    assert "verified: every dealer, and" in result.stdout.splitlines()[-1]
    tampered = code.replace('record[-1]["server_seed"]', '"ab" * 32')
    broken = run_snippet(tampered, server_url, asnas_client)
    assert broken.returncode != 0 and "seed != commitment" in broken.stderr
    shown = 'sorted(seat["hand"])'
    assert shown in code
    swapped = 'sorted(["Shah" if seat["hand"][0] == "As" else "As", *seat["hand"][1:]])'
    broken = run_snippet(code.replace(shown, swapped), server_url, asnas_client)
    assert broken.returncode != 0 and "a hand shown" in broken.stderr
