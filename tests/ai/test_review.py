"""The review (games/ai/review.py, docs/review.md): exact values that agree with an
independent enumeration over the hidden hands, classes and accuracy, the relation to the
deal's "your play", and a review that is the same whatever the seat could not see. No
database."""

import random
from fractions import Fraction

import pytest

from games.ai import ai_rng, choose_action, coach
from games.ai.deals import TOTAL_WEIGHT, all_deals
from games.ai.exploit import position_values
from games.ai.hands import hand_class
from games.ai.review import (
    ACCURACY_SCALE,
    HUMAN,
    accuracy,
    blind_values,
    grade,
    opponents,
    review_deal,
    review_events,
    tables_by_position,
)
from games.ai.skill import decision_deltas
from games.ai.strategy import load_strategy
from games.ai.tree import TREE
from games.engine import (
    ALL_HANDS,
    SEATS,
    Act,
    DealEnded,
    DealStarted,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
)
from games.engine.state import hands_from_deck
from games.engine.vocabulary import Actor
from tests.ai.review_enumeration import enumerated
from tests.ai.support import swap_other_hands

LEVELS = ("easy", "normal", "hard", "expert")


@pytest.fixture(scope="module", autouse=True)
def mapped_tables(coach_tables_built):
    coach.warm()  # what the review's housekeeping maps first


def play(level, seed, deals, viewer=0, blind_share=0.5):
    """A match's events: `viewer` (None: the first deal's dealer) plays a random legal
    action half the time (blind ones, looks and folds while matched included) and normal's
    choice otherwise; the AI seats play `level` with their recorded random sources."""
    rng = random.Random(seed)
    state, events = MatchState(), []

    def apply(command):
        for event in decide(state, command):
            evolve(state, event)
            events.append(event)

    apply(StartMatch(seed, ai_level=level))
    if viewer is None:
        viewer = state.deal.dealer
    played = 0
    while state.status is not Status.FINISHED:
        if state.status is Status.DEAL_OVER:
            played += 1
            if played == deals:
                break
            apply(NextDeal())
            continue
        seat = state.deal.turn
        view, legal = observe(state, seat), legal_actions(state, seat)
        if seat == viewer:
            if rng.random() < blind_share:
                action = rng.choice(legal)
            else:
                action = choose_action("normal", view, legal, rng)
            apply(Act(seat, action, Actor.PLAYER))
        else:
            step = ai_rng(state.seed, state.series, state.deal.deal_number, seat, len(view.history))
            apply(Act(seat, choose_action(level, view, legal, step), Actor.AI))
    return events


def checked_decisions(events, seat, level):
    """Compare every decision of `seat` with the enumeration; the number compared."""
    compared = 0
    for deal in review_events(events, seat, level).deals:
        tables = tables_by_position(seat, deal.dealer, deal.opponents)
        for decision, node, hand in _with_nodes(events, deal, seat):
            expected, mix = enumerated(tables, node, hand if decision.looked else None)
            values = dict(decision.values.actions)
            assert set(values) == set(expected)
            for action, value in values.items():
                assert isinstance(value, Fraction)
                assert float(value) == pytest.approx(expected[action], rel=1e-9, abs=1e-12)
            assert float(decision.values.hard_mix) == pytest.approx(mix, rel=1e-9, abs=1e-12)
            assert (
                decision.lost >= 0
                and decision.lost == decision.values.best - values[decision.action]
            )
            compared += 1
    return compared


def _with_nodes(events, deal, seat):
    """(decision, node, hand class) for each decision of `deal`, from the events."""
    for inputs_deal in _deals(events):
        dealt, actions = inputs_deal
        if (dealt.series, dealt.deal_number) != (deal.series, deal.deal_number):
            continue
        hand = hand_class(hands_from_deck(dealt.deck, dealt.dealer)[seat])
        node, k = 0, 0
        for actor, action in actions:
            if actor == seat:
                yield deal.decisions[k], node, hand
                k += 1
            if action != "look" and action in TREE.actions[node]:
                node = TREE.children[node][TREE.actions[node].index(action)]


def _deals(events):
    dealt, actions = None, []
    for event in events:
        if isinstance(event, DealStarted):
            dealt, actions = event, []
        elif isinstance(event, DealEnded):
            yield dealt, actions
        elif dealt is not None and hasattr(event, "action"):
            actions.append((event.seat, event.action))


