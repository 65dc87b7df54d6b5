"""The benchmark's figure from exact sums (games.ai.benchmark): no database."""

import dataclasses
import math
import random
import statistics
from decimal import Decimal
from fractions import Fraction

import pytest

from games.ai import coach_tables
from games.ai.benchmark import Sums, deal_play, estimate, figure, seat_plays
from games.ai.hands import hand_class
from games.ai.skill import deal_skill
from games.ai.strategy import SCALE, load_strategy
from games.ai.tree import TREE
from games.engine import (
    SEATS,
    Act,
    DealEnded,
    DealStarted,
    MatchState,
    NextDeal,
    Restart,
    StartMatch,
    Status,
    decide,
    evolve,
)
from games.engine.state import hands_from_deck
from tests.ai.support import swap_other_hands
from tests.ai.test_skill import HARD, NORMAL, always_call, interval, play_deals


def test_the_sums_are_exact_and_survive_the_row():
    values = [(Fraction(1, 3), Fraction(-2)), (Fraction(-5, 7), Fraction(3, 2))]
    sums = Sums()
    for play, result in values:
        sums = sums.add(play=play, result=result)
    assert sums == Sums(2, Fraction(-8, 21), Fraction(1, 9) + Fraction(25, 49), Fraction(-1, 2),
                        Fraction(4) + Fraction(9, 4))  # fmt: skip
    assert Sums.from_dict(sums.to_dict()) == sums
    assert sums.to_dict()["play"] == "-8/21"


def test_the_interval_is_the_sample_one_rounded_outwards():
    rng = random.Random(3)
    values = [Fraction(rng.randrange(-300, 300), 7) for _ in range(500)]
    found = estimate(len(values), sum(values), sum(v * v for v in values))
    assert found.mean == sum(values) / len(values)
    exact = 1.96 * statistics.stdev(float(v) for v in values) / math.sqrt(len(values))
    assert 0 <= float(found.half_width) - exact < 0.0001
    assert found.half_width == found.half_width.quantize(Decimal("0.0001"))
    assert found.width == 2 * found.half_width


def test_no_deal_no_figure_and_one_deal_no_interval():
    assert figure(Sums()) == (None, None)
    play, result = figure(Sums().add(play=Fraction(1, 2), result=Fraction(-3)))
    assert (play.mean, play.half_width, result.mean) == (Fraction(1, 2), None, Fraction(-3))


def test_equal_values_have_an_interval_of_width_zero():
    sums = Sums()
    for _ in range(10):
        sums = sums.add(play=Fraction(2, 3), result=Fraction(2, 3))
    play, _ = figure(sums)
    assert play.half_width == 0


# A deal's play from the seat's view (games.ai.benchmark.deal_play, docs/bots.md), over deals
# played through the engine with fixed seeds; the coach's tables mapped, as a benchmark's
# read maps them.


def played_events(policies, matches: int, seed: int) -> list:
    """The events of `matches` whole matches played by `policies[seat]` (test_skill's)."""
    rng = random.Random(seed)
    state, log = MatchState(), []

    def apply(events):
        for event in events:
            evolve(state, event)
            log.append(event)

    apply(decide(state, StartMatch(seed)))
    for number in range(matches):
        if number:
            apply(decide(state, Restart()))
        while state.status is not Status.FINISHED:
            if state.status is Status.IN_DEAL:
                seat = state.deal.turn
                apply(decide(state, Act(seat, policies[seat](state, seat, rng))))
            else:
                apply(decide(state, NextDeal()))
    return log


def with_hidden_cards_shuffled(events, seat: int, own_too: bool, rng) -> list:
    """The same events with, in each deal, the other seats' cards shuffled among them (and the
    seat's own with them if `own_too`), every hand of its result replaced to match."""
    out = []
    for event in events:
        if isinstance(event, DealStarted):
            deck = swap_other_hands(event.deck, event.dealer, None if own_too else seat, rng)
            hands = hands_from_deck(deck, event.dealer)
            event = dataclasses.replace(event, deck=deck)
        elif isinstance(event, DealEnded):
            seats = tuple(dataclasses.replace(r, hand=tuple(hands[r.seat])) for r in event.seats)
            event = dataclasses.replace(event, seats=seats)
        out.append(event)
    return out


@pytest.fixture(scope="module", autouse=True)
def mapped_tables(coach_tables_built):
    coach_tables.load()


def test_a_deals_play_reads_no_card_its_seat_did_not_see():
    rng = random.Random(5)
    for bot, own_too in ((HARD, False), (always_call, True)):
        events = played_events((bot, HARD, NORMAL, HARD), 1, seed=31)
        plays = [play for play, _ in seat_plays(events, 0)]
        assert len(plays) == 12 and any(plays)
        shuffled = with_hidden_cards_shuffled(events, 0, own_too, rng)
        assert [play for play, _ in seat_plays(shuffled, 0)] == plays


def test_a_seat_playing_hard_plays_zero_on_average():
    events = played_events((HARD, HARD, HARD, HARD), 20, seed=32)
    plays = [float(play) for play, _ in seat_plays(events, 0)]
    mean, half = interval(plays)
    print(f"\nhard seat, 240 deals: play from its view {mean:+.5f} ± {half:.5f}")
    assert abs(mean) <= half


def test_each_decision_adds_exactly_zero_in_expectation_under_hards_mix():
    """At each decision of a seat that looked, the actions hard's row weighs add to its play,
    so weighed, exactly nothing: the mix the figure subtracts is hard's own, over the same
    values. A look adds nothing."""
    rows = load_strategy().rows
    checked = 0
    for dealer, hands, history, _ in play_deals((HARD, HARD, NORMAL, HARD), 36, seed=34):
        seat = (dealer + 1) % SEATS  # the first to act: it looks, then decides
        assert history[0] == (seat, "look")
        before = deal_play(dealer, seat, history[:1], hands[seat])
        assert before == 0
        row = rows[0][hand_class(tuple(hands[seat]))]
        weighed = sum(
            Fraction(x, SCALE) * deal_play(dealer, seat, [history[0], (seat, action)], hands[seat])
            for action, x in zip(TREE.actions[0], row, strict=True)
        )
        assert weighed == 0
        checked += any(0 < x < SCALE for x in row)
    assert checked  # some of those rows were mixed


def test_the_play_of_an_always_call_seat_keeps_little_of_its_luck_and_the_same_mean():
    """Against docs/skill.md's play over the same deals: the same expectation (both are the
    seat's result minus hard's in its seat), an interval under 0.6 of the result's."""
    seen, dealt, results = [], [], []
    for dealer, hands, history, ended in play_deals((always_call, HARD, HARD, HARD), 240, seed=33):
        seen.append(float(deal_play(dealer, 0, history, hands[0])))
        dealt.append(float(deal_skill(dealer, hands, history)[0].play))
        results.append(float(ended.seats[0].delta))
    (new, new_half), (old, old_half), (_, result_half) = map(interval, (seen, dealt, results))
    print(
        f"\nalways-call seat, 240 deals: play from its view {new:+.4f} ± {new_half:.4f}, "
        f"docs/skill.md's {old:+.4f} ± {old_half:.4f}, result ± {result_half:.4f}"
    )
    assert new + new_half < 0
    assert abs(new - old) <= new_half + old_half
    assert new_half <= 0.6 * result_half < old_half
