"""The reference bot (examples/reference_bot.py) against a real `serve`: docs/bots.md's block
run as it is written, and (with -m simulation) the twenty whole matches of issue #39."""

import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.clients.scripts import EXAMPLES, imported_outside_stdlib
from tests.servers import BASE_DIR

pytestmark = pytest.mark.slow

BOTS = BASE_DIR / "docs" / "bots.md"
REFERENCE_BOT = BASE_DIR / "examples" / "reference_bot.py"
SIMULATED_MATCHES = 20


def get(url: str, token: str) -> dict:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def check_finished(server_url: str, output: str, matches: int) -> None:
    """The bot said it finished `matches` matches, and the server agrees: each is finished
    after twelve deals, every action of the bot's seat its own (none by the clock)."""
    (token,) = re.findall(r"^registered bot Refbot \S+; token (\S+)$", output, re.M)
    match_ids = re.findall(r"^match \d+ (\S+) finished: totals \S+ \S+ \S+ \S+$", output, re.M)
    assert len(match_ids) == matches, output
    for match_id in match_ids:
        view = get(f"{server_url}/api/v1/matches/{match_id}", token)
        assert view["status"] == "finished" and view["deal_number"] == 12
        assert view["seats"][0]["kind"] == "bot" and view["turn_seconds"] == 10
        ours, after, more = [], 0, True
        while more:
            page = get(f"{server_url}/api/v1/matches/{match_id}/events?after={after}", token)
            for event in page["events"]:
                after = event["seq"]
                if event["type"] == "action" and event["seat"] == 0:
                    ours.append(event["by"])
            more = page["has_more"]
        assert ours and set(ours) == {"player"}


def run_bot(command: str, server_url: str, timeout: float) -> str:
    run = subprocess.run(
        ["sh", "-c", command.replace("http://127.0.0.1:8000", server_url)],
        cwd=BASE_DIR,
        # The block's python3 is this Python (the bot needs nothing else of it).
        env={"PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_the_docs_run_the_reference_bot(server_url):
    blocks = re.findall(r"```sh\n(.*?)```", BOTS.read_text(), re.S)
    (block,) = [code for code in blocks if "examples/reference_bot.py" in code]
    matches = int(re.search(r"--matches (\d+)", block).group(1))
    check_finished(server_url, run_bot(block, server_url, timeout=300), matches)


@pytest.mark.simulation
def test_the_reference_bot_plays_twenty_whole_matches(server_url):
    started = time.monotonic()
    command = f"python3 {REFERENCE_BOT} --url {server_url} --matches {SIMULATED_MATCHES}"
    output = run_bot(command + " --level easy", server_url, timeout=900)
    check_finished(server_url, output, SIMULATED_MATCHES)
    print(f"{SIMULATED_MATCHES} matches in {time.monotonic() - started:.1f} s")


def test_the_reference_bot_and_the_bridge_import_the_standard_library_only():
    # A bot's author runs them with nothing of the server's code (docs/bots.md); the tests
    # run them from the project's environment, where another import would not fail.
    for script in (REFERENCE_BOT, EXAMPLES / "bot_bridge.py"):
        assert imported_outside_stdlib(script) == set(), script
