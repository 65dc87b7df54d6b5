"""The puzzles room's reads: the next puzzle for a player, in one statement."""

from games.engine import DomainError
from games.puzzles import store
from players.models import Player
from players.rating import START


def puzzle_next(*, player: Player) -> dict:
    """The untried puzzle nearest the player's puzzle rating, never from their own matches:
    its position and legal actions (not its values nor its themes, which say the answer: the
    try gives them). 404
    `no_puzzle_left` when there is none."""
    found = store.puzzle_near(player_id=player.id, start=START.displayed)
    if found is None:
        raise DomainError(
            "no_puzzle_left", "No puzzle is left for you; come back after more matches are played."
        )
    puzzle, mine = found
    puzzle.pop("themes")
    return {**puzzle, "rating": round(puzzle["rating"], 2), "your_rating": round(mine, 2)}
