"""AI seats: four levels that see the game only through `observe()`, `legal_actions()`
and, for `expert`, the match's public record as that seat saw it (`public_record`).

The engine's turn loop (games.engine.turns) calls `chooser(level)` for each AI turn,
which calls::

    choose_action(level, observe(state, seat), legal_actions(state, seat),
                  decision_rng(state, seat, len(view.history)),
                  public_record(events, seat) if level in WATCHING_LEVELS else ())

(`decision_rng` is `ai_rng` from the seed for a match not dealt verifiably.)

`choose_action` is deterministic given the rng, so a match replays exactly from its seed.
`hard` plays the CFR-trained table in `hard_strategy.json`, `expert` that table shifted
toward a best response against its model of the opponents (`expert_strategy.json`); call
`load_strategy()` and `load_expert()` at start-up to fail early if an asset is missing or
made for other rules.
This package imports only the standard library and `games.engine`.
"""

import random

from games.engine import AiTurn, Chooser, SeatView, ai_rng, decision_rng

from . import heuristics
from .expert import DealRecord, load_expert, public_record, record_seen
from .strategy import StrategyError, load_strategy

AI_LEVEL_MEANINGS = {
    "easy": "a loose heuristic that feels human",
    "normal": "a tight heuristic that weighs its hand against the price",
    "hard": "a near-equilibrium strategy",
    "expert": "hard, shifted toward exploiting what it has seen of the other seats this match",
}
"""Each AI level, weakest first, and how it plays (the API's schema shows these)."""
AI_LEVELS: tuple[str, ...] = tuple(AI_LEVEL_MEANINGS)
DEFAULT_AI_LEVEL = "hard"
WATCHING_LEVELS = frozenset({"expert"})
"""The levels that read the match's public record; the others ignore it."""

_HEURISTICS = {"easy": heuristics.easy, "normal": heuristics.normal}


def choose_action(
    level: str,
    view: SeatView,
    legal: tuple[str, ...],
    rng: random.Random,
    record: tuple[DealRecord, ...] = (),
) -> str:
    """The action an AI seat of `level` takes; always one of `legal`. `record`: the
    match's finished deals as the seat saw them (`public_record`), for `expert`."""
    if not legal:
        raise ValueError("choose_action called when the seat has no legal action")
    if level == "hard":
        action = load_strategy().choose(view, legal, rng)
    elif level == "expert":
        action = load_expert().choose(view, legal, rng, record)
    elif level in _HEURISTICS:
        action = _sample(_HEURISTICS[level](view, legal), legal, rng)
    else:
        raise ValueError(f"unknown AI level {level!r}; expected one of {AI_LEVELS}")
    if action not in legal:
        raise AssertionError(f"AI level {level} chose {action!r}, not in {legal}")
    return action


def chooser(level: str) -> Chooser:
    """The AI of `level` as the engine's turn loop calls it (games.engine.turns), seeing the
    seat's view and, for the levels that watch the table, its record of the match."""

    def choose(turn: AiTurn) -> str:
        record = record_seen(turn.seen_events()) if level in WATCHING_LEVELS else ()
        return choose_action(level, turn.view, turn.legal, turn.rng, record)

    return choose


def _sample(distribution: dict[str, float], legal: tuple[str, ...], rng: random.Random) -> str:
    """One action from `distribution`, walking `legal` in order with one uniform draw."""
    x = rng.random()
    chosen = None
    for action in legal:
        p = distribution.get(action, 0.0)
        if p > 0.0:
            chosen = action
            x -= p
            if x < 0.0:
                return action
    return chosen  # rounding: the last action with any probability


__all__ = [
    "AI_LEVELS",
    "AI_LEVEL_MEANINGS",
    "DEFAULT_AI_LEVEL",
    "WATCHING_LEVELS",
    "DealRecord",
    "StrategyError",
    "ai_rng",
    "decision_rng",
    "choose_action",
    "chooser",
    "load_expert",
    "load_strategy",
    "public_record",
]
