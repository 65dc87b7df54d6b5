"""The terminal table fits the commonest terminal, 80 × 24, in every state: the keys line
is the last thing a player must see, and a tall showdown must not push it off."""

import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from rich.console import Console

from terminal.game import _next_key
from terminal.screens import terminal_console
from terminal.table import (
    EVENT_LINES,
    TableState,
    fairness_line,
    invitation,
    next_tick,
    waiting_room,
)

LONG_HAND = ["Sarbaz", "Sarbaz", "Sarbaz", "Couli", "Couli"]
NAMES = ["A player with a long name", "Darius", "Shirin", "Kaveh"]


def view(status: str) -> dict:
    seats = [
        {"seat": n, "name": name, "kind": "human" if n == 0 else "ai", "stake": 3}
        | {"total": "-17/3", "looked": True, "folded": n == 2, "away": False}
        for n, name in enumerate(NAMES)
    ]
    last_deal = {
        "deal_number": 12 if status == "finished" else 2,
        "outcome": "showdown",
        "winners": [0],
        "seats": [
            {"seat": n, "hand": LONG_HAND, "folded": n == 2, "category": "full_house"}
            | {"stake": 3, "payout": "12", "delta": "-3"}
            for n in range(4)
        ],
    }
    return {
        "status": status,
        "deal_number": last_deal["deal_number"],
        "series": 1,
        "ai_level": "normal",
        "seats": seats,
        "your_seat": 0,
        "dealer": 3,
        "turn": 0 if status == "in_deal" else None,
        "pot": 12,
        "high_stake": 3,
        "your_cards": LONG_HAND,
        "your_category": "full_house",
        "last_deal": last_deal if status != "in_deal" else None,
        "winners": [0] if status == "finished" else None,
        "humans": 1,
        "turn_seconds": None,
        "turn_deadline": None,
    }


# The widest hint: the hand is known, every action is legal, and the exact values run to
# 60 digits, as real ones do (about -1.2346).
LONG_VALUE = "-" + "1234567" * 9 + "/" + "1" + "0" * 62
HINT = {
    "hand_rank": 117,
    "showdown_win": "1234567/2345678",
    "showdown_tie": "1/2345678",
    "actions": [
        {"action": action, "hard_probability": "123/1000", "expected_value": LONG_VALUE}
        for action in ("call", "hold", "raise", "fold")
    ],
}


def table_with_log() -> TableState:
    table = TableState()
    table.log = [f"Kaveh raises to {stake}; pot {stake * 4}." for stake in range(10)]
    return table


def shown(screen) -> str:
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    console.print(screen)
    return console.file.getvalue()


@pytest.mark.parametrize("status", ["in_deal", "deal_over", "finished"])
def test_every_screen_fits_80_by_24_with_the_keys_last(status):
    terminal = Console(file=io.StringIO(), width=80, height=24)
    keys = {"n": "next deal", "s": "restart", "g": "resign", "q": "quit (resume later)"}
    screen = shown(table_with_log().render(view(status), keys, "Refused: stale", fit_to=terminal))
    lines = screen.splitlines()
    assert len(lines) <= 24, screen
    assert lines[-1].startswith("Keys: n next deal"), screen
    assert lines[0].strip("─ ").startswith("As-Nas · deal")


@pytest.mark.parametrize("status", ["deal_over", "finished"])
def test_a_showdown_with_its_skill_figures_fits_80_by_24_with_the_keys_last(status):
    """The figures' column wraps the showdown's rows at 80 columns: at a deal's end in play the
    keys went off an 80 × 24 terminal (a CI run's tmux test). The showdown gives up its
    borders, then its figures, and stays."""
    shows = view(status)
    for seat in shows["last_deal"]["seats"]:
        seat["skill"] = {"cards": "-1/3000007", "play": "-12/5000011", "table": "22/7"}
    terminal = Console(file=io.StringIO(), width=80, height=24)
    keys = {"n": "next deal", "s": "restart", "g": "resign", "q": "quit (resume later)"}
    screen = shown(table_with_log().render(shows, keys, "Refused: stale", fit_to=terminal))
    lines = screen.splitlines()
    assert len(lines) <= 24, screen
    assert lines[-1].startswith("Keys: n next deal"), screen
    assert ("Deal 2: showdown" in screen) == (status == "deal_over"), screen


