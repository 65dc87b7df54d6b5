"""The one function that decides what each viewer sees (views.visible_events, horizon,
observe): a seat, a live spectator, a delayed spectator and the operator, over random matches
played through the engine. No hand appears before its viewer may see it."""

import random

import pytest

from games.engine import (
    ADMIN,
    RANKS,
    Act,
    DealEnded,
    DealStarted,
    Join,
    Leave,
    NextDeal,
    PlayerLeft,
    Resign,
    Restart,
    Seeds,
    StartMatch,
    Status,
    Viewer,
    decide,
    event_view,
    evolve,
    eyes_now,
    horizon,
    legal_actions,
    observe,
    replay,
    visible_events,
)
from games.engine.state import MatchState
from tests.engine.support import Table

SEEDS = range(40)


def random_match(seed: int, deals: int = 14) -> list:
    """The events of a match played with random legal actions, cut off at a random point (so
    that it often ends inside a deal), with a restart after a finished series."""
    rng = random.Random(seed)
    state, events = MatchState(), []
    commands = [StartMatch(seed)]
    played = 0
    while played < deals:
        command = commands.pop() if commands else None
        if command is None:
            if state.status is Status.IN_DEAL:
                seat = state.deal.turn
                command = Act(seat, rng.choice(legal_actions(state, seat)))
            elif state.status is Status.DEAL_OVER:
                command, played = NextDeal(), played + 1
            else:
                command, played = Restart(0), played + 1
        for event in decide(state, command):
            evolve(state, event)
            events.append(event)
    return events[: rng.randint(1, len(events))]


def in_play_from(events) -> int | None:
    """The seq of the deal_started of the deal still played at the end of `events`."""
    state, started = MatchState(), None
    for seq, event in enumerate(events, start=1):
        evolve(state, event)
        if isinstance(event, DealStarted):
            started = seq
    return started if state.status is Status.IN_DEAL else None


def hands_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from hands_in(item)
    elif isinstance(value, list | tuple):
        if value and all(isinstance(item, str) and item in RANKS for item in value):
            yield tuple(value)
        else:
            for item in value:
                yield from hands_in(item)


VIEWERS = [
    *(Viewer.at_seat(seat) for seat in range(4)),
    *map(Viewer.spectator, ("live", "delayed")),
]


@pytest.mark.parametrize("seed", SEEDS)
def test_each_viewer_sees_only_what_it_may(seed):
    events = random_match(seed)
    numbered = list(enumerate(events, start=1))
    start = in_play_from(events)
    for viewer in VIEWERS:
        seen = visible_events(numbered, viewer, in_play_from=start)
        last = horizon(viewer, len(events), start)
        assert [event["seq"] for event in seen] == list(range(1, last + 1))
        for event in seen:
            assert "deck" not in event and "seed" not in event
            if event["type"] != DealEnded.type:
                assert not list(hands_in(event))
                continue
            stored = events[event["seq"] - 1]
            for shown, truth in zip(event["seats"], stored.seats, strict=True):
                may = truth.shown or truth.seat == viewer.seat
                assert shown["hand"] == (list(truth.hand) if may else None)
        # The view at the horizon: a spectator sees no hand that is not shown.
        view = observe(replay(events[:last]), viewer.seat)
        if viewer.is_spectator:
            assert view.your_cards is None
            if view.last_result:
                for seat in view.last_result["seats"]:
                    assert seat["hand"] is None or seat["category"] is not None


def test_a_delayed_spectator_sees_a_deal_once_it_ended():
    seed = next(s for s in range(100) if in_play_from(random_match(s)) is not None)
    events = random_match(seed)
    start = in_play_from(events)
    delayed = Viewer.spectator("delayed")
    seen = visible_events(list(enumerate(events, start=1)), delayed, in_play_from=start)
    assert seen[-1]["seq"] == start - 1
    # The deal ends: everything is released, its start and its moves included.
    state = replay(events)
    while state.status is Status.IN_DEAL:
        seat = state.deal.turn
        for event in decide(
            state, Act(seat, "fold" if "fold" in legal_actions(state, seat) else "call")
        ):
            evolve(state, event)
            events.append(event)
    released = visible_events(list(enumerate(events, start=1)), delayed, in_play_from=None)
    assert [event["seq"] for event in released] == list(range(1, len(events) + 1))
    assert released[start - 1]["type"] == DealStarted.type


def test_a_live_spectator_sees_moves_as_they_happen():
    events = random_match(3)
    start = in_play_from(events)
    live = visible_events(
        list(enumerate(events, start=1)), Viewer.spectator("live"), in_play_from=start
    )
    assert len(live) == len(events)


def test_the_operator_sees_every_field():
    events = random_match(5)
    seen = visible_events(list(enumerate(events, start=1)), ADMIN, in_play_from=1)
    # Every stored field, with the public ones derived for it (the scheme, no commitment).
    assert {**seen[0], "seq": 1} == {"seq": 1, **event_view(events[0], None), **events[0].to_dict()}
    assert any("deck" in event for event in seen)


def test_the_operator_sees_no_server_seed_before_its_reveal():
    seeds = Seeds("11" * 32, "22" * 32, "mine")
    table = Table()
    table.do(StartMatch(3, seeds=seeds))
    table.do(Restart(0, next_server_seed="33" * 32))
    table.do(Resign(0))
    seen = repr(visible_events(list(enumerate(table.events, start=1)), ADMIN))
    # Series 1's seed is revealed by the restart, series 2's by the resignation; the seed
    # committed to for series 3 never shows.
    assert "11" * 32 in seen and "22" * 32 in seen and "33" * 32 not in seen


def test_a_leaver_sees_every_event_after_their_player_left_as_a_live_spectator():
    rng = random.Random(3)  # deal 1 hides seat 1's hand from the others
    table = Table()
    table.do(StartMatch(3, humans=2))
    table.do(Join("Babak"))
    while table.state.status is not Status.FINISHED:
        if table.state.status is Status.DEAL_OVER:
            table.do(NextDeal())
        elif table.state.deal_number == 2 and not table.state.left[1]:
            table.do(Leave(1))  # in deal 2: the AI plays seat 1 from here on
        else:
            seat = table.deal.turn
            table.do(Act(seat, rng.choice(legal_actions(table.state, seat))))
    numbered = list(enumerate(table.events, start=1))
    left_at = next(seq for seq, event in numbered if isinstance(event, PlayerLeft))
    live = visible_events(numbered, Viewer.spectator("live"))
    as_seat = [{"seq": seq, **event_view(event, 1)} for seq, event in numbered]
    leaver = visible_events(numbered, Viewer.at_seat(1))
    # Up to their player_left as their seat saw it (deal 1's result with their hand), and
    # after it as a live spectator (the hands the AI held at their seat stay hidden).
    assert leaver[:left_at] == as_seat[:left_at] != live[:left_at]
    assert leaver[left_at:] == live[left_at:] != as_seat[left_at:]
    # A page after it, from a reader who knows where they left, is the same.
    later = visible_events(numbered[left_at:], Viewer.at_seat(1, left_at))
    assert later == live[left_at:]
    assert (eyes_now(table.state, 0), eyes_now(table.state, 1)) == (0, None)
