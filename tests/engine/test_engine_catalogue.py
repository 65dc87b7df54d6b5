"""The event catalogue: every type declares what the layers above derive from it, and its
facts answer alike for an event and for the public view a client gets of it."""

import typing
from dataclasses import fields

import pytest

from games.engine import (
    EVENT_TYPES,
    DealStarted,
    Event,
    MatchRestarted,
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
    replay,
    starts_series,
    starts_turn,
)
from games.engine.declare import KINDS, SERVER_KINDS
from games.engine.events import EventType, event_type
from games.engine.evolvers import EVOLVERS
from tests.engine.support import Table, every_type_log

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


@pytest.mark.parametrize("name", EVENT_TYPES)
def test_every_field_of_every_type_says_its_kind_its_meaning_and_who_sees_it(name):
    for each in fields(EVENT_TYPES[name]):
        declared = each.metadata
        assert isinstance(declared.get("public"), bool), f"{name}.{each.name} is not declared"
        kinds = KINDS if declared["public"] else KINDS + SERVER_KINDS
        assert declared["kind"] in kinds, f"{name}.{each.name}: unknown kind {declared['kind']!r}"
        assert declared["doc"].strip(), f"{name}.{each.name} says nothing of what it means"


def test_a_field_declared_neither_public_nor_private_is_refused():
    class Secretive(EventType):
        type = "secretive"
        DOC = "A type that forgot to say who may see its field."
        hand: str = "the deck"

    with pytest.raises(TypeError, match="Secretive.hand is declared neither public nor private"):
        event_type(Secretive)
    assert "secretive" not in EVENT_TYPES


def test_the_catalogue_holds_every_event_type():
    assert set(EVENT_TYPES.values()) == set(typing.get_args(Event))


def test_every_type_has_an_evolver():
    assert sorted(cls.type for cls in EVOLVERS) == sorted(EVENT_TYPES)


def test_every_type_is_met_and_has_a_codec_letter():
    log = every_type_log(0)
    assert {event.type for event in log} == set(EVENT_TYPES)  # a new type needs its example
    for event in log:
        decoded = decode_event(encode_event(event))
        assert decoded == event and decoded.to_dict() == event.to_dict()


def test_every_type_reads_back_from_its_dict_as_it_was():
    for event in every_type_log(1):
        assert event_from_dict(event.to_dict()) == event
    assert replay(every_type_log(2)).version == len(every_type_log(2))


@pytest.mark.parametrize("seed", range(20))
def test_facts_agree_on_an_event_and_on_every_view_of_it(seed):
    for event in every_type_log(seed):
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