def test_the_hint_fits_beside_a_shortened_log():
    terminal = Console(file=io.StringIO(), width=80, height=24)
    table = table_with_log()
    screen = shown(table.render(view("in_deal"), {"c": "call"}, "", HINT, fit_to=terminal))
    assert len(screen.splitlines()) <= 24 and "Hint · " in screen, screen
    assert "-1.2346" in screen and LONG_VALUE[:20] not in screen, screen  # to 4 places


def test_the_hint_speaks_in_percentages_exact_to_a_tenth_else_rounded():
    hint = {**HINT, "showdown_win": "1/2", "showdown_tie": "1/2345678"}
    hint["actions"] = [{**HINT["actions"][0], "hard_probability": "1"}, *HINT["actions"][1:]]
    screen = shown(TableState().render(view("in_deal"), {"c": "call"}, "", hint))
    words = " ".join(screen.split())  # the sentences as read, across the lines they wrap on
    assert "beats three random hands 50% of the time (ties ≈0.0%)" in words, screen
    assert re.search(r"call\W+100%\W+-1\.2346", screen) and "12.3%" in screen, screen
    assert "how often the hard AI plays each action" in words, screen


def test_a_tall_terminal_shows_the_whole_log_and_a_printed_screen_is_never_cut():
    tall = Console(file=io.StringIO(), width=120, height=60)
    table = table_with_log()
    for fit_to in (tall, None):
        screen = shown(table.render(view("in_deal"), {"c": "call"}, fit_to=fit_to))
        assert screen.count("Kaveh raises to") == len(table.log), screen
        assert "earlier in this deal" not in screen and "[ earlier" not in screen, screen


def test_a_short_terminal_scrolls_back_through_the_whole_deal():
    """The first move of a long deal (your own raise, say) is never lost off the top of an
    80 x 24 terminal: "[" and "]" bring every line of the deal back into view."""
    terminal = Console(file=io.StringIO(), width=80, height=24)
    table = table_with_log()
    screen = shown(table.render(view("deal_over"), {"n": "next deal"}, fit_to=terminal))
    assert "Kaveh raises to 9;" in screen and "Kaveh raises to 0;" not in screen, screen
    assert "earlier in this deal" in screen and table.scroll_keys == {"[": "earlier moves"}
    seen = {line for line in table.log if line in screen}
    while "[" in table.scroll_keys:
        table.scroll("[")
        screen = shown(table.render(view("deal_over"), {"n": "next deal"}, fit_to=terminal))
        assert len(screen.splitlines()) <= 24 and "] later moves" in screen, screen
        seen |= {line for line in table.log if line in screen}
    assert seen == set(table.log)
    while "]" in table.scroll_keys:
        table.scroll("]")
        table.render(view("deal_over"), {"n": "next deal"}, fit_to=terminal)
    assert table.scrolled == 0


def test_the_scroll_keys_are_read_where_the_log_is_cut():
    """The game loop reads "[" as well as the moves while the log is cut."""

    class Screen:
        fit_to = Console(file=io.StringIO(), width=80, height=18)

        def show(self, screen) -> None:
            self.screen = shown(screen)

        def key(self, keys, wake=None, tick=None) -> str:
            self.keys = keys
            return "["

    screen, table = Screen(), table_with_log()
    playing = view("in_deal") | {"legal_actions": ["call", "fold"]}
    assert _next_key(screen, table, playing, "", None, None, "") == "["
    assert {"c", "f", "["} <= set(screen.keys) and "earlier in this deal" in screen.screen


def table_view() -> dict:
    """Four humans at a table with a clock, at seat 1's turn: seat 2 left, seat 3 is away."""
    table = view("in_deal") | {"humans": 4, "turn_seconds": 60, "your_seat": 1, "turn": 1}
    table["seats"][0]["kind"] = table["seats"][2]["kind"] = table["seats"][3]["kind"] = "human"
    table["seats"][2]["away"] = table["seats"][3]["away"] = True
    return table | {"turn_deadline": "2026-11-30T21:34:05Z"}


def action(seq: int, seat: int, by: str) -> dict:
    return {"seq": seq, "type": "action", "seat": seat, "action": "hold", "stake": 3} | {
        "high_stake": 3,
        "pot": 12,
        "by": by,
    }


