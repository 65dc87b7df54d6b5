"""Tournaments at the terminal (terminal/tournaments.py): the list, the terms and the entry,
the match played and resumed as any other, and after the close the standings and each deal
compared across the entrants of a pool, your row marked; under tmux at 80 × 24."""

import contextlib
import io
import time
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from rich.console import Console

from games.engine.vocabulary import Action
from terminal.tournaments import comparison_screen, standings_screen
from tests.clients.conftest import Terminal
from tests.clients.http import call, register
from tests.clients.plays import play, play_command, play_refused
from tests.servers import BASE_DIR

TOURNAMENT = {"id": "t", "name": "Sunday duplicate", "pools": 1}


def shown(screen) -> str:
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    console.print(screen)
    return console.file.getvalue()


def standing(name: str, match: str, rank: int, results: list[str], bot: bool = False) -> dict:
    deals = [
        {"deal_number": n, "result": r, "played": r != "-3", "matchpoints": "1/2"}
        for n, r in enumerate(results, start=1)
    ]
    return {
        "rank": rank,
        "name": name,
        "bot": bot,
        "match": match,
        "pool": 0,
        "matchpoints": "25/2",
        "percentage": "1250/24",
        "versus_mean": "-2/3",
        "total": "7",
        "deals": deals,
    }


ACTIONS = {action.value for action in Action}


def choices(events: list[dict], deal: int) -> list[str]:
    """Seat 0's actions in deal `deal` of a match's public events: worked out here, not by
    terminal.tournaments._choices, which the screen under test shows them by."""
    current, taken = None, []
    for event in events:
        if event["type"] == "deal_started":
            current = event["deal_number"]
        elif event["type"] == "action" and event["seat"] == 0 and current == deal:
            taken.append(event["action"])
    return taken


def public_match(match: str, actions: list[str], hand: list[str] | None) -> dict:
    events = [{"type": "deal_started", "deal_number": 1}]
    events += [{"type": "action", "seat": 0, "action": a} for a in actions]
    events += [{"type": "action", "seat": 1, "action": "raise"}]  # an AI seat: not shown
    seats = [{"seat": 0, "hand": hand}, {"seat": 1, "hand": None}]
    events += [{"type": "deal_ended", "deal_number": 1, "seats": seats}]
    return {"match": match, "name": match, "pool": 0, "events": events}


STANDINGS = {
    "entrants": 3,
    "standings": [
        standing("Roya", "m1", 1, ["2"] * 12),
        standing("Shirbot", "m2", 2, ["-1"] * 12, bot=True),
        standing("Babak", "m3", 3, ["-3"] * 12),
    ],
}
MATCHES = {
    "matches": [
        public_match("m1", ["look", "call"], ["Shah", "Shah", "As", "Bibi", "Sarbaz"]),
        public_match("m2", ["fold"], None),
        public_match("m3", [], None),
    ]
}


def test_the_standings_mark_your_row_and_fit_80_columns():
    screen = shown(standings_screen(TOURNAMENT, STANDINGS, "m3"))
    assert all(len(line) <= 80 for line in screen.splitlines())
    assert "Sunday duplicate · standings (3 entrants)" in screen
    yours = next(line for line in screen.splitlines() if "Babak" in line)
    assert yours.lstrip().startswith("3") and "▶ Babak (you)" in yours
    assert "25/2" in yours and "52.1" in yours and "-0.7" in yours
    assert "Shirbot (bot)" in screen and "(you)" not in screen.replace(yours, "")


