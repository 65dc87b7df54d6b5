"""Cards, your play, the others' play (games/ai/skill.py, docs/skill.md). No database.

Deals are played through the real engine with fixed seeds; the figures are exact Fractions.
The statistics print their figures (run with -s to read them); docs/skill.md quotes them.
"""

import math
import random
from fractions import Fraction

import pytest

from games.ai import ai_rng, choose_action
from games.ai.skill import deal_skill, stored_figures, sums, visible
from games.engine import (
    SEATS,
    Act,
    DealEnded,
    MatchState,
    NextDeal,
    Restart,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
)


def random_play(state, seat, rng):
    """Any legal action, looks and folds while matched included."""
    return rng.choice(legal_actions(state, seat))


def always_call(state, seat, rng):
    """Never looks, never folds, never raises: calls a raise, holds when matched."""
    legal = legal_actions(state, seat)
    return "call" if "call" in legal else "hold"


def level(name):
    def play(state, seat, rng):
        view = observe(state, seat)
        deal = state.deal
        step_rng = ai_rng(state.seed, state.series, deal.deal_number, seat, len(view.history))
        return choose_action(name, view, legal_actions(state, seat), step_rng)

    return play


HARD, NORMAL = level("hard"), level("normal")


def play_deals(policies, deals, seed):
    """Play `deals` deals with `policies[seat]`, restarting each finished match; yield each
    ended deal as (dealer, hands, history, result)."""
    rng = random.Random(seed)
    state = MatchState()
    for event in decide(state, StartMatch(seed)):
        evolve(state, event)
    played = 0
    while played < deals:
        if state.status is Status.IN_DEAL:
            seat = state.deal.turn
            events = decide(state, Act(seat, policies[seat](state, seat, rng)))
        elif state.status is Status.DEAL_OVER:
            events = decide(state, NextDeal())
        else:
            events = decide(state, Restart())
        for event in events:
            evolve(state, event)
            if isinstance(event, DealEnded):
                deal = state.deal
                played += 1
                yield deal.dealer, deal.hands, tuple(deal.history), event


def figures(policies, deals, seed):
    for dealer, hands, history, result in play_deals(policies, deals, seed):
        yield deal_skill(dealer, hands, history), result


def interval(values):
    """Mean and the half-width of its 95 % interval."""
    n = len(values)
    mean = sum(values) / n
    variance = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def sd(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((x - mean) ** 2 for x in values) / (len(values) - 1))


IDENTITY_DEALS = 480
"""Random legal play and every level mixed: 40 matches of 12 deals."""

LINEUPS = [
    (random_play, HARD, NORMAL, level("easy")),
    (random_play, random_play, random_play, random_play),
    (always_call, random_play, HARD, HARD),
]


