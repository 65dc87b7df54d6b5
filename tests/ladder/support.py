"""What the ladder's tests share: bots that play a benchmark through the calls a client
makes (the benchmark's read for its match in play, the match's moves), deciding from their
seat's view alone, and the three bots docs/bots.md measures."""

import random
import time
from collections.abc import Callable

from games.ai import choose_action
from games.engine import SeatView, Status, legal_actions, observe
from games.ladder import commands
from games.match.commands import match_move
from games.match.store import match_load
from players.models import Player
from players.services import player_create

Bot = Callable[[SeatView, tuple[str, ...], random.Random], str]
SEED = bytes(range(32))
"""The benchmarks' seed in these tests: every bot meets the same deals."""


def level_bot(level: str) -> Bot:
    """A bot that plays as the AI of `level` would in its seat, from the seat's view."""
    return lambda view, legal, rng: choose_action(level, view, legal, rng)


def always_call(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """Never looks, folds or raises: calls a raise, holds when matched (docs/skill.md)."""
    return "call" if "call" in legal else "hold"


BOTS: dict[str, Bot] = {
    "hard": level_bot("hard"),
    "normal": level_bot("normal"),
    "always-call": always_call,
}


def new_bot(name: str = "Shirbot") -> Player:
    return player_create(name=name, bot=True)[0]


def play_match(player: Player, match_id, bot: Bot, rng: random.Random) -> int:
    """Play the match to its end as `bot` at seat 0, seeing only the seat's view; how many
    moves the bot made."""
    match = match_load(match_id=match_id, player=player)
    moves = 0
    while match.state.status is not Status.FINISHED:
        state = match.state
        if state.status is Status.DEAL_OVER:
            match = match_move(match_id=match_id, player=player, move="next_deal")
            continue
        legal = tuple(legal_actions(state, 0))
        action = bot(observe(state, 0), legal, rng)
        match = match_move(match_id=match_id, player=player, move="act", action=action)
        moves += 1
    return moves


def run_benchmark(
    player: Player, deals: int, bot: Bot, *, seed: bytes = SEED
) -> tuple[dict, float]:
    """A whole benchmark of `deals` deals played by `bot`, as a client would: ask for it, play
    the match in play, read the benchmark for the next, until it finished. The last read, and
    the seconds it took."""
    rng = random.Random(7)
    started = time.perf_counter()
    commands.benchmark_start(player=player, deals=deals, server_seed=seed)
    view = commands.benchmark_read_answer(player=player)
    while view["status"] == "running":
        play_match(player, view["current_match"], bot, rng)
        view = commands.benchmark_read_answer(player=player)
    return view, time.perf_counter() - started
