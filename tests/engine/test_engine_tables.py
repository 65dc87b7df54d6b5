"""Tables: one to four humans at a match. A table waits for its humans, starts when the last
one joins, frees a guest's seat left before deal 1 and closes when its owner leaves then,
hands a leaver's seat to the AI after, and is abandoned when no human is left."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Act,
    ActionTaken,
    Join,
    Leave,
    MatchState,
    NextDeal,
    PlayerJoined,
    PlayerLeft,
    Resign,
    Restart,
    RuleError,
    SeatFreed,
    StartMatch,
    Status,
    event_from_dict,
    event_view,
    evolve,
    legal_actions,
    observe,
    replay,
)
from tests.engine.support import Table


def table_of(humans: int, seed: int = 5) -> Table:
    table = Table()
    table.do(StartMatch(seed, humans=humans))
    return table


def full_table(humans: int, seed: int = 5) -> Table:
    table = table_of(humans, seed)
    for number in range(1, humans):
        table.do(Join(f"guest{number}"))
    return table


def play_out(table: Table, rng: random.Random) -> None:
    """Random legal play until the match is finished or abandoned."""
    while table.state.status in (Status.IN_DEAL, Status.DEAL_OVER):
        if table.state.status is Status.DEAL_OVER:
            table.do(NextDeal())
        else:
            seat = table.deal.turn
            by = "ai" if table.state.ai_plays(seat) else "player"
            table.do(Act(seat, rng.choice(legal_actions(table.state, seat)), by))


def test_a_single_player_match_is_created_as_before():
    events = Table().do(StartMatch(9))
    assert [event.type for event in events] == ["match_created", "deal_started"]
    assert events[0].to_dict() == {"type": "match_created", "seed": 9, "rules": 1}


def test_a_table_waits_until_the_last_human_joins():
    table = table_of(3)
    assert table.state.status is Status.WAITING
    view = observe(table.state, 0)
    assert (view.deal_number, view.dealer, view.turn) == (0, None, None)
    assert table.refuse(Act(0, "look")) == "match_not_started"
    assert table.refuse(NextDeal()) == "match_not_started"
    assert table.do(Join("Roya")) == [PlayerJoined(1, "Roya")]
    assert table.state.status is Status.WAITING
    joined, dealt = table.do(Join("Babak"))
    assert joined == PlayerJoined(2, "Babak") and dealt.type == "deal_started"
    assert table.state.status is Status.IN_DEAL
    assert table.refuse(Join("Late")) == "match_full"
    assert [table.state.ai_plays(seat) for seat in range(4)] == [False, False, False, True]


@pytest.mark.parametrize("humans", [0, 5, True, "2"])
def test_a_table_has_one_to_four_humans(humans):
    assert Table().refuse(StartMatch(1, humans=humans)) == "invalid_humans"


def test_actions_record_who_took_them():
    table = full_table(2)
    seat = table.deal.turn
    (event, *_) = table.do(Act(seat, "look", "clock"))
    assert event.by == "clock" and event_view(event, 3)["by"] == "clock"
    assert table.state.away(seat) == (seat < 2)
    (event, *_) = table.do(Act(seat, "fold", "player"))
    assert event_view(event, 0)["by"] == "player" and not table.state.away(seat)
    assert table.refuse(Act(table.deal.turn, "fold", "ghost")) == "invalid_actor"


@pytest.mark.parametrize(("seat", "expected"), [(0, "player"), (1, "ai"), (3, "ai")])
def test_an_action_stored_before_tables_reads_as_player_at_the_human_seat(seat, expected):
    stored = {"type": "action", "seat": seat, "action": "fold", "stake": 0, "high_stake": 1}
    event = event_from_dict({**stored, "pot": 1, "turn": None})
    assert event.by is None and event.actor == expected
    assert event_view(event, 0)["by"] == expected
    assert "by" not in event.to_dict()  # it reads back as it was stored


def test_leaving_hands_the_seat_to_the_ai_and_the_last_leaver_abandons():
    table = full_table(2)
    assert table.do(Leave(1)) == [PlayerLeft(1, abandoned=False)]
    assert table.state.ai_plays(1) and table.state.away(1)
    assert table.refuse(Leave(1)) == "not_seated"
    assert table.refuse(Leave(3)) == "not_seated"
    assert table.do(Leave(0)) == [PlayerLeft(0, abandoned=True)]
    assert table.state.status is Status.ABANDONED and table.deal.turn is None
    for command in (Act(0, "fold"), NextDeal(), Resign(0)):
        assert table.refuse(command) in ("match_abandoned", "not_seated")
    assert table.refuse(Restart(0)) == "restart_not_allowed"
    assert table.refuse(Join("Late")) == "match_abandoned"


def test_a_guest_leaving_before_deal_1_frees_the_seat_and_may_take_it_again():
    table = table_of(3)
    table.do(Join("Roya"))
    assert table.do(Leave(1)) == [SeatFreed(1)]
    state = table.state
    assert state.status is Status.WAITING and not state.seated(1) and not state.left[1]
    assert not state.away(1)
    assert table.refuse(Leave(1)) == "not_seated"
    assert table.do(Join("Roya")) == [PlayerJoined(1, "Roya")]  # the same seat, not used up
    assert table.state.status is Status.WAITING
    joined, dealt = table.do(Join("Babak"))
    assert joined == PlayerJoined(2, "Babak") and dealt.type == "deal_started"
    assert [table.state.ai_plays(seat) for seat in range(4)] == [False, False, False, True]


def test_a_freed_seat_is_taken_before_the_seats_never_handed_out():
    table = table_of(4)
    table.do(Join("Roya"))
    table.do(Join("Babak"))
    table.do(Leave(1))
    assert table.state.open_seat() == 1
    assert table.do(Join("Nima")) == [PlayerJoined(1, "Nima")]  # not seat 3: no deal yet
    assert table.state.status is Status.WAITING
    joined, dealt = table.do(Join("Sara"))
    assert joined == PlayerJoined(3, "Sara") and dealt.type == "deal_started"
    assert not any(table.state.ai_plays(seat) for seat in range(4))


def test_the_owner_leaving_a_waiting_table_closes_it():
    table = table_of(3)
    table.do(Join("Roya"))
    assert table.do(Leave(0)) == [PlayerLeft(0, abandoned=True)]
    assert table.state.status is Status.ABANDONED and table.state.deal is None
    assert table.refuse(Join("Babak")) == "match_abandoned"
    assert table.refuse(Join("Roya")) == "match_abandoned"
    assert table.refuse(Leave(1)) == "match_abandoned"  # nothing is left to leave
    assert table.refuse(Restart(0)) == "restart_not_allowed"
    assert table.refuse(NextDeal()) == "match_abandoned"


@pytest.mark.parametrize("humans", [1, 2])
def test_leaving_a_finished_match_is_refused(humans):
    table = full_table(humans, seed=12)
    play_out(table, random.Random(12))
    assert table.state.status is Status.FINISHED
    for seat in range(humans):
        assert table.refuse(Leave(seat)) == "match_finished"
        assert table.refuse(Resign(seat)) == "match_finished"
    assert not any(table.state.left)


def test_a_freed_seat_is_in_the_snapshot_and_only_then():
    table = table_of(3)
    table.do(Join("Roya"))
    assert table.state.to_dict()["format"] == 3  # stored exactly as before
    table.do(Leave(1))
    snapshot = json.loads(json.dumps(table.state.to_dict()))
    assert snapshot["format"] == 4 and snapshot["table"]["vacated"] == [False, True, False, False]
    assert MatchState.from_dict(snapshot) == table.state
    table.do(Join("Babak"))
    assert "vacated" not in table.state.to_dict()["table"]
    assert table.state.to_dict()["format"] == 3


GOLDEN_TABLES = json.loads((Path(__file__).parent / "golden_tables.json").read_text())


@pytest.mark.parametrize("match", GOLDEN_TABLES, ids=lambda match: match["name"])
def test_tables_stored_under_the_old_leaving_rules_replay_exactly(match):
    """Logs the engine wrote before seat_freed (recorded with it, at de66160): a guest's
    or the owner's player_left at a waiting table, and a player_left after match_finished.
    They replay to the states they did, each event's digest and the final snapshot."""
    state = MatchState()
    for payload, expected in zip(match["events"], match["after"], strict=True):
        event = event_from_dict(payload)
        assert event.to_dict() == payload
        evolve(state, event)
        deal = state.deal
        assert [
            state.version,
            state.status.value,
            state.series,
            [str(total) for total in state.totals],
            None
            if deal is None
            else [deal.deal_number, deal.turn, deal.pot, deal.high_stake, list(deal.stakes)],
            [state.joined, list(state.left)],
        ] == expected, payload
    assert state.to_dict() == match["final"]
    assert MatchState.from_dict(match["final"]) == state


