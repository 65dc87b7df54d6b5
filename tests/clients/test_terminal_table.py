"""The terminal table fits the commonest terminal, 80 × 24, in every state: the keys line
is the last thing a player must see, and a tall showdown must not push it off."""

import io

import pytest
from rich.console import Console

from terminal.table import LOG_LINES, TableState

LONG_HAND = ["Sarbaz", "Sarbaz", "Sarbaz", "Couli", "Couli"]
NAMES = ["A player with a long name", "Darius", "Shirin", "Kaveh"]


def view(status: str) -> dict:
    seats = [
        {"seat": n, "name": name, "kind": "human" if n == 0 else "ai", "stake": 3}
        | {"total": "-17/3", "looked": True, "folded": n == 2}
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


def test_the_hint_fits_beside_a_shortened_log():
    terminal = Console(file=io.StringIO(), width=80, height=24)
    table = table_with_log()
    screen = shown(table.render(view("in_deal"), {"c": "call"}, "", HINT, fit_to=terminal))
    assert len(screen.splitlines()) <= 24 and "Hint · " in screen, screen
    assert "-1.2346" in screen and LONG_VALUE[:20] not in screen, screen  # to 4 places


def test_a_tall_terminal_shows_the_whole_log_and_a_printed_screen_is_never_cut():
    tall = Console(file=io.StringIO(), width=120, height=60)
    table = table_with_log()
    for fit_to in (tall, None):
        screen = shown(table.render(view("in_deal"), {"c": "call"}, fit_to=fit_to))
        assert screen.count("Kaveh raises to") == LOG_LINES
