"""Snapshots and events as JSON-ready dicts: exact, detached, and lossless."""

import json
from fractions import Fraction

from games.engine import (
    DealEnded,
    MatchFinished,
    MatchRestarted,
    MatchState,
    NextDeal,
    Restart,
    event_from_dict,
    replay,
)
from tests.engine.support import Table

HIGH = ("As", "Shah", "Bibi", "Sarbaz", "Couli")


def test_a_snapshot_does_not_change_when_the_state_moves_on():
    table = Table.started(1)
    snapshot = table.state.to_dict()
    frozen = json.loads(json.dumps(snapshot))
    dealer = table.deal.dealer
    table.acts(((dealer + 1) % 4, "look"), ((dealer + 1) % 4, "raise"))
    assert snapshot == frozen


def test_editing_a_snapshot_does_not_change_the_state():
    table = Table.started(1)
    before = json.loads(json.dumps(table.state.to_dict()))
    snapshot = table.state.to_dict()
    for key in ("stakes", "folded", "looked", "acted", "history", "deck"):
        snapshot["deal"][key].append("junk")
    snapshot["totals"].append("junk")
    assert table.state.to_dict() == before


def test_fractions_are_stored_exactly_as_strings():
    table = Table.dealt({seat: HIGH for seat in range(4)}, dealer=0)
    table.acts((1, "raise"), (2, "call"), (3, "call"), (0, "fold"))
    data = table.state.to_dict()
    assert data["totals"] == ["-1", "1/3", "1/3", "1/3"]
    payouts = [seat["payout"] for seat in data["last_result"]["seats"]]
    assert payouts == ["0", "7/3", "7/3", "7/3"]
    restored = MatchState.from_dict(json.loads(json.dumps(data)))
    assert restored == table.state
    assert restored.totals == [Fraction(-1), Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
    assert all(type(total) is Fraction for total in restored.totals)


def test_every_event_type_round_trips_through_json():
    table = Table.started(2)
    for _ in range(12):
        dealer = table.deal.dealer
        table.acts(((dealer + 1) % 4, "look"), ((dealer + 1) % 4, "raise"))
        table.acts(((dealer + 2) % 4, "call"), ((dealer + 3) % 4, "fold"), (dealer, "call"))
        if table.state.status == "deal_over":
            table.do(NextDeal())
    table.do(Restart())
    kinds = {type(event) for event in table.events}
    assert {DealEnded, MatchFinished, MatchRestarted} <= kinds
    assert len(kinds) == 6
    for event in table.events:
        data = json.loads(json.dumps(event.to_dict()))
        assert data["type"] == event.type
        assert event_from_dict(data) == event
    rebuilt = replay(event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in table.events)
    assert rebuilt == table.state


def test_every_state_along_a_match_round_trips():
    table = Table.started(3)
    snapshots = [(len(table.events), json.dumps(table.state.to_dict()))]
    while table.state.status != "finished":
        if table.state.status == "deal_over":
            table.do(NextDeal())
        else:
            seat = table.deal.turn
            table.act(seat, "call" if table.deal.stakes[seat] < table.deal.high_stake else "hold")
        text = json.dumps(table.state.to_dict())
        snapshots.append((len(table.events), text))
        assert MatchState.from_dict(json.loads(text)) == table.state
    # Snapshots taken along the way still describe the states of their time.
    for count, text in snapshots:
        assert replay(table.events[:count]).to_dict() == json.loads(text)
