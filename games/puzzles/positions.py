"""Which reviewed decisions become puzzles, and what a puzzle shows (docs/puzzles.md). No
Django: the miner hands this a deal's stored review body and what the deal's end showed, and
stores what it returns.

A puzzle names nobody: the seats are told by their place after the solver's (0 is the
solver, 1 the seat that acts after it, ...), and nothing of the match (id, series, deal
number, times, names, who was an AI) is kept."""

from collections.abc import Iterator
from fractions import Fraction

from games.engine import SEATS
from games.engine.state import MAX_STAKE
from games.engine.vocabulary import Action, Actor

CLEAR_MARGIN = Fraction(2, 5)
"""How much more the best action must be worth than every other for the decision to be a
puzzle: more than the review's `mistake` bound (games.ai.review.GRADES), so that any other
choice is a blunder."""

THEMES = ("free_hold", "raise_into_three", "fold_before_looking", "call_at_last_stake")
"""The themes a position may carry (docs/puzzles.md, "Themes")."""


def clear_best(values: list[dict]) -> tuple[str, Fraction] | None:
    """(best action, its margin over the next best) if one action beats every other by more
    than CLEAR_MARGIN; None otherwise (one legal action, a tie, a close call)."""
    if len(values) < 2:
        return None
    ranked = sorted(((Fraction(v["value"]), v["action"]) for v in values), reverse=True)
    (best, action), (second, _) = ranked[0], ranked[1]
    margin = best - second
    return (action, margin) if margin > CLEAR_MARGIN else None


def themes(position: dict, best: str) -> list[str]:
    """The themes the position says: a Hold that costs nothing, a raise with three others
    still in, a fold before the solver looked, a call when the high stake is at its last."""
    me = position["seats"][0]
    others_in = sum(1 for s in position["seats"][1:] if not s["folded"])
    said = []
    if best == Action.HOLD:
        said.append("free_hold")
    if best == Action.RAISE and others_in == SEATS - 1:
        said.append("raise_into_three")
    if best == Action.FOLD and not me["looked"]:
        said.append("fold_before_looking")
    if best == Action.CALL and position["high_stake"] == MAX_STAKE:
        said.append("call_at_last_stake")
    return said


def relative(seat: int, solver: int) -> int:
    return (seat - solver) % SEATS


def puzzle_position(decision: dict, solver: int, dealer: int) -> dict:
    """The decision's position as its seat saw it, every seat told relative to the solver."""
    stored = decision["position"]
    seats = sorted(stored["seats"], key=lambda s: relative(s["seat"], solver))
    return {
        "hand": stored["hand"],
        "pot": stored["pot"],
        "high_stake": stored["high_stake"],
        "dealer": relative(dealer, solver),
        "seats": [
            {
                "position": relative(s["seat"], solver),
                "stake": s["stake"],
                "folded": s["folded"],
                "looked": s["looked"],
            }
            for s in seats
        ],
        "moves": [
            {"position": relative(m["seat"], solver), "action": m["action"]}
            for m in stored["moves"]
        ],
    }


def puzzles_of_seat(body: dict, seat: int) -> Iterator[dict]:
    """The puzzles of one seat's stored review of a deal (games.review.bodies.seat_body): its
    own player's decisions (not the clock's) with one clearly best action. The caller has
    checked that the seat's hand may be seen (docs/puzzles.md, "Which decisions")."""
    for decision in body["decisions"]:
        if decision["by"] != Actor.PLAYER:
            continue
        found = clear_best(decision["values"])
        if found is None:
            continue
        best, margin = found
        position = puzzle_position(decision, seat, body["dealer"])
        yield {
            "position": position,
            "actions": [v["action"] for v in decision["values"]],
            "values": [{"action": v["action"], "value": v["value"]} for v in decision["values"]],
            "best": best,
            "margin": str(margin),
            "themes": themes(position, best),
        }