def test_at_a_shared_table_resigning_is_leaving():
    table = full_table(2)
    assert table.do(Resign(1)) == [PlayerLeft(1, abandoned=False)]
    assert table.state.status is Status.IN_DEAL


def test_at_a_shared_table_only_the_owner_restarts_after_the_end():
    table = full_table(2, seed=11)
    assert table.refuse(Restart(0)) == "restart_not_allowed"
    play_out(table, random.Random(3))
    assert table.state.status is Status.FINISHED
    assert table.refuse(Restart(1)) == "restart_not_allowed"
    restarted, dealt = table.do(Restart(0))
    assert restarted.series == 2 and table.state.status is Status.IN_DEAL
    play_out(table, random.Random(4))
    assert table.refuse(Leave(0)) == "match_finished"  # after the end: nothing to leave
    assert table.refuse(Restart(1)) == "restart_not_allowed"
    assert table.do(Restart(0))[0].series == 3


def test_a_single_player_may_still_restart_at_any_time():
    table = Table.started(4)
    assert [event.type for event in table.do(Restart())] == ["match_restarted", "deal_started"]


@pytest.mark.parametrize("seed", range(6))
def test_a_table_replays_and_its_snapshot_round_trips(seed):
    rng = random.Random(seed)
    table = full_table(rng.randint(2, 4), seed)
    if seed % 2:
        table.do(Leave(1))
    play_out(table, rng)
    stored = [event_from_dict(event.to_dict()) for event in table.events]
    assert replay(stored).to_dict() == table.state.to_dict()
    snapshot = table.state.to_dict()
    assert snapshot["format"] == 3
    assert MatchState.from_dict(snapshot) == table.state


