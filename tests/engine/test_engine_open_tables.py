"""Filling a waiting table: when its `fill_after` runs out, the AI takes the open seats for the
whole match and deal 1 starts (seats_filled, then deal_started)."""

import json
import random

import pytest

from games.engine import (
    FillSeats,
    Join,
    Leave,
    MatchState,
    SeatsFilled,
    Seeds,
    StartMatch,
    Status,
    decode_event,
    encode_event,
    event_from_dict,
    event_view,
    replay,
)
from tests.engine.support import Table
from tests.engine.test_engine_tables import play_out


def table_of(humans: int, seed: int = 5, seeds: Seeds | None = None) -> Table:
    table = Table()
    table.do(StartMatch(seed, humans=humans, seeds=seeds))
    return table


def test_the_ai_takes_the_open_seats_and_deal_1_starts():
    table = table_of(4)
    table.do(Join("Roya"))
    filled, dealt = table.do(FillSeats())
    assert filled == SeatsFilled((2, 3)) and dealt.type == "deal_started"
    state = table.state
    assert state.status is Status.IN_DEAL
    assert [state.ai_plays(seat) for seat in range(4)] == [False, False, True, True]
    assert not any(state.away(seat) for seat in range(4))  # AI seats, not humans away
    assert not state.seated(2) and not state.seated(3)


def test_a_seat_freed_before_the_fill_is_filled_too():
    table = table_of(4)
    table.do(Join("Roya"))
    table.do(Join("Babak"))
    table.do(Leave(1))
    filled, _ = table.do(FillSeats())
    assert filled == SeatsFilled((1, 3))
    assert [table.state.ai_plays(seat) for seat in range(4)] == [False, True, False, True]


def test_only_a_waiting_table_is_filled():
    table = table_of(2)
    table.do(Join("Roya"))  # full: deal 1 started
    assert table.refuse(FillSeats()) == "match_already_started"
    closed = table_of(3)
    closed.do(Leave(0))
    assert closed.refuse(FillSeats()) == "match_abandoned"


def test_an_ai_seat_filled_is_not_a_human_to_leave_and_the_last_human_abandons():
    table = table_of(3)
    table.do(FillSeats())
    assert table.refuse(Leave(1)) == "not_seated"
    (left,) = table.do(Leave(0))
    assert left.abandoned and table.state.status is Status.ABANDONED


def test_a_filled_seat_is_in_the_snapshot_which_round_trips_and_replays():
    table = table_of(3)
    assert table.state.to_dict()["format"] == 3
    table.do(FillSeats())
    snapshot = json.loads(json.dumps(table.state.to_dict()))
    assert snapshot["format"] == 5 and snapshot["table"]["filled"] == [False, True, True, False]
    assert MatchState.from_dict(snapshot) == table.state
    assert replay(table.events) == table.state


def test_a_verifiable_table_deals_deal_1_from_the_seated_humans_seeds():
    seeds = Seeds("ab" * 32, "cd" * 32, "owner's", verifiable=True)
    filled = table_of(4, seeds=seeds)
    filled.do(Join("Roya", "roya's"))
    _, dealt = filled.do(FillSeats())
    assert filled.state.seeds.client_seeds == ["owner's", "roya's", "", ""]
    # The same seeds deal the same deck however the last seats were taken.
    other = table_of(2, seeds=seeds)
    assert dealt.deck == other.do(Join("Roya", "roya's"))[1].deck


@pytest.mark.parametrize("seed", range(6))
def test_filled_tables_play_to_the_end_and_replay(seed):
    rng = random.Random(seed)
    table = table_of(rng.randint(2, 4), seed=seed)
    for _ in range(rng.randint(0, table.state.humans - 2)):
        table.do(Join("guest"))
    table.do(FillSeats())
    play_out(table, rng)
    assert table.state.status is Status.FINISHED
    assert replay(table.events) == table.state


def test_seats_filled_encodes_and_shows_its_seats():
    event = SeatsFilled((1, 3))
    assert encode_event(event) == "I13"
    assert decode_event("I13") == event
    assert event_from_dict(event.to_dict()) == event
    assert event_view(event, None) == {"type": "seats_filled", "seats": [1, 3]}
