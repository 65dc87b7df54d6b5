"""`manage.py play --watch`: a spectator at the terminal follows a match live, with no account
and no hidden card, until it ends."""

import re
import time

import pytest

from tests.clients.http import call, register
from tests.clients.plays import play_refused, start_play

pytestmark = pytest.mark.slow


def watching(server_env, server_url, output, spectators: str):
    """Roya's new match with `spectators`, and play --watch following it, printing to
    `output`, once it says it watches."""
    owner = register(server_url, "Roya")
    view = call(server_url, "POST", "/matches", owner, {"seed": 5, "spectators": spectators})
    link = f"{server_url}/table/#watch={view['watch_code']}"
    process = start_play(server_env, "--url", server_url, "--watch", link, keys="", output=output)
    deadline = time.monotonic() + 60
    while f"Watching ({spectators}" not in output.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    return owner, view, process


def test_a_spectator_follows_a_match_to_its_end(server_env, server_url, tmp_path):
    output = tmp_path / "watch.txt"
    owner, view, process = watching(server_env, server_url, output, "live")
    # The owner plays on: the spectator's screen follows by itself, and ends with the match.
    view = call(server_url, "POST", f"/matches/{view['id']}/actions", owner, {"action": "look"})
    call(server_url, "POST", f"/matches/{view['id']}/resign", owner)
    assert process.wait(timeout=60) == 0
    printed = output.read_text()
    assert "Watching (live)" in printed and "Roya" in printed and "Final standings" in printed
    assert "Roya looked" in printed or "looks" in printed or "look" in printed
    # The owner's own cards, which a spectator may not see, never appear.
    assert not re.search(r"Your cards: [A-Z]", printed)


def test_a_delayed_spectator_sees_the_deal_in_play_as_not_begun(server_env, server_url, tmp_path):
    output = tmp_path / "watch.txt"
    owner, view, process = watching(server_env, server_url, output, "delayed")
    call(server_url, "POST", f"/matches/{view['id']}/resign", owner)
    assert process.wait(timeout=60) == 0
    printed = output.read_text()
    first_screen = printed.split("Watching (delayed")[0]
    assert "As-Nas · before the first deal · AI" in first_screen, first_screen
    assert "deal 0 of 12" not in printed and "series 0" not in printed, printed
    assert "Final standings" in printed


def test_watch_needs_a_server_and_a_code_that_works(server_env, server_url):
    assert "--watch needs --url" in play_refused(server_env, "--watch", "abc")
    assert "No match to watch" in play_refused(server_env, "--url", server_url, "--watch", "abc")
