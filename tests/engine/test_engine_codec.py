"""The compact stored form of events: every event decodes to exactly itself, in a fraction
of the bytes of its JSON, and a line that is not an event is refused, never misread."""

import json
import random
from fractions import Fraction

import pytest

from games.engine import (
    ActionTaken,
    DealEnded,
    MatchCreated,
    MatchFinished,
    NextDeal,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    Restart,
    SeatFreed,
    SeatResult,
    Status,
    decode_event,
    encode_event,
    event_from_dict,
    legal_actions,
)
from tests.engine.golden import load_golden
from tests.engine.support import Table

GOLDEN = load_golden()


def played_events(seed: int) -> list:
    """Every event of a random match with a restart and thirds in its scores."""
    rng, table = random.Random(seed), Table.started(seed)
    restarted = False
    while table.state.status is not Status.FINISHED:
        if table.state.status is Status.DEAL_OVER:
            if table.state.deal_number == 3 and not restarted:
                table.do(Restart())
                restarted = True
            else:
                table.do(NextDeal())
        else:
            seat = table.state.deal.turn
            table.acts((seat, rng.choice(legal_actions(table.state, seat))))
    return table.events


@pytest.mark.parametrize("seed", range(5))
def test_every_event_of_whole_matches_decodes_to_itself(seed):
    events = played_events(seed)
    assert {type(event).__name__ for event in events} >= {
        "MatchCreated",
        "DealStarted",
        "ActionTaken",
        "DealEnded",
        "MatchRestarted",
        "MatchFinished",
    }
    for event in events:
        line = encode_event(event)
        assert "\n" not in line
        decoded = decode_event(line)
        assert decoded == event and decoded.to_dict() == event.to_dict()  # turn included


def test_the_golden_events_decode_to_their_stored_dicts_in_a_tenth_of_the_bytes():
    payloads = [payload for match in GOLDEN for payload in match["events"]]
    lines = [encode_event(event_from_dict(payload)) for payload in payloads]
    assert [decode_event(line).to_dict() for line in lines] == payloads
    compact = sum(map(len, lines))
    as_json = sum(len(json.dumps(payload)) for payload in payloads)
    assert compact * 6 < as_json, (compact, as_json)


def test_negative_and_fractional_scores_and_resignations_are_exact():
    seats = tuple(
        SeatResult(
            seat,
            ("As",) * 4 + ("Couli",),
            "four_of_a_kind",
            3,
            Fraction(7, 3),
            Fraction(-4, 3),
            seat == 1,
            seat != 1,
        )
        for seat in range(4)
    )
    ended = DealEnded(2, 12, "showdown", (0, 2, 3), seats)
    resigned = Resigned(3)
    finished = MatchFinished(
        2, (0, 3), (Fraction(-1, 3), Fraction(0), Fraction(5), Fraction(11, 3))
    )
    for event in (ended, finished, resigned):
        assert decode_event(encode_event(event)) == event


def test_table_events_decode_to_themselves_who_acted_and_odd_names_included():
    events = [
        MatchCreated(7, humans=3),
        PlayerJoined(1, 'Ro, "ya"\nسارا'),
        ActionTaken(1, "raise", 2, 2, 5, 2, "clock"),
        ActionTaken(2, "call", 2, 2, 7, None, "ai"),
        ActionTaken(0, "look", 1, 1, 4, 0, "player"),
        PlayerLeft(1),
        PlayerLeft(0, abandoned=True),
        SeatFreed(2),
    ]
    for event in events:
        line = encode_event(event)
        assert "\n" not in line
        decoded = decode_event(line)
        assert decoded == event and decoded.to_dict() == event.to_dict()  # by included
    # A single-player match and an action that names no actor keep their first letters.
    assert encode_event(MatchCreated(7))[0] == "C"
    assert encode_event(ActionTaken(0, "look", 1, 1, 4, 0))[0] == "A"


@pytest.mark.parametrize(
    "line",
    [
        *("", "X1", "A0x,1,1,2,3", "A0c,1,1", "Dx,1,0,AKQJ", "C12", "E1,1,s,0,AAAAK.z.1.1.0.00"),
        *("B0c,1,1,2,3,z", "J0", "L1", "H1,1", "V", "V1,0"),
    ],
)
def test_a_line_that_is_not_an_event_is_refused(line):
    with pytest.raises((KeyError, ValueError)):
        decode_event(line)
