"""How long an expert seat takes to decide, as the service asks it (the record built
from the match's events included): prints p50, p99 and max (run with -m simulation -s).
The bound only tells working from broken."""

import random
import statistics
import time

import pytest

from games.ai import ai_rng, choose_action, public_record
from games.engine import (
    Act,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
)

pytestmark = pytest.mark.simulation
LINEUP = ("expert", "easy", "normal", "easy")


def test_expert_decision_latency():
    timings, cpu = [], []
    rng = random.Random(1)
    for seed in range(-1, 40):  # match -1 is not timed: it loads the tables and the model
        if seed == 0:
            timings, cpu = [], []
        state, events = MatchState(), []
        for event in decide(state, StartMatch(seed)):
            evolve(state, event)
            events.append(event)
        while state.status is not Status.FINISHED:
            if state.status is Status.DEAL_OVER:
                command = NextDeal()
            else:
                seat = state.deal.turn
                legal = legal_actions(state, seat)
                if LINEUP[seat] == "expert":
                    started, cpu_started = time.perf_counter(), time.process_time()
                    view = observe(state, seat)
                    record = public_record(events, seat)
                    action = choose_action(
                        "expert",
                        view,
                        legal,
                        ai_rng(seed, state.series, state.deal.deal_number, seat, len(view.history)),
                        record,
                    )
                    timings.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - cpu_started)
                else:
                    action = rng.choice(legal)
                command = Act(seat, action)
            for event in decide(state, command):
                evolve(state, event)
                events.append(event)
    for name, values in (("wall", timings), ("cpu", cpu)):
        values.sort()
        print(
            f"\nexpert decisions ({name}): {len(values)}, "
            f"p50 {statistics.median(values) * 1000:.2f} ms, "
            f"p99 {values[int(0.99 * (len(values) - 1))] * 1000:.2f} ms, "
            f"max {values[-1] * 1000:.2f} ms"
        )
    assert statistics.median(timings) < 0.05  # 5 ms is the goal; 50 tells broken apart