def identity_holds(deals: int) -> int:
    checked = 0
    for k, lineup in enumerate(LINEUPS):
        for skills, result in figures(lineup, deals // len(LINEUPS), seed=100 + k):
            for skill, seat in zip(skills, result.seats, strict=True):
                assert isinstance(skill.cards, Fraction) and isinstance(skill.play, Fraction)
                assert skill.cards + skill.play + skill.table == seat.delta
            # The deal is zero-sum, and so is what the cards were worth.
            assert sum(skill.cards for skill in skills) == 0
            checked += 1
    return checked


def test_the_result_is_cards_plus_play_plus_table_exactly_on_every_deal():
    assert identity_holds(IDENTITY_DEALS) == IDENTITY_DEALS


@pytest.mark.simulation
def test_the_identity_holds_on_many_more_deals():
    assert identity_holds(12_000) == 12_000


def test_a_look_changes_nothing_and_a_seat_that_plays_hard_with_no_choice_adds_nothing():
    """All four seats pass (call, hold) as far as the rules allow: every Delta is what V
    says; a look's is 0, so the figures are those of the same deal without looks."""
    deal = list(play_deals((always_call,) * SEATS, 1, seed=3))[0]
    dealer, hands, history, _ = deal
    looks = []
    for seat, action in history:
        looks += [(seat, "look"), (seat, action)]
    assert deal_skill(dealer, hands, looks) == deal_skill(dealer, hands, history)


def test_a_fold_while_matched_ends_the_deal_and_is_valued_at_its_result():
    """The one move outside the hard table's tree: the dealer folds when nobody raised."""
    state = MatchState()
    for event in decide(state, StartMatch(5)):
        evolve(state, event)
    dealer = state.deal.dealer
    for step in range(1, SEATS):
        for event in decide(state, Act((dealer + step) % SEATS, "call")):
            evolve(state, event)
    events = decide(state, Act(dealer, "fold"))
    for event in events:
        evolve(state, event)
    result = events[-1] if isinstance(events[-1], DealEnded) else events[-2]
    skills = deal_skill(dealer, state.deal.hands, tuple(state.deal.history))
    for skill, seat in zip(skills, result.seats, strict=True):
        assert skill.result == seat.delta
    # The fold settles the deal at once: the dealer loses its opening stake.
    assert result.seats[dealer].delta == -1 and state.status is not Status.IN_DEAL


def test_stored_figures_follow_the_events_and_the_viewer_rule():
    state = MatchState()
    events = []
    for command in [StartMatch(9)]:
        for event in decide(state, command):
            evolve(state, event)
            events.append(event)
    while state.status is Status.IN_DEAL:
        seat = state.deal.turn
        for event in decide(state, Act(seat, HARD(state, seat, None))):
            evolve(state, event)
            events.append(event)
    stored = stored_figures(events, series=1)
    assert list(stored) == [1]
    result = state.deal.result
    assert stored[1]["shown"] == [seat.shown for seat in result.seats]
    deltas = [sum(Fraction(x) for x in sums([stored[1]])[seat].values()) for seat in range(SEATS)]
    assert deltas == [seat.delta for seat in result.seats]
    # Every hand but the viewer's own was shown, or the seed is out: visible; else not.
    assert visible([True, True, True, True], None, revealed=False)
    assert visible([False, True, True, True], 0, revealed=False)
    assert not visible([False, True, True, True], 1, revealed=False)
    assert not visible([False, True, True, True], None, revealed=False)
    assert visible([False, False, True, False], None, revealed=True)


def play_figures(policies, deals, seed, seat):
    plays, results = [], []
    for skills, result in figures(policies, deals, seed):
        plays.append(float(skills[seat].play))
        results.append(float(result.seats[seat].delta))
    return plays, results


HARD_DEALS = 300


def hard_play_interval(deals):
    """Four hard seats: per deal, the mean of the four seats' play."""
    per_deal = []
    for skills, _ in figures((HARD,) * SEATS, deals, seed=13):
        per_deal.append(sum(float(skill.play) for skill in skills) / SEATS)
    return interval(per_deal)


def test_four_hard_seats_play_zero_on_average():
    mean, half = hard_play_interval(HARD_DEALS)
    print(f"four hard seats, {HARD_DEALS} deals: play {mean:+.4f} ± {half:.4f}")
    assert abs(mean) <= half


def test_an_always_call_seat_plays_clearly_worse_than_hard():
    plays, _ = play_figures((always_call, HARD, HARD, HARD), 240, seed=12, seat=0)
    mean, half = interval(plays)
    print(f"always-call seat vs three hard, 240 deals: play {mean:+.4f} ± {half:.4f}")
    assert mean + half < 0


def test_play_varies_much_less_than_the_result_for_a_normal_seat():
    plays, results = play_figures((NORMAL, HARD, HARD, HARD), 240, seed=13, seat=0)
    print(
        f"normal seat vs three hard, 240 deals: sd(play) {sd(plays):.4f}, "
        f"sd(result) {sd(results):.4f}, mean play {interval(plays)}"
    )
    # Over 3,000 deals (-m simulation) the ratio is 0.54: the luck of the cards is gone.
    assert sd(plays) < 0.7 * sd(results)


@pytest.mark.simulation
def test_four_hard_seats_play_zero_on_average_over_many_deals():
    mean, half = hard_play_interval(4000)
    print(f"four hard seats, 4000 deals: play {mean:+.5f} ± {half:.5f}")
    assert abs(mean) <= half


@pytest.mark.simulation
def test_an_always_call_seat_over_many_deals():
    plays, results = play_figures((always_call, HARD, HARD, HARD), 3000, seed=22, seat=0)
    mean, half = interval(plays)
    print(
        f"always-call seat vs three hard, 3000 deals: play {mean:+.4f} ± {half:.4f}; "
        f"result {interval(results)[0]:+.4f}"
    )
    assert mean + half < 0


@pytest.mark.simulation
def test_a_normal_seat_over_many_deals():
    plays, results = play_figures((NORMAL, HARD, HARD, HARD), 3000, seed=21, seat=0)
    mean, half = interval(plays)
    print(
        f"normal seat vs three hard, 3000 deals: play {mean:+.4f} ± {half:.4f}; "
        f"sd(play) {sd(plays):.4f}, sd(result) {sd(results):.4f}"
    )
    assert sd(plays) < 0.7 * sd(results)
