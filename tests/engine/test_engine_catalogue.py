"""The event catalogue: every type declares what the layers above derive from it, and its
facts answer alike for an event and for the public view a client gets of it."""

import random

import pytest

from games.engine import (
    EVENT_TYPES,
    DealStarted,
    Join,
    Leave,
    MatchRestarted,
    NextDeal,
    Resign,
    Restart,
    RuleError,
    StartMatch,
    abandons_deal,
    decode_event,
    encode_event,
    ends_match,
    event_from_dict,
    event_view,
    legal_actions,
    replay,
    starts_series,
    starts_turn,
)
from games.engine.declare import KINDS
from tests.engine.support import Table

FACTS = (starts_turn, starts_series, abandons_deal, ends_match)
# A restart of a match dealt as before verifiable dealing: no seed to reveal or commit to.
NO_SEEDS = {"server_seed": None, "commitment": None, "next_commitment": None, "client_seed": ""}


@pytest.mark.parametrize("name", EVENT_TYPES)
def test_every_type_declares_its_meaning_and_public_fields(name):
    event_type = EVENT_TYPES[name]
    assert event_type.type == name and event_type.DOC.strip()
    assert event_type.PUBLIC == tuple(spec.name for spec in event_type.FIELDS)
    for spec in event_type.FIELDS:
        assert spec.kind in KINDS, f"{name}.{spec.name} has an unknown kind {spec.kind!r}"
        assert spec.doc.strip(), f"{name}.{spec.name} says nothing of what it means"


def _random_log(seed: int) -> list:
    """A played log that meets every event type: a table that fills, plays, restarts with
    a new AI level, is resigned, and one that is abandoned."""
    rng = random.Random(seed)
    table = Table()
    table.do(StartMatch(seed, humans=2))
    table.do(Join("Roya"))
    for _ in range(rng.randint(1, 3)):
        while table.state.status.value == "in_deal":
            seat = table.deal.turn
            table.act(seat, rng.choice(legal_actions(table.state, seat)))
        if table.state.status.value == "deal_over":
            table.do(NextDeal())
    table.do(Resign(1))  # at a table, resigning is leaving
    while table.state.status.value == "in_deal":
        seat = table.deal.turn
        table.act(seat, rng.choice(legal_actions(table.state, seat)))
    alone = Table()
    alone.do(StartMatch(seed + 1))
    alone.do(Restart(0, ai_level="easy"))
    alone.do(Resign(0))
    left = Table()
    left.do(StartMatch(seed + 2, humans=2))
    left.do(Join("Babak"))
    left.do(Leave(0))
    left.do(Leave(1))
    return table.events + alone.events + left.events


@pytest.mark.parametrize("seed", range(20))
def test_facts_agree_on_an_event_and_on_every_view_of_it(seed):
    for event in _random_log(seed):
        for viewer in (0, 1, 2, 3, None):
            view = event_view(event, viewer)
            for fact in FACTS:
                assert fact(view) == fact(event), (fact.__name__, event)


def test_the_facts_say_what_the_rules_mean():
    table = Table.started(5)
    dealt = table.events[-1]
    assert isinstance(dealt, DealStarted) and starts_turn(dealt) and starts_series(dealt)
    seat = table.deal.turn
    (looked,) = table.act(seat, "look")
    assert not starts_turn(looked)  # a look keeps the turn and its deadline
    (called, *_) = table.act(seat, "call")
    assert starts_turn(called) and not ends_match(called)
    restarted, redealt = table.do(Restart(0))
    assert abandons_deal(restarted) and not starts_turn(restarted)
    assert starts_turn(redealt) and starts_series(redealt)
    resigned, finished = table.do(Resign(0))
    assert abandons_deal(resigned) and not ends_match(resigned) and ends_match(finished)


def test_a_restart_records_a_change_of_ai_level_and_old_logs_replay_without_it():
    table = Table.started(11)
    restarted, _ = table.do(Restart(0, ai_level="expert"))
    assert restarted == MatchRestarted(2, "expert")
    line = encode_event(restarted)
    assert line == "N2,expert" and decode_event(line) == restarted
    shown = event_view(restarted, 0)
    assert shown == {"type": "match_restarted", "series": 2, "ai_level": "expert", **NO_SEEDS}
    assert event_from_dict(restarted.to_dict()) == restarted
    # A restart that keeps the level, and every one stored before levels were recorded, is
    # stored and replayed exactly as before: `R<series>`, and null in the view.
    kept, _ = table.do(Restart(0))
    assert encode_event(kept) == "R3" and decode_event("R3") == MatchRestarted(3)
    shown = event_view(kept, 0)
    assert shown == {"type": "match_restarted", "series": 3, "ai_level": None, **NO_SEEDS}
    assert "ai_level" not in kept.to_dict()
    assert replay(table.events).to_dict() == table.state.to_dict()


def test_a_refused_restart_records_nothing():
    table = Table()
    table.do(StartMatch(3, humans=2))
    with pytest.raises(RuleError):
        table.do(Restart(0, ai_level="easy"))
    assert not any(isinstance(event, MatchRestarted) for event in table.events)
