"""The coach: exact values, hand strength only once looked, nothing unseen leaks."""

import json
import random
from fractions import Fraction

import pytest

from games.ai import AI_LEVELS, coach_tables
from games.ai import coach as coach_module
from games.ai.coach import advice_key, coach, showdown_chances, warm
from games.ai.deals import TOTAL_WEIGHT
from games.ai.exploit import position_deals, position_values
from games.ai.hands import N_HANDS, STRENGTH
from games.ai.strategy import load_strategy
from games.ai.tables import engine_legal, view_at
from games.ai.tree import TREE
from games.engine import (
    DECK,
    Act,
    DealStarted,
    MatchCreated,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
    replay,
)
from tests.ai import golden_hints
from tests.ai.support import swap_other_hands


def _looked_legal(node):
    return tuple(a for a in engine_legal(TREE, node, looked=True) if a != "look")


def test_before_looking_the_coach_says_look_and_nothing_about_the_cards():
    state = replay([MatchCreated(3), DealStarted(1, 1, 0, DECK)])
    hint = coach(observe(state, 1), legal_actions(state, 1), "hard")
    assert {a.action: a.hard_probability for a in hint.actions}["look"] == 1.0
    assert all(a.expected_value is None for a in hint.actions)
    assert hint.hand_rank is hint.showdown_win is hint.showdown_tie is None


def test_hints_depend_only_on_what_the_seat_has_seen():
    """Same own cards and betting, different hands elsewhere: the same hint, blind or
    looked. Different own cards, not yet looked at: the same hint too."""
    rng = random.Random(5)
    deck = list(DECK)
    rng.shuffle(deck)
    dealer, seat = 0, 1
    decks = [tuple(deck)] + [swap_other_hands(tuple(deck), dealer, seat, rng) for _ in range(2)]
    states = [replay([MatchCreated(7), DealStarted(1, 1, dealer, d)]) for d in decks]
    assert len({s.deal.hands for s in states}) == 3
    blind = {coach(observe(s, seat), legal_actions(s, seat), "normal") for s in states}
    other_seat_state = replay([MatchCreated(7), DealStarted(1, 1, dealer, tuple(reversed(deck)))])
    assert other_seat_state.deal.hands[seat] != states[0].deal.hands[seat]
    blind.add(
        coach(observe(other_seat_state, seat), legal_actions(other_seat_state, seat), "normal")
    )
    assert len(blind) == 1
    for s in states:
        for event in decide(s, Act(seat, "look")):
            evolve(s, event)
        assert s.status is Status.IN_DEAL
    looked = {coach(observe(s, seat), legal_actions(s, seat), "normal") for s in states}
    assert len(looked) == 1
    (hint,) = looked
    assert hint.hand_rank is not None and hint.actions[0].expected_value is not None
    # The key the API caches hints under sees no more than the coach: one key for all three.
    keys = {advice_key(observe(s, seat), legal_actions(s, seat), "normal") for s in states}
    assert len(keys) == 1


def test_the_advice_key_names_what_decides_the_advice():
    state = replay([MatchCreated(3), DealStarted(1, 1, 0, DECK)])
    seat = state.deal.turn
    blind = advice_key(observe(state, seat), legal_actions(state, seat), "hard")
    for event in decide(state, Act(seat, "look")):
        evolve(state, event)
    view, legal = observe(state, seat), legal_actions(state, seat)
    looked = advice_key(view, legal, "hard")
    assert blind != looked
    # Expert's seats are hard's table to the coach; the other levels are tables of their own.
    assert advice_key(view, legal, "expert") == looked
    assert advice_key(view, legal, "normal") != looked != advice_key(view, legal, "easy")
    assert coach(view, legal, "expert") == coach(view, legal, "hard")
    # Nothing in it is a card: only the hand's class among the 121.
    assert not set(DECK) & set(looked)