def test_every_new_event_shows_only_its_public_fields():
    for event in (PlayerJoined(1, "Roya"), PlayerLeft(2, True), ActionTaken(1, "fold", 0, 1, 1)):
        shown = event_view(event, 0)
        assert set(shown) == {"type", *event.PUBLIC}
        assert "turn" not in shown


def _random_command(state: MatchState, rnd: random.Random):
    """Mostly a legal move, sometimes a join, a leave, a restart or one likely refused."""
    roll = rnd.random()
    if roll < 0.1:
        return Join(f"guest{rnd.randrange(100)}")
    if roll < 0.15:
        return Leave(rnd.randrange(-1, 5))
    if roll < 0.18:
        return Restart(rnd.randrange(4))
    if roll < 0.2:
        return Resign(rnd.randrange(4))
    if state.status is Status.DEAL_OVER:
        return NextDeal()
    if state.status is Status.IN_DEAL:
        seat = state.deal.turn
        by = rnd.choice(("player", "ai", "clock"))
        return Act(seat, rnd.choice(legal_actions(state, seat)), by)
    return NextDeal()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    humans=st.integers(min_value=1, max_value=4),
    rnd=st.randoms(use_true_random=False),
)
def test_random_tables_replay_and_keep_their_promises(seed, humans, rnd):
    table = Table()
    table.do(StartMatch(seed, humans=humans))
    for _ in range(300):
        state = table.state
        command = _random_command(state, rnd)
        before = state.to_dict()
        try:
            events = table.do(command)
        except RuleError:
            assert table.state.to_dict() == before  # a refusal changes nothing
            continue
        for event in events:
            for viewer in (0, 1, 2, 3, None):
                shown = event_view(event, viewer)
                if event.type != "deal_ended":
                    assert set(shown) == {"type", *event.PUBLIC}
        state = table.state
        seated = [seat for seat in range(state.humans) if state.seated(seat)]
        present = [seat for seat in seated if not state.left[seat]]
        if state.status is Status.ABANDONED:
            assert state.winners is None
            # Every human left, or the owner closed the table before deal 1.
            assert not present or (state.left[0] and state.deal is None)
        if state.status is Status.WAITING:
            assert state.deal is None and len(seated) < state.humans and not any(state.left)
        elif state.deal is not None:  # a seat is freed only before deal 1
            assert not any(state.vacated)
        assert all(state.ai_plays(seat) for seat in range(state.humans, 4))
        if state.status in (Status.FINISHED, Status.ABANDONED):
            break
    stored = [event_from_dict(json.loads(json.dumps(event.to_dict()))) for event in table.events]
    assert replay(stored).to_dict() == table.state.to_dict()
    assert MatchState.from_dict(json.loads(json.dumps(table.state.to_dict()))) == table.state
