"""The README's examples run against a real server, so they cannot rot: the shell loop plays
a match and stops at the first error, two people play a table with curl, and the Python
snippet plays a match with the generated client."""

import ast
import json
import re
import subprocess
import sys
import urllib.request
from fractions import Fraction

import pytest

from tests.servers import BASE_DIR

pytestmark = pytest.mark.slow

README = (BASE_DIR / "README.md").read_text()


def block(language: str, containing: str) -> str:
    """The README's code block in `language` that contains `containing`."""
    blocks = re.findall(rf"```{language}\n(.*?)```", README, re.S)
    (found,) = [code for code in blocks if containing in code]
    return found


def post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def shell_loop(server_url: str, match_id: str, token: str) -> subprocess.CompletedProcess:
    env = {
        "PATH": "/usr/bin:/bin",
        "B": f"{server_url}/api/v1",
        "AUTH": f"Authorization: Bearer {token}",
        "M": match_id,
    }
    script = block("sh", "api() {")
    return subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300
    )


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


def test_the_python_snippet_plays_a_whole_match(server_url, asnas_client, tmp_path):
    code = block("python", "def ok(answer)").replace("http://127.0.0.1:8000", server_url)
    client_dir = asnas_client.__path__[0].rsplit("/", 1)[0]
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": client_dir},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.endswith(" match_finished") for line in lines), lines[-5:]
    winners, totals = lines[-1].split("] ")
    assert winners.startswith("[") and totals.startswith("[")


def test_two_people_play_a_table_to_the_end_with_curl(server_url):
    script = block("sh", "register() {")
    result = subprocess.run(
        ["bash", "-c", script],
        env={"PATH": "/usr/bin:/bin", "B": f"{server_url}/api/v1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    winners, totals = result.stdout.strip().splitlines()[-1].split("] ", 1)
    assert winners.startswith("["), result.stdout
    assert sum(Fraction(total) for total in ast.literal_eval(totals)) == 0  # four exact totals
    assert result.stderr == ""
