"""The puzzles room's writes: mine the puzzles of ended matches (`puzzles_mine`, the turn
clock's sweep: never a request) and grade a try (`puzzle_try`), which moves the player's and
the puzzle's ratings (OpenSkill, as players.rating rates matches)."""

import uuid
from fractions import Fraction

from django.db import transaction

from games.engine import DomainError
from games.match import log
from games.puzzles import mining, positions, store
from games.review import store as review_store
from players.models import Player
from players.rating import START, Entrant, Rating, rate

MINE_AT_ONCE = 20
"""How many matches one sweep mines at most: each is a replay of its events and a read of
its stored reviews."""


def puzzles_mine(*, limit: int = MINE_AT_ONCE) -> int:
    """Mine the ended matches not yet mined whose reviews are all stored; how many puzzles."""
    stored = 0
    for match_id in store.matches_to_mine(limit=limit):
        stored += match_mine(match_id=match_id)
    return stored


def match_mine(*, match_id: uuid.UUID) -> int:
    """Store the puzzles of one ended match (docs/puzzles.md, "Which decisions"); how many."""
    events = (event for _, event in log.match_events(match_id=match_id))
    shown, revealed = mining.seen_hands(events)
    found = []
    for series, number, body in sorted(review_store.reviews_stored(match_id=match_id)):
        for seat_key, seat_body in body.items():
            seat = int(seat_key)
            if mining.may_show(seat, (series, number), shown, revealed):
                found.extend(positions.puzzles_of_seat(seat_body, seat))
    with transaction.atomic():
        return store.mined_save(
            match_id=match_id,
            puzzles=found,
            excluded=store.human_players(match_id=match_id),
            start=START,
        )


def puzzle_try(*, player: Player, puzzle_id: uuid.UUID, action: str) -> dict:
    """Grade `player`'s choice of `action` at the puzzle: solved if it is the best action.
    The player's puzzle rating and the puzzle's move as after a two-sided game the solver
    won or lost. 404 for no such puzzle or one from the player's matches, 400
    `puzzle_action_illegal`, 409 `puzzle_tried`."""
    with transaction.atomic():
        puzzle = store.puzzle_lock(puzzle_id=puzzle_id)
        if puzzle is None or str(player.id) in puzzle.excluded:
            raise DomainError("not_found", "No such puzzle.")
        if action not in puzzle.actions:
            raise DomainError(
                "puzzle_action_illegal",
                f"{action} is not legal here; the legal actions are {', '.join(puzzle.actions)}.",
            )
        solver = store.solver_lock(player_id=player.id, start=START)
        before = solver.rating
        solved = action == puzzle.best
        mine, its = rate(
            [
                Entrant(Rating(solver.mu, solver.sigma), 1 if solved else 2),
                Entrant(Rating(puzzle.mu, puzzle.sigma), 2 if solved else 1),
            ]
        )
        solver.mu, solver.sigma, solver.rating = mine.mu, mine.sigma, mine.displayed
        solver.tries += 1
        puzzle.mu, puzzle.sigma, puzzle.rating = its.mu, its.sigma, its.displayed
        puzzle.tries += 1
        puzzle.solved += solved
        if not store.try_save(puzzle=puzzle, solver=solver, action=action, solved=solved):
            raise DomainError("puzzle_tried", "You already tried this puzzle.")
    chosen = next(Fraction(v["value"]) for v in puzzle.values if v["action"] == action)
    best = next(Fraction(v["value"]) for v in puzzle.values if v["action"] == puzzle.best)
    return {
        "puzzle": puzzle.id,
        "action": action,
        "solved": solved,
        "best": puzzle.best,
        "lost": str(best - chosen),
        "lost_rounded": float(round(best - chosen, 2)),
        "values": [
            {
                "action": v["action"],
                "value": v["value"],
                "value_rounded": float(round(Fraction(v["value"]), 2)),
                "best": v["action"] == puzzle.best,
            }
            for v in puzzle.values
        ],
        "themes": puzzle.themes,
        "rating_before": round(before, 2),
        "rating": round(solver.rating, 2),
        "puzzle_rating": round(puzzle.rating, 2),
    }
