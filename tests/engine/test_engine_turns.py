"""The turn loop (games/engine/turns.py): a command, then the seats no present human plays, up
to a present human's turn; the clock's move; and the AI's choice, injected, seeing only the
seat's view."""

import dataclasses

from games.engine import (
    HUMAN_SEAT,
    Act,
    ActionTaken,
    AiTurn,
    Join,
    Leave,
    MatchState,
    StartMatch,
    Status,
    Step,
    clock_move,
    decision_rng,
    event_view,
    legal_actions,
    observe,
    replay,
)
from tests.engine.support import check_observe


class Recorder:
    """A chooser that takes the first of `prefer` that is legal, else the first legal
    action, and keeps every turn it was handed with the step's events and state as they
    were then (replayed: the loop goes on changing the step's own)."""

    def __init__(self, step: Step, prefer: tuple[str, ...] = ()):
        self.step, self.prefer = step, prefer
        self.turns: list[tuple[AiTurn, list, MatchState]] = []

    def __call__(self, turn: AiTurn) -> str:
        events = self.step.earlier + self.step.events
        self.turns.append((turn, events, replay(events)))
        return next((a for a in self.prefer if a in turn.legal), turn.legal[0])


def _actions(events) -> list[tuple[int, str, str]]:
    return [(e.seat, e.action, e.by) for e in events if isinstance(e, ActionTaken)]


def _first_turn(seed: int) -> int:
    state = MatchState()
    Step(state).apply(StartMatch(seed))
    return state.deal.turn


def _table_of_two(seed: int) -> Step:
    """A table of two humans, both seated and deal 1 dealt; no AI seat has acted."""
    step = Step(MatchState())
    step.apply(StartMatch(seed, humans=2))
    step.apply(Join("Roya"))
    return Step(step.state, earlier=step.events)


def _a_present_humans_turn_or_the_deal_over(state: MatchState) -> bool:
    return state.status is not Status.IN_DEAL or not state.ai_plays(state.deal.turn)


def test_the_ai_seats_act_until_a_humans_turn():
    seed = next(s for s in range(50) if _first_turn(s) == 2)  # seats 2 and 3 act first
    step = Step(MatchState())
    choose = Recorder(step, prefer=("look", "call"))
    step.play(StartMatch(seed), choose)
    expected = [(2, "look", "ai"), (2, "call", "ai"), (3, "look", "ai"), (3, "call", "ai")]
    assert _actions(step.events) == expected
    assert [turn.view.seat for turn, _, _ in choose.turns] == [2, 2, 3, 3]
    assert step.state.status is Status.IN_DEAL and step.state.deal.turn == HUMAN_SEAT
    assert replay(step.events) == step.state


def test_a_human_who_left_is_played_by_the_ai_and_the_present_one_is_not():
    step = Step(MatchState())
    choose = Recorder(step, prefer=("call", "hold"))
    step.play(StartMatch(5, humans=2), choose)
    step.play(Join("Roya"), choose)
    step.play(Leave(1), choose)
    while step.state.status is Status.IN_DEAL:
        assert step.state.deal.turn == 0  # the loop stops only at the present human's turn
        step.play(Act(0, "call" if "call" in legal_actions(step.state, 0) else "hold"), choose)
    acted = _actions(step.events)
    assert any(seat == 1 for seat, _, _ in acted)
    assert {by for seat, _, by in acted if seat == 0} == {"player"}
    assert {by for seat, _, by in acted if seat != 0} == {"ai"}


def _two_humans_at_the_guests_turn() -> Step:
    return next(step for step in map(_table_of_two, range(50)) if step.state.deal.turn == 1)


def test_the_clock_acts_for_the_late_human_until_the_turn_passes_then_the_ai_seats():
    step = _two_humans_at_the_guests_turn()
    clock_move(step, Recorder(step, prefer=("look",)))
    acted = _actions(step.events)
    assert acted[0] == (1, "look", "clock")  # a look keeps the turn: the clock acts again
    assert acted[1][0::2] == (1, "clock") and acted[1][1] != "look"
    assert {(seat, by) for seat, _, by in acted[2:]} == {(2, "ai"), (3, "ai")}
    assert step.state.deal.turn == 0 and step.state.away(1)


def test_the_clock_deals_the_next_deal_between_deals_then_the_ai_seats_act():
    step = _two_humans_at_the_guests_turn()
    while step.state.status is Status.IN_DEAL:
        seat = step.state.deal.turn
        step.apply(Act(seat, "fold" if "fold" in legal_actions(step.state, seat) else "hold"))
    dealt = step.state.deal_number
    after = Step(step.state, earlier=step.earlier + step.events)
    clock_move(after, Recorder(after))
    assert after.events[0].type == "deal_started" and after.state.deal_number == dealt + 1
    assert {by for _, _, by in _actions(after.events)} <= {"ai"}
    assert _a_present_humans_turn_or_the_deal_over(after.state)


def test_the_chooser_sees_only_the_seats_view():
    step = _two_humans_at_the_guests_turn()
    choose = Recorder(step, prefer=("look", "raise", "call"))
    for _ in range(8):  # the clock plays both humans' turns and deals the next deals
        clock_move(step, choose)
    assert step.state.deal_number > 1 and len(choose.turns) > 20
    for turn, events, then in choose.turns:
        seat = turn.view.seat
        assert turn.view == observe(then, seat)
        check_observe(then, seat)  # and that view holds no card hidden from the seat
        assert turn.legal == legal_actions(then, seat)
        step_number = len(turn.view.history)
        assert turn.rng.random() == decision_rng(then, seat, step_number).random()
        assert turn.seen_events() == [event_view(event, seat) for event in events]
        assert not any(
            isinstance(getattr(turn, f.name), MatchState) for f in dataclasses.fields(turn)
        )
