"""`manage.py play`, driven through its input as a person types, against the real server."""

import ast
import json
import os
import re
from pathlib import Path

import pytest

from games.engine.record import check_record
from terminal.game import NewMatch, QuickPlay
from tests.clients.http import call
from tests.clients.plays import play, play_command, play_refused

REPO = Path(__file__).resolve().parents[2]
PLAY_MODULES = [*(REPO / "terminal").glob("*.py"), REPO / "games/management/commands/play.py"]


def postgres_running(pgdata: Path) -> bool:
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if argv[0].endswith(b"/postgres") and str(pgdata).encode() in argv:
            return True
    return False


def test_play_is_a_client_of_the_http_api_only():
    for module in PLAY_MODULES:
        imported = set()
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module or "")
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        server_code = {
            name
            for name in imported
            if name.split(".")[0] in {"games", "players", "rest_framework"}
            or name.startswith(("django.db", "asnas_api."))
        }
        assert not server_code, (module.name, server_code)


@pytest.mark.slow
def test_play_quits_resumes_and_plays_a_match_to_the_end(server_env, server_url, tmp_path):
    state = tmp_path / "play.json"
    args = ("--url", server_url, "--state", str(state), "--name", "Terminal", "--ai-level", "easy")

    first = play(server_env, *args, keys="q\n")
    assert "deal 1 of 12" in first and "Keys: l look" in first
    session = json.loads(state.read_text())[server_url]
    assert state.stat().st_mode & 0o777 == 0o600, "the token is a secret"

    # Any line that is not a key shown is refused and the next one read, so this cycle
    # looks, calls, holds, folds and deals on until the match is over, then plays no more.
    second = play(server_env, *args, keys="l\nc\nh\nn\nf\n" * 400)
    assert f"Resuming match {session['match_id']}." in second
    assert second.count("deal 12 of 12") >= 1 and "Final standings" in second
    assert "showdown" in second and "Category" in second
    assert json.loads(state.read_text())[server_url] == {"token": session["token"]}

    view = call(server_url, "GET", f"/matches/{session['match_id']}", session["token"])
    assert (view["status"], view["deal_number"]) == ("finished", 12)
    # The last screen shows the final totals the server holds.
    last_screen = second.rsplit("As-Nas · deal", 1)[1]
    for seat in view["seats"]:
        row = rf"{re.escape(seat['name'])} \((you|AI)\)\s+\d+\s+{re.escape(seat['total'])}\s"
        assert re.search(row, last_screen), (seat, last_screen)


@pytest.mark.slow
def test_play_without_url_starts_a_server_and_stops_it(tmp_path):
    # A fresh checkout: no DATABASE_URL, so play's server runs the embedded database.
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env["ASNAS_DATA_DIR"] = str(tmp_path)
    # Without --ai-level, play asks for it: n is normal.
    output = play(env, "--state", str(tmp_path / "play.json"), "--name", "Local", keys="n\nq\n")
    assert "Choose the AI level" in output and "AI normal" in output
    assert "deal 1 of 12" in output and "Saved: run play again" in output
    assert "local" in json.loads((tmp_path / "play.json").read_text())
    assert '"GET /readyz HTTP/1.1" 200' in (tmp_path / "play-server.log").read_text()
    assert not postgres_running(tmp_path / "postgres"), "the server and its database stopped"


@pytest.mark.slow
def test_play_shows_the_coachs_hint_on_a_key(server_env, server_url, tmp_path):
    args = ("--url", server_url, "--state", str(tmp_path / "play.json"), "--name", "Learner")
    # Seed 2 deals seat 3 first, so this player speaks before the deal can end.
    output = play(server_env, *args, "--ai-level", "normal", "--seed", "2", keys="?\nl\n?\nq\n")
    assert "? hint" in output
    blind, seen = output.split("Hint · ")[1:]
    assert blind.startswith("look first") and re.search(r"look\W+100%\W+–", blind)
    # The chance is an exact fraction: 0 or 1 for the weakest and strongest hands.
    percent = r"≈?\d+(\.\d)?%"
    beats = rf"your hand ranks \d+ of 121: it beats three random hands {percent} of the time"
    assert re.match(beats, seen), seen
    assert re.search(rf"(call|hold)\W+{percent}\W+[+-]\d+\.\d{{4}}\b", seen), seen


@pytest.mark.slow
def test_play_restarts_at_another_level_and_resigns(server_env, server_url, tmp_path):
    state = tmp_path / "play.json"
    args = ("--url", server_url, "--state", str(state), "--name", "Quitter", "--ai-level", "hard")
    # Look, then restart at level easy; a resign cancelled with c changes nothing; quit.
    first = play(server_env, *args, keys="l\ns\ne\ng\nc\nq\n")
    restart = "Restart: a new series of 12 deals. The series in play is rated as your resignation."
    assert restart in first
    assert "series 2 · AI easy" in first
    session = json.loads(state.read_text())[server_url]
    view = call(server_url, "GET", f"/matches/{session['match_id']}", session["token"])
    assert (view["series"], view["ai_level"], view["status"]) == (2, "easy", "in_deal")

    # Resign (POST /matches/{id}/resign), confirmed with y; the standings stay; leave.
    second = play(server_env, *args, keys="g\ny\nn\n")
    assert "Resign? The match ends now" in second and "Refused" not in second
    standings = second.rsplit("Final standings", 1)[1]
    assert "Quitter (you)" in standings
    assert "Quitter resigned." in standings
    view = call(server_url, "GET", f"/matches/{session['match_id']}", session["token"])
    assert view["status"] not in ("in_deal", "deal_over")
    assert view["your_seat"] not in view["winners"], "the resigning seat never wins"
    assert json.loads(state.read_text())[server_url] == {"token": session["token"]}


