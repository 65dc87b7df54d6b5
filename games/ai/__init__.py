"""AI seats: three levels that see the game only through `observe()` and
`legal_actions()`.

The service calls, for each AI turn::

    choose_action(level, observe(state, seat), legal_actions(state, seat),
                  ai_rng(seed, series, deal_number, seat, len(view.history)))

`choose_action` is deterministic given the rng, so a match replays exactly from its seed.
This package imports only the standard library and `games.engine`.
"""

import random

from games.engine import SeatView

from . import heuristics

AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
DEFAULT_AI_LEVEL = "hard"

# TEMPORARY: `hard` plays the `normal` heuristic until the trained strategy table is
# committed (games/ai/strategy asset); it will then sample from the CFR strategy.
_POLICIES = {
    "easy": heuristics.easy,
    "normal": heuristics.normal,
    "hard": heuristics.normal,
}


def ai_rng(seed: int, series: int, deal_number: int, seat: int, step: int) -> random.Random:
    """The random source of one AI decision, derived from the match's recorded seed.
    `step` is the number of actions in the deal so far (len(view.history))."""
    return random.Random(f"{seed}:{series}:{deal_number}:ai:{seat}:{step}")


def choose_action(level: str, view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """The action an AI seat of `level` takes; always one of `legal`."""
    if not legal:
        raise ValueError("choose_action called when the seat has no legal action")
    try:
        policy = _POLICIES[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}; expected one of {AI_LEVELS}") from None
    action = policy(view, legal, rng)
    assert action in legal, (level, action, legal)
    return action


__all__ = ["AI_LEVELS", "DEFAULT_AI_LEVEL", "ai_rng", "choose_action"]
