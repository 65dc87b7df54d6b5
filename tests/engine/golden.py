"""Golden replays: whole matches as their event logs, with the projection each must replay
to. Regenerate (only on purpose, when stored matches should replay differently - which they
never should) with `uv run python -m tests.engine.golden > tests/engine/golden_matches.json`.
"""

import json
import random

from games.engine import (
    Act,
    MatchState,
    NextDeal,
    Restart,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
)

# (seed, restart after this many commands or None, deals to play)
MATCHES = ((11, None, 12), (29, 17, 12), (47, 40, 3))


def digest(state: MatchState) -> list:
    """What each event must leave behind, small enough to store after every event."""
    deal = state.deal
    return [
        state.version,
        state.status.value,
        state.series,
        [str(total) for total in state.totals],
        None
        if deal is None
        else [deal.deal_number, deal.turn, deal.pot, deal.high_stake, list(deal.stakes)],
    ]


def record(seed: int, restart_at: int | None, deals: int) -> dict:
    rng = random.Random(seed)
    state, events, after = MatchState(), [], []

    def run(command) -> None:
        for event in decide(state, command):
            evolve(state, event)
            events.append(event.to_dict())
            after.append(digest(state))

    run(StartMatch(seed))
    commands = 0
    while state.status is not Status.FINISHED and (
        state.deal_number - (state.status is Status.IN_DEAL) < deals
    ):
        commands += 1
        if commands == restart_at:
            run(Restart())
        elif state.status is Status.DEAL_OVER:
            run(NextDeal())
        else:
            seat = state.deal.turn
            run(Act(seat, rng.choice(legal_actions(state, seat))))
    return {"events": events, "after": after, "final": state.to_dict()}


if __name__ == "__main__":
    print(json.dumps([record(*match) for match in MATCHES], separators=(",", ":")))