def test_a_table_shows_away_seats_the_clocks_plays_and_the_deadline():
    table = TableState()
    table.note([action(1, 3, "clock"), action(2, 1, "player")], table_view())
    table.note([{"seq": 3, "type": "player_left", "seat": 2, "abandoned": False}], table_view())
    screen = shown(table.render(table_view(), {"h": "hold", "g": "leave"}))
    assert "The clock played for Kaveh: holds at 3." in screen
    assert "\nDarius holds at 3." in screen
    assert "Shirin left; the AI plays their seat." in screen
    table.note([{"seq": 4, "type": "seat_freed", "seat": 1}], table_view())
    assert "Seat 1 is open again: its human left before deal 1." in table.log
    assert re.search(r"Shirin\s+3\s+-17/3\s+looked, folded, away", screen), screen
    assert re.search(r"Kaveh\s+3\s+-17/3\s+dealer, looked, away", screen), screen
    assert "AI normal · 60 s a turn" in screen
    # That deadline has passed: nothing is left of the turn.
    assert re.search(r"high stake 3 · your turn until \d\d:\d\d:\d\d \(0 s left\)", screen), screen


def test_the_deadline_counts_the_seconds_left_as_the_screen_is_drawn():
    deadline = datetime.now(UTC) + timedelta(seconds=41.5)
    table = table_view() | {"turn": 3, "turn_deadline": deadline.isoformat()}
    screen = shown(TableState().render(table, {"g": "leave"}))
    until = deadline.astimezone().strftime("%H:%M:%S")
    assert re.search(rf"Kaveh's turn until {until} \((4[12]) s left\)", screen), screen
    # The next redraw comes as the count falls to 41: just past half a second from now.
    assert 0.02 < next_tick(table) <= 0.52
    assert next_tick(table_view()) is None  # that deadline has passed


def test_events_noted_twice_show_once():
    """A followed table delivers some events both in a write's answer and from its follower."""
    table = TableState()
    table.note([action(1, 3, "ai"), action(2, 1, "player")], table_view())
    table.note([action(2, 1, "player"), action(3, 3, "ai")], table_view())
    assert table.seen == 3
    assert table.log == ["Kaveh holds at 3.", "Darius holds at 3.", "Kaveh holds at 3."]


def test_events_past_the_view_s_version_are_left_to_the_follower():
    """The owner folded between the friend's join (version 2) and its read of the events,
    which then held the fold: noting it would start the follower after it, and the friend's
    table would wait on the view of version 2 (failed the late-move terminal test)."""
    pages = {"/matches/m/events?after=0": {"events": [action(n, 3, "ai") for n in (1, 2, 3)]}}
    table = TableState()
    table.read_events(lambda method, path: pages[path], table_view() | {"id": "m", "version": 2})
    assert table.seen == 2 and len(table.log) == 2


def test_the_waiting_room_names_the_open_seats_and_fits_the_join_command_in_80_columns():
    waiting = view("in_deal") | {"status": "waiting", "deal_number": 0, "humans": 3}
    waiting |= {"id": "4696915b-82de-49a5-9e7d-d729b1bb2f43", "turn_seconds": 60}
    waiting |= {"invite": "fja0KaNIph71GhEREg_98Dz049_PDky2", "dealer": None, "turn": None}
    waiting["seats"][1]["name"] = waiting["seats"][2]["name"] = None
    server = "http://127.0.0.1:41234"
    screen = shown(waiting_room(waiting, {"q": "quit"}, server))
    assert "a table for 3 · waiting for 2 more" in screen
    assert screen.count("(open seat)") == 2
    invite = f"{waiting['id']}:{waiting['invite']}"
    assert f"Invite: {invite}" in screen
    # Two lines that a shell joins, each whole within 80 columns.
    assert f"play --url {server} \\\n    --join {invite}\n" in screen
    assert max(map(len, screen.splitlines())) <= 80

    # A friend who joined sees no invite.
    joined = waiting | {"invite": None, "your_seat": 1}
    joined["seats"][1]["name"] = "Babak"
    screen = shown(waiting_room(joined, {"q": "quit"}, server))
    assert "waiting for 1 more" in screen and "Babak (you)" in screen
    assert "Invite" not in screen and "--join" not in screen