@pytest.mark.slow
def test_play_redraws_one_table_in_place_at_a_terminal(
    server_env, server_url, tmp_path, terminal, artifacts
):
    """Under tmux, a real terminal of the commonest size, 80 × 24: moves redraw the table on
    the alternate screen instead of scrolling, keys need no Enter, the keys line always shows,
    and leaving restores the terminal with a farewell."""
    state = ["--state", str(tmp_path / "play.json"), "--name", "Tmux", "--ai-level", "easy"]
    terminal.start(play_command("--url", server_url, "--seed", "2", *state), server_env, REPO)
    pane = terminal.pane("Keys:")
    assert "deal 1 of 12" in pane
    for key in "lcchnlcchn":  # moves, some refused or unshown: those keys are ignored
        terminal.keys(key)
        terminal.pane("Keys:")
    assert terminal.scrolled() == 0, "nothing scrolled off the screen"
    (artifacts / "play-tmux.txt").write_text(terminal.pane("Keys:"))
    terminal.keys("q")
    pane = terminal.pane("Saved: run play again")
    assert "Keys:" not in pane, "the table went with the alternate screen"


@pytest.mark.slow
def test_play_shows_the_rating_a_match_left_and_the_leaderboard(server_env, server_url, tmp_path):
    state = tmp_path / "play.json"
    args = ("--url", server_url, "--state", str(state), "--name", "Rater", "--ai-level", "hard")
    resigned = play(server_env, *args, keys="g\ny\nn\n")
    # Rated as it ended, last: the farewell gives the rating it left.
    assert "Your rating " in resigned and "· 1 rated match\n" in resigned
    token = json.loads(state.read_text())[server_url]["token"]
    for _ in range(4):
        match = call(server_url, "POST", "/matches", token, {"ai_level": "easy"})
        call(server_url, "POST", f"/matches/{match['id']}/resign", token, {})
    board = play(server_env, "--url", server_url, "--state", str(state), "--leaderboard", keys="")
    assert "· 5 rated matches" in board and "Leaderboard (" in board
    me = call(server_url, "GET", "/players/me", token)["rating"]
    cells = ["Rater \\(you\\)", *(f"{me[k]:.1f}" for k in ("displayed", "mu", "sigma")), "5"]
    row = r"[\s│]+".join(cells) + r"[\s│]"
    assert re.search(row, board), board


def test_a_new_table_asks_for_what_play_was_told():
    body = NewMatch(humans=2, verifiable=True, client_seed="mine").body("easy")
    assert body == {"ai_level": "easy", "humans": 2, "verifiable": True, "client_seed": "mine"}
    assert NewMatch().body("hard") == {"ai_level": "hard"}


def test_quick_play_asks_for_a_verifiable_table_only_when_told():
    assert QuickPlay(humans=3).body() == {"humans": 3}
    assert QuickPlay(verifiable=True).body() == {"verifiable": True}


@pytest.mark.slow
def test_play_deals_from_its_client_seed_and_keeps_the_verifiable_record(
    server_env, server_url, tmp_path
):
    state, record = tmp_path / "play.json", tmp_path / "record.json"
    args = ("--url", server_url, "--state", str(state), "--name", "Seeder", "--ai-level", "easy")
    args += ("--client-seed", "terminal's own", "--record", str(record))
    # Resign at once (confirmed with y), then leave: the series ends and reveals its seed.
    shown = play(server_env, *args, keys="g\ny\nn\n")
    # The terminal wraps the sentence where it may, even between a long path and its full stop
    # (a worker's tmp_path is longer): compared with no whitespace at all.
    sentence = f"Its record is in {record}."
    assert "".join(sentence.split()) in "".join(shown.split()), shown
    kept = json.loads(record.read_text())
    (series,) = kept["series"]
    assert series["client_seeds"] == ["terminal's own", "", "", ""]
    assert series["server_seed"] and series["end"]["how"] == "resigned"
    assert check_record(kept) == []  # dealt again from the seeds, every move replayed
    refused = play_refused(server_env, "--url", server_url, "--verifiable")
    assert "--verifiable goes with --humans" in refused
    refused = play_refused(server_env, *args[:8], "--client-seed", "é")
    assert "client_seed" in refused


@pytest.mark.parametrize(
    "args",
    [
        ("--review", "00000000-0000-0000-0000-000000000001", "--puzzles"),
        ("--puzzles", "--leaderboard"),
        ("--review", "00000000-0000-0000-0000-000000000001", "--tables"),
    ],
)
def test_the_review_and_the_puzzles_each_go_alone(server_env, server_url, args):
    # Each is a screen of its own: given with another mode, play says so and starts nothing.
    refused = play_refused(server_env, "--url", server_url, *args)
    assert f"{args[0]} goes alone" in refused
