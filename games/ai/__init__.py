"""AI seats: four levels that see the game only through `observe()`, `legal_actions()`
and, for `expert`, the match's public record as that seat saw it (`public_record`).

The service calls, for each AI turn::

    choose_action(level, observe(state, seat), legal_actions(state, seat),
                  ai_rng(seed, series, deal_number, seat, len(view.history)),
                  public_record(events, seat) if level in WATCHING_LEVELS else ())

`choose_action` is deterministic given the rng, so a match replays exactly from its seed.
`hard` plays the CFR-trained table in `hard_strategy.json`, `expert` that table shifted
toward a best response against its model of the opponents (`expert_strategy.json`); call
`load_strategy()` and `load_expert()` at start-up to fail early if an asset is missing or
made for other rules.
This package imports only the standard library and `games.engine`.
"""

import random

from games.engine import MatchState, SeatView, fairness

from . import heuristics
from .expert import DealRecord, load_expert, public_record
from .strategy import StrategyError, load_strategy

AI_LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")
DEFAULT_AI_LEVEL = "hard"
WATCHING_LEVELS = frozenset({"expert"})
"""The levels that read the match's public record; the others ignore it."""

_HEURISTICS = {"easy": heuristics.easy, "normal": heuristics.normal}


def ai_rng(seed: int, series: int, deal_number: int, seat: int, step: int) -> random.Random:
    """The random source of one AI decision, derived from the match's recorded seed.
    `step` is the number of actions in the deal so far (len(view.history))."""
    return random.Random(f"{seed}:{series}:{deal_number}:ai:{seat}:{step}")


def decision_rng(state: MatchState, seat: int, step: int) -> random.Random:
    """The random source of the AI's decision at `seat` now: for a match dealt verifiably,
    from its series' server seed under a label of its own (nothing public predicts it before
    the reveal); for one dealt as before, `ai_rng` from its seed."""
    seeds, deal_number = state.seeds, state.deal.deal_number
    if seeds is None:
        return ai_rng(state.seed, state.series, deal_number, seat, step)
    key = bytes.fromhex(seeds.server_seed)
    return fairness.ai_rng(key, seeds.client_seeds, state.series, deal_number, seat, step)


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
    "DEFAULT_AI_LEVEL",
    "WATCHING_LEVELS",
    "DealRecord",
    "StrategyError",
    "ai_rng",
    "decision_rng",
    "choose_action",
    "load_expert",
    "load_strategy",
    "public_record",
]