@pytest.mark.parametrize("verifiable", [True, False])
def test_an_invite_shows_its_table_verifiable_or_not_before_the_join(verifiable):
    table = {
        "id": "0b8a3a55-6f0e-4d0c-9a59-1f3c2b8e7d10",
        "owner": "Roya",
        "humans": 3,
        "seats_free": 2,
        "seats": [
            {"seat": 0, "name": "Roya", "kind": "human", "free": False},
            {"seat": 1, "name": None, "kind": "human", "free": True},
            {"seat": 2, "name": None, "kind": "human", "free": True},
            {"seat": 3, "name": "Kaveh", "kind": "ai", "free": False},
        ],
        "turn_seconds": 45,
        "ai_level": "easy",
        "verifiable": verifiable,
        "spectators": "delayed",
        "fill_at": None,
        "created_at": "2026-12-01T19:00:00Z",
    }
    keys = {"j": "join this table", "q": "quit without joining"}
    screen = shown(invitation(table, keys))
    assert "Roya invites you to a table" in screen
    verifiable_column = "yes" if verifiable else "no"
    assert re.search(rf"2 of 3 +Roya, ·, ·, +45 s +easy +{verifiable_column} ", screen)
    said = "Verifiable: each series' seed is revealed" if verifiable else "Not verifiable"
    assert said in " ".join(screen.split())
    assert "Spectators: delayed." in screen
    assert screen.rstrip().splitlines()[-1] == "Keys: j join this table   q quit without joining"
    assert max(map(len, screen.splitlines())) <= 80


def test_a_type_newer_than_the_client_is_skipped_and_the_table_goes_on():
    table = TableState()
    table.note([{"seq": 1, "type": "from_the_future", "seat": 9}], view("in_deal"))
    assert table.seen == 1 and table.log == []


def test_a_restart_that_changed_the_level_says_so():
    table = TableState()
    restarted = {"seq": 4, "type": "match_restarted", "series": 2, "ai_level": "easy"}
    table.note([restarted], view("in_deal"))
    assert table.log == ["Series 2 begins. The AI now plays at easy."]


def test_a_finished_verifiable_match_shows_its_revealed_seed_and_a_playing_one_does_not():
    seed = "ab" * 32
    finished = view("finished") | {"fairness": {"server_seed": seed}}
    assert seed[:16] in fairness_line(finished)
    assert fairness_line(view("in_deal") | {"fairness": {"server_seed": None}}) == ""
    assert fairness_line(view("finished") | {"fairness": {"server_seed": None}}) == ""


def test_the_revealed_seed_fits_at_80_by_24_or_gives_way_before_the_keys():
    keys = {"s": "restart", "q": "quit (resume later)"}
    for height in (24, 18):  # 18: the standings and the keys, no room left for the seed
        terminal = Console(file=io.StringIO(), width=80, height=height)
        finished = view("finished") | {"fairness": {"server_seed": "cd" * 32}}
        screen = shown(table_with_log().render(finished, keys, fit_to=terminal))
        lines = screen.splitlines()
        assert len(lines) <= height and lines[-1].startswith("Keys: s restart"), screen
        assert ("cd" * 8 in screen) == (height == 24), screen


def test_the_log_says_which_seats_the_ai_took_when_a_table_was_filled():
    names = ["Roya", "Babak", "Darius", "Kaveh"]
    assert EVENT_LINES["seats_filled"]({"type": "seats_filled", "seats": [2]}, names) == [
        "The AI took the open seats (Darius)."
    ]


def test_a_bot_seat_is_labelled_a_bot_on_the_table():
    bot_view = view("in_deal")
    bot_view["seats"][1] |= {"kind": "bot", "name": "Shirbot"}
    screen = shown(TableState().render(bot_view, {"c": "call"}))
    assert "Shirbot (bot)" in screen
    assert "Shirin (AI)" in screen


def test_names_show_as_written_whatever_brackets_they_hold():
    """Anyone names themselves or a tournament: on `play`'s console, markup in a name neither
    stops the screen ("[/x]" was a MarkupError) nor restyles it."""
    view = table_view()
    view["seats"][0]["name"] = "[/x] Mallory"
    view["seats"][2]["name"] = "[blink]Eve :smile:"
    table = TableState()
    table.tournament = "[bold]Sunday[/bold]"
    console = terminal_console(file=io.StringIO(), width=100, height=30, color_system=None)
    console.print(table.render(view, {"g": "leave"}))
    screen = console.file.getvalue()
    assert "[/x] Mallory" in screen and "[blink]Eve :smile:" in screen
    assert screen.splitlines()[0].strip("─ ").startswith("As-Nas · [bold]Sunday[/bold] · deal")