# The viewer's seat is each deal's dealer or last to act: their first, blind, decision is
# then deeper in the tree than the first to act's, which the enumeration takes seconds for.
DEFAULT_RUNS = [("normal", 21, 2), ("hard", 22, 1), ("easy", 23, 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("level", "seed", "deals"), DEFAULT_RUNS)
def test_values_agree_with_an_enumeration_of_the_hidden_hands(level, seed, deals):
    events = play(level, seed, deals, viewer=None)
    viewer = next(e.dealer for e in events if isinstance(e, DealStarted))
    assert checked_decisions(events, viewer, level) >= 1


@pytest.mark.simulation
def test_values_agree_with_the_enumeration_on_a_hundred_deals():
    """Every level, the viewer's own seat (blind actions, looks, folds while matched): 104
    deals, every decision."""
    compared = deals = 0
    kinds = set()
    for k, level in enumerate(LEVELS):
        for m, length in enumerate((12, 12, 2)):  # a match is 12 deals: 26 per level
            events = play(level, 300 + 10 * k + m, length)
            compared += checked_decisions(events, 0, level)
            for deal in review_events(events, 0, level).deals:
                deals += 1
                kinds |= {(d.looked, d.action) for d in deal.decisions}
    print(f"{deals} deals, {compared} decisions agree with the enumeration")
    assert deals >= 100
    assert {(False, "look"), (True, "call")} <= kinds
    assert any(not looked and action != "look" for looked, action in kinds)


def test_a_table_of_several_humans_takes_the_others_to_play_hard():
    """A normal match where seat 2 is another human: their table is hard, the AI seats'
    normal, and the values sum for those mixed tables (in memory) as the enumeration does."""
    events = play("normal", 31, 1, viewer=0, blind_share=0.0)
    others = opponents(0, "normal", (False, True, False, True))
    assert [o.basis for o in others] == ["model", HUMAN, "model"]
    dealt, actions = next(_deals(events))
    hand = hands_from_deck(dealt.deck, dealt.dealer)[0]
    by = [(s, a, Actor.PLAYER if s == 0 else Actor.AI) for s, a in actions]
    deal = review_deal(dealt.dealer, 0, by, hand, others)
    tables = tables_by_position(0, dealt.dealer, others)
    assert len(set(tables)) == 2
    decision = next(d for d in deal.decisions if d.looked)
    node = 0
    for s, a in actions:
        if s == 0 and a != "look":
            break
        if a != "look":
            node = TREE.children[node][TREE.actions[node].index(a)]
    expected, _ = enumerated(tables, node, hand_class(hand))
    for action, value in decision.values.actions:
        assert float(value) == pytest.approx(expected[action], rel=1e-9, abs=1e-12)


def test_against_hard_the_blind_mix_is_exploits_value_of_the_seat():
    """exploit.py, independently: the first to act playing hard against hard seats expects,
    over all deals, hard's mix at the deal's first (blind) decision."""
    values = blind_values(("hard",) * SEATS, 0)
    _, expected = position_values(load_strategy().table(), 1)
    assert float(values.hard_mix) == pytest.approx(expected, rel=1e-9)
    assert sum(all_deals()[1]) == TOTAL_WEIGHT
    # Looking never loses: look is worth the mean of the best, above every blind action.
    assert values.best == values.of("look") >= values.hard_mix


def test_classes_and_accuracy_follow_the_documented_thresholds():
    assert grade(Fraction(0)) == "best"
    assert grade(Fraction(1, 20)) == "good"
    assert grade(Fraction(1, 10)) == "inaccuracy"
    assert grade(Fraction(2, 5)) == "mistake"
    assert grade(Fraction(41, 100)) == "blunder"
    assert accuracy([Fraction(0)] * 3) == 100
    assert accuracy([ACCURACY_SCALE]) == 50
    assert accuracy([]) is None
    assert accuracy([Fraction(0), Fraction(1)]) > accuracy([Fraction(1, 2), Fraction(1, 2)])


def test_the_clock_and_the_ai_for_a_human_who_left_are_not_graded():
    actions = [(1, "look", Actor.AI), (1, "call", Actor.AI), (2, "look", Actor.CLOCK)]
    actions += [(2, "call", Actor.CLOCK), (3, "fold", Actor.AI), (0, "hold", Actor.AI)]
    others = opponents(2, "hard", (True, True, False, True))
    deal = review_deal(0, 2, actions, ("As", "As", "Shah", "Bibi", "Couli"), others)
    clock_look, clock_call = deal.decisions
    assert clock_look.values is not None and clock_look.grade is None
    assert deal.lost == 0 and deal.accuracy is None
    left = review_deal(0, 0, actions, None, opponents(0, "hard", (False, True, True, True)))
    (after_leaving,) = left.decisions
    assert after_leaving.values is None and after_leaving.grade is None


def _swapped(events, seat, rng, own_too):
    """The same match with other hands: every deck's other seats' cards shuffled among them
    (and the seat's own too, with `own_too`); the actions replayed as they were."""
    state, out = MatchState(), []
    for event in events:
        if isinstance(event, DealStarted):
            deck = swap_other_hands(event.deck, event.dealer, seat, rng)
            if own_too:
                deck = tuple(rng.sample(deck, len(deck)))
            event = DealStarted(event.series, event.deal_number, event.dealer, deck)
        if hasattr(event, "action"):
            for made in decide(state, Act(event.seat, event.action, event.actor)):
                evolve(state, made)
                out.append(made)
            continue
        if isinstance(event, DealEnded):
            continue  # the replayed actions settle the deal with its new hands
        evolve(state, event)
        out.append(event)
    return out


def _as_data(deal, until_look=False):
    rows = []
    for d in deal.decisions:
        if until_look and d.looked:
            break
        rows.append((d.action, d.by, d.looked, d.values, d.lost, d.grade))
    return deal.series, deal.deal_number, deal.dealer, deal.opponents, rows


def test_the_review_is_the_same_whatever_the_seat_could_not_see():
    """Other hands for the other seats: the same review. Other hands for the seat too: the
    same review of every decision it made before looking."""
    rng = random.Random(8)
    events = play("normal", 41, 3)
    seat = 0
    review = review_events(events, seat, "normal")
    others_swapped = review_events(_swapped(events, seat, rng, False), seat, "normal")
    assert [_as_data(d) for d in review.deals] == [_as_data(d) for d in others_swapped.deals]
    all_swapped = review_events(_swapped(events, seat, rng, True), seat, "normal")
    assert [_as_data(d, True) for d in review.deals] == [
        _as_data(d, True) for d in all_swapped.deals
    ]
    # The swaps did change what was dealt and how the deals ended.
    ended = [e for e in events if isinstance(e, DealEnded)]
    assert ended != [e for e in _swapped(events, seat, rng, False) if isinstance(e, DealEnded)]


@pytest.mark.slow
def test_against_hard_the_expected_play_is_the_chosen_value_minus_hards_mix():
    """docs/review.md: at a hard table, the deal's "your play" Δ of a decision, averaged over
    every deal that fits what the seat knew (its hand once looked, the betting, weighted by
    the shuffles and hard's chances of the others' actions), is the chosen action's value
    minus hard's mix of the values. Checked by enumerating those deals, with skill.py."""
    rows = load_strategy().rows
    after_call = TREE.index[("call",)]
    call = TREE.actions[0].index("call")
    assert TREE.actions[after_call].index("call") == call
    hand = ("As", "Shah", "Bibi", "Bibi", "Couli")
    # Position 1 calls, position 2 calls, position 3 (the seat, looked) decides; dealer 0.
    history = [(1, "call", Actor.AI), (2, "call", Actor.AI), (3, "look", Actor.PLAYER)]
    others = opponents(3, "hard", (True, True, True, False))
    for action in ("call", "raise"):
        deal = review_deal(0, 3, [*history, (3, action, Actor.PLAYER)], hand, others)
        decision = deal.decisions[-1]
        mine = hand_class(hand)
        total = weighted = Fraction(0)
        for dealt, weight in zip(*all_deals(), strict=True):
            if dealt[3] != mine:
                continue
            reach = weight * rows[0][dealt[1]][call] * rows[after_call][dealt[2]][call]
            if not reach:
                continue
            cards = [ALL_HANDS[dealt[p]] for p in range(SEATS)]
            prefix = [(1, "call"), (2, "call"), (3, "look"), (3, action)]
            total += reach
            weighted += reach * decision_deltas(0, cards, prefix)[-1]
        expected = decision.values.of(action) - decision.values.hard_mix
        assert weighted / total == expected