@pytest.mark.slow
def test_values_agree_with_the_exact_best_response_code():
    """At the first decision against hard seats, the hard-weighted mean of the action
    values is the seat's value playing hard, which exploit.py computes independently."""
    hand = 60
    hint = coach(view_at(TREE, 0, hand), _looked_legal(0), "hard")
    mean = sum(a.hard_probability * a.expected_value for a in hint.actions)
    _, expected = position_values(load_strategy().table(), 1, hands={hand})
    weights = sum(position_deals(1)[hand][1])
    assert mean == pytest.approx(expected * TOTAL_WEIGHT / weights, rel=1e-6)


def test_folding_loses_exactly_the_stake_and_probabilities_are_hards():
    node = TREE.index[("raise",)]
    hand = 100
    hint = coach(view_at(TREE, node, hand), _looked_legal(node), "easy")
    values = {a.action: a.expected_value for a in hint.actions}
    assert values["fold"] == -TREE.stakes[node][TREE.player[node]]
    assert all(isinstance(value, Fraction) for value in values.values())  # exact
    row = load_strategy().rows[node][hand]
    assert [a.hard_probability for a in hint.actions] == pytest.approx([x / 65535 for x in row])


def test_hand_strength_is_exact():
    strongest = max(range(N_HANDS), key=STRENGTH.__getitem__)
    weakest = min(range(N_HANDS), key=STRENGTH.__getitem__)
    win, tie = showdown_chances(strongest)
    assert win + tie == 1
    assert showdown_chances(weakest)[0] == 0
    assert isinstance(win, Fraction)
    ranks = {coach(view_at(TREE, 0, h), _looked_legal(0), "hard").hand_rank for h in (0, 60)}
    assert ranks <= set(range(1, N_HANDS + 1))


@pytest.mark.usefixtures("coach_tables_built")
def test_after_warming_a_hint_at_every_level_sums_over_no_deal(monkeypatch):
    """What a server maps as a worker starts (asnas_api.asgi) is all that a hint reads at a
    spot the AI seats' table reaches: no sum over deals, no table built in the request."""
    warm()
    assert coach_tables.mapped() is not None

    def no_deals(*args):
        raise AssertionError("summed over deals after warming")

    monkeypatch.setattr(coach_module, "deals_holding", no_deals)
    state = replay([MatchCreated(3), DealStarted(1, 1, 0, DECK)])
    for event in decide(state, Act(1, "look")):
        evolve(state, event)
    for ai_level in AI_LEVELS:
        hint = coach(observe(state, 1), legal_actions(state, 1), ai_level)
        assert hint.hand_rank is not None


# Without the tables each hint sums over every deal, a third of a second: the default run
# checks every third spot that way (all of them from the tables), -m simulation every spot.
SPOTS_WITHOUT_TABLES = {"none": 3, "none, every spot": 1}


@pytest.mark.usefixtures("coach_tables_built")
@pytest.mark.parametrize(
    "tables",
    ["mapped", "none", pytest.param("none, every spot", marks=pytest.mark.simulation)],
)
def test_hints_give_the_golden_masters_exact_fractions(tables, monkeypatch):
    """The coach's answers at a fixed set of spots, recorded from the coach that summed over
    every deal at each hint (tests/ai/golden_hints.py says how to regenerate them): every
    probability, value and chance is the same exact fraction, from the mapped tables and
    without them (a hint before they are mapped; spots the AI seats never reach)."""
    warm()
    if tables != "mapped":
        monkeypatch.setattr(coach_tables, "_mapped", None)
    assert (coach_tables.mapped() is not None) == (tables == "mapped")
    fixture = json.loads(golden_hints.PATH.read_text())
    assert len(fixture) > 90
    for spot in fixture[:: SPOTS_WITHOUT_TABLES.get(tables, 1)]:
        node = TREE.index[tuple(spot["history"])]
        hint = golden_hints.hint_at(spot["level"], node, spot["hand"])
        assert golden_hints.as_json(hint) == spot["hint"], spot