def test_a_deal_compared_shows_each_entrants_choices_on_the_same_hands():
    screen = shown(comparison_screen(TOURNAMENT, STANDINGS, MATCHES, 1, "m1"))
    assert "deal 1 of 12" in screen and "held the same cards: Shah Shah As Bibi Sarbaz." in screen
    lines = {name: next(line for line in screen.splitlines() if name in line) for name in
             ("Roya", "Shirbot", "Babak")}  # fmt: skip
    assert "▶ Roya (you)" in lines["Roya"] and "look call" in lines["Roya"]
    assert "raise" not in screen  # the AI seats' actions are not the entrants' choices
    assert "fold" in lines["Shirbot"] and lines["Shirbot"].rstrip().endswith("1/2")
    assert "not played: the field's lowest" in lines["Babak"]


def entrant(server_url: str, name: str, tournament: str, deals: int) -> None:
    """A player who enters and plays `deals` deals over HTTP: look, then call or hold."""
    token = register(server_url, name)
    view = call(server_url, "POST", f"/tournaments/{tournament}/entries", token, {})
    while (view["deal_number"], view["status"]) < (deals, "deal_over"):
        path = f"/matches/{view['id']}"
        if view["status"] == "deal_over":
            view = call(server_url, "POST", f"{path}/next-deal", token, {})
            continue
        legal = view["legal_actions"]
        action = next((a for a in ("look", "call", "hold") if a in legal), legal[0])
        view = call(server_url, "POST", f"{path}/actions", token, {"action": action})


@contextlib.contextmanager
def another(terminal: Terminal, suffix: str):
    """A second terminal beside the test's, with a tmux server of its own (one started on the
    socket of a server just stopped may find it still going away)."""
    other = Terminal(f"{terminal.name[:30]}-{suffix}")
    try:
        yield other
    finally:
        other.stop()


def play_deal_one(terminal) -> None:
    """Play deal 1 at the live table, as a person would: look, then call or hold, until
    the deal is over."""
    keys = terminal.pane("Keys: ")
    for _ in range(20):
        line = next(line for line in keys.splitlines() if line.startswith("Keys: "))
        if "n next deal" in line:
            return
        key = next(k for k, what in (("l", "l look"), ("c", "c call"), ("h", "h hold"),
                                      ("f", "f fold")) if what in line)  # fmt: skip
        terminal.keys(key)
        deadline = time.monotonic() + 30
        while terminal.screen() == keys and time.monotonic() < deadline:
            time.sleep(0.2)
        keys = terminal.pane("Keys: ")
    pytest.fail(f"deal 1 did not end:\n{keys}")


