"""`play --puzzles` under tmux at 80 × 24: the position as its seat saw it, a key for each
legal action, the grade with every action's value, and the end when no puzzle is left."""

import json
import uuid

import psycopg
import pytest

from games.http.puzzles import POSITION_EXAMPLE
from tests.clients.plays import play_command
from tests.servers import BASE_DIR

# The schema's own example position: what the API documents is what the terminal draws.
POSITION = POSITION_EXAMPLE
VALUES = [
    {"action": "call", "value": "7/6"},
    {"action": "raise", "value": "1/2"},
    {"action": "fold", "value": "-1"},
]


def store_puzzle(database_url: str) -> None:
    """One puzzle, as the miner stores them, in the server's database."""
    with psycopg.connect(database_url) as connection:
        connection.execute(
            "INSERT INTO games_puzzle (id, position, actions, values, best, margin, themes,"
            " excluded, mu, sigma, rating, tries, solved)"
            " VALUES (%s, %s, %s, %s, 'call', '2/3', '[]', '[]', 25, 8.33, 0, 0, 0)",
            [
                uuid.uuid4(),
                json.dumps(POSITION),
                json.dumps(["call", "raise", "fold"]),
                json.dumps(VALUES),
            ],
        )


@pytest.mark.slow
def test_play_puzzles_shows_grades_and_ends(server_env, server_url, tmp_path, terminal, artifacts):
    store_puzzle(server_env["DATABASE_URL"])
    state = ["--state", str(tmp_path / "play.json"), "--name", "Solver"]
    terminal.start(play_command("--url", server_url, *state, "--puzzles"), server_env, BASE_DIR)
    pane = terminal.pane("What is clearly best here?")
    assert "Your hand: As As Shah Bibi Couli" in pane and "Pot 6 · high stake 2" in pane
    assert "Keys: c call   r raise   f fold   q quit" in pane
    assert terminal.scrolled() == 0
    (artifacts / "puzzles-tmux-position.txt").write_text(pane)
    terminal.keys("c")
    pane = terminal.pane("Keys: n next puzzle")
    assert "Solved!" in pane and "call ← best" in pane and "+1.17" in pane
    assert "Your puzzle rating 0.0 →" in pane
    (artifacts / "puzzles-tmux-grade.txt").write_text(pane)
    terminal.keys("n")
    terminal.pane("No puzzle is left for you")
