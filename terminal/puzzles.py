"""Puzzles in the terminal (docs/puzzles.md): `play --puzzles` hands you the puzzle nearest
your puzzle rating, grades your key by the exact values, and offers the next. It reads only
the API's JSON: GET /puzzles/next and POST /puzzles/{id}/try."""

from rich.console import Group
from rich.table import Table
from rich.text import Text

from terminal.api import Api, ApiProblem
from terminal.table import keys_line

ACTION_KEYS = {"look": "l", "call": "c", "hold": "h", "raise": "r", "fold": "f"}
PLACES = {0: "you", 1: "next", 2: "across", 3: "before you"}


def position_screen(puzzle: dict) -> Group:
    """The position as its seat saw it: the hand, the stakes, the moves so far."""
    seen = puzzle["position"]
    hand = " ".join(seen["hand"]) if seen["hand"] else "not looked at"
    seats = Table(box=None, pad_edge=False)
    for column in ("seat", "stake", "state"):
        seats.add_column(column)
    for seat in seen["seats"]:
        place = PLACES[seat["position"]] + (
            " (dealer)" if seat["position"] == seen["dealer"] else ""
        )
        state = "folded" if seat["folded"] else "looked" if seat["looked"] else "in"
        seats.add_row(place, str(seat["stake"]), state)
    moves = ", ".join(f"{PLACES[m['position']]} {m['action']}" for m in seen["moves"]) or "none"
    return Group(
        Text(
            f"Puzzle (rated {puzzle['rating']:.1f}; yours {puzzle['your_rating']:.1f})",
            style="bold",
        ),
        Text(f"Your hand: {hand}"),
        Text(f"Pot {seen['pot']} · high stake {seen['high_stake']}"),
        seats,
        Text(f"Moves so far: {moves}"),
        Text("What is clearly best here?"),
    )


def grade_screen(grade: dict) -> Group:
    """Solved or not, the best action, each action's value, the themes, the ratings."""
    verdict = "Solved!" if grade["solved"] else f"Not quite: the best is {grade['best']}."
    values = Table(box=None, pad_edge=False)
    values.add_column("action")
    values.add_column("value", justify="right")
    for value in grade["values"]:
        mark = (
            " ← best" if value["best"] else " ← yours" if value["action"] == grade["action"] else ""
        )
        values.add_row(value["action"] + mark, f"{value['value_rounded']:+.2f}")
    themes = ", ".join(t.replace("_", " ") for t in grade["themes"]) or "none"
    return Group(
        Text(verdict, style="bold"),
        Text(f"Points lost {grade['lost_rounded']:.2f}"),
        values,
        Text(f"Themes: {themes}"),
        Text(f"Your puzzle rating {grade['rating_before']:.1f} → {grade['rating']:.1f}"),
    )


def solve(api: Api, screen) -> None:
    """Puzzle after puzzle until you quit or none is left."""
    while True:
        try:
            puzzle = api("GET", "/puzzles/next")
        except ApiProblem as problem:
            if problem.code != "no_puzzle_left":
                raise
            screen.leave(Text("No puzzle is left for you; come back after more matches."))
            return
        keys = {ACTION_KEYS[a]: a for a in puzzle["actions"]} | {"q": "quit"}
        screen.show(Group(position_screen(puzzle), keys_line(keys)))
        key = screen.key(keys)
        if key == "q":
            screen.leave(None)
            return
        grade = api("POST", f"/puzzles/{puzzle['id']}/try", {"action": keys[key]})
        after = {"n": "next puzzle", "q": "quit"}
        screen.show(Group(grade_screen(grade), keys_line(after)))
        if screen.key(after) == "q":
            screen.leave(None)
            return