@pytest.mark.slow
def test_enter_play_and_after_the_close_the_standings_and_a_deal(
    server_env, server_url, tmp_path, terminal, artifacts
):
    now = datetime.now(UTC)
    owner = register(server_url, "Owner")
    terms = {
        "name": "Terminal duplicate",
        "ai_level": "normal",
        "entry_opens_at": (now - timedelta(minutes=1)).isoformat(),
        "entry_closes_at": (now + timedelta(minutes=10)).isoformat(),
        "deadline": (now + timedelta(minutes=20)).isoformat(),
    }
    tournament = call(server_url, "POST", "/tournaments", owner, terms)["id"]
    entrant(server_url, "Roya", tournament, deals=2)
    state = ["--url", server_url, "--state", str(tmp_path / "play.json"), "--name", "Tara"]
    listed = play(server_env, *state, "--tournaments", keys="")
    assert "Terminal duplicate" in listed and tournament in listed and "entries open" in listed

    terminal.start(play_command(*state, "--tournament", tournament), server_env, BASE_DIR)
    pane = terminal.pane("e enter: your match starts at once")
    assert "every entrant plays the same 12 deals against normal AI" in pane
    assert "Entrants: 1" in pane and terminal.scrolled() == 0
    (artifacts / "tournament-tmux-terms.txt").write_text(pane)
    terminal.keys("e")
    pane = terminal.pane("q quit (resume later)")
    assert "Deal 1" in pane and terminal.scrolled() == 0
    # The match names its tournament, whole within 80 columns (its one series goes unsaid),
    # and g resigns it (a leave would abandon it).
    title = "As-Nas · Terminal duplicate · deal 1 of 12 · AI normal · 60 s a turn"
    assert title in pane and "g resign" in pane, pane
    (artifacts / "tournament-tmux-match.txt").write_text(pane)
    play_deal_one(terminal)
    terminal.keys("q")
    terminal.pane("Saved: run play again to resume this match.")
    terminal.stop()

    # Again, in a terminal of its own: the entry is resumed, not made twice.
    with another(terminal, "again") as again:
        again.start(play_command(*state, "--tournament", tournament), server_env, BASE_DIR)
        pane = again.pane("q quit (resume later)")
        # Deal 1 over, or deal 2 if the turn clock dealt it meanwhile: the match she left.
        assert "deal 1 of 12" in pane or "deal 2 of 12" in pane, pane
        again.keys("q")
        again.pane("Saved: run play again to resume this match.")

    with psycopg.connect(server_env["DATABASE_URL"], autocommit=True) as connection:
        connection.execute(
            # The deadline now: after the deals played, which count only if they ended by it.
            "UPDATE games_tournament SET entry_closes_at = now() - interval '1 second',"
            " deadline = now() WHERE id = %s",
            [tournament],
        )
    with another(terminal, "closed") as closed:
        closed.start(play_command(*state, "--tournament", tournament), server_env, BASE_DIR)
        pane = closed.pane("Keys: ] each deal compared")
        assert "Terminal duplicate · standings (2 entrants)" in pane
        assert "▶ Tara (you)" in pane and "Roya" in pane and closed.scrolled() == 0
        (artifacts / "tournament-tmux-standings.txt").write_text(pane)
        closed.keys("]")
        pane = closed.pane("deal 1 of 12")
        tara = next(line for line in pane.splitlines() if "▶ Tara (you)" in line)
        # Her own choices on the deal, as the tournament's matches tell them (none where the
        # AI ended the deal before her turn: the deals are the tournament's, drawn anew).
        matches = call(server_url, "GET", f"/tournaments/{tournament}/matches", owner)["matches"]
        mine = choices(next(m for m in matches if m["name"] == "Tara")["events"], deal=1)
        shown = tara.split("(you)")[1].split()
        assert shown[: len(mine)] == mine and shown[len(mine)] not in ACTIONS, (mine, tara)
        assert "not played" not in pane
        assert "[ standings" in pane and "] next deal" in pane and closed.scrolled() == 0
        (artifacts / "tournament-tmux-deal.txt").write_text(pane)
        closed.keys("]")
        pane = closed.pane("deal 2 of 12")
        tara = next(line for line in pane.splitlines() if "▶ Tara (you)" in line)
        # Resigned at the close: deal 2 unplayed, unless the turn clock dealt and played it for
        # her while she was away (a minute a turn); the standings say which, the screen follows.
        owner_view = call(server_url, "GET", f"/tournaments/{tournament}/standings", owner)
        row = next(row for row in owner_view["standings"] if row["name"] == "Tara")
        if row["deals"][1]["played"]:
            assert "not played" not in tara and tara.split("(you)")[1].split(), tara
        else:
            assert "not played: the field's lowest" in tara
        closed.keys("q")

    with another(terminal, "list") as listing:
        listing.start(play_command(*state, "--tournaments"), server_env, BASE_DIR)
        pane = listing.pane("ID (play --tournament ID)")
        row = next(line for line in pane.splitlines() if line.startswith("Terminal duplicate"))
        assert "normal" in row and row.rstrip().endswith("2") and "closed" in row, row
        assert tournament in pane and listing.scrolled() == 0
        (artifacts / "tournament-tmux-list.txt").write_text(pane)


def test_the_tournament_screens_go_alone(server_env):
    assert "--tournaments goes alone" in play_refused(server_env, "--tournaments", "--leaderboard")
    refused = play_refused(server_env, "--tournament", "x", "--leaderboard")
    assert "--tournament goes alone" in refused
