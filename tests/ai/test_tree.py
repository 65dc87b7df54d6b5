"""The fast betting-tree model agrees with the engine on every betting sequence."""

import random
from fractions import Fraction

import pytest

from games.ai.tree import build_tree
from games.engine import (
    DECK,
    Act,
    DealEnded,
    DealStarted,
    MatchCreated,
    decide,
    evaluate,
    legal_actions,
    replay,
)

TREE = build_tree(matched_fold=True)


def _deck_for(hands, dealer):
    """The deck that deals `hands` (by seat): card i goes to seat (dealer + 1 + i) mod 4."""
    return tuple(hands[(dealer + 1 + i) % 4][i // 4] for i in range(20))


def _case(case, dealer):
    if case == 0:
        # A four-way tie: everyone holds As Shah Bibi Sarbaz Couli.
        return _deck_for([("As", "Shah", "Bibi", "Sarbaz", "Couli")] * 4, dealer)
    if case == 1:
        # Two two-way ties, the winning tie on seats 0 and 2.
        strong, weak = (
            ("As", "As", "Shah", "Shah", "Bibi"),
            ("Bibi", "Sarbaz", "Sarbaz", "Couli", "Couli"),
        )
        return _deck_for([strong, weak, strong, weak], dealer)
    deck = list(DECK)
    random.Random(case).shuffle(deck)
    return tuple(deck)


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("look", [False, True])
def test_every_betting_sequence_matches_the_engine(case, look):
    dealer = (case + (2 if look else 0)) % 4
    deck = _case(case, dealer)
    opening = [MatchCreated(123), DealStarted(1, 1, dealer, deck)]
    hands = replay(opening).deal.hands
    strengths = [evaluate(hands[(p + dealer) % 4]).key for p in range(4)]
    checked = 0

    def walk(node, events):
        nonlocal checked
        state = replay(events)
        seat_to_act = None if TREE.player[node] < 0 else (TREE.player[node] + dealer) % 4
        if seat_to_act is None:
            ended = state.deal.result
            assert isinstance(ended, DealEnded)
            assert ended.outcome == ("showdown" if TREE.showdown[node] else "uncontested")
            payoffs = TREE.payoffs(node, strengths)
            for position in range(4):
                seat = (position + dealer) % 4
                assert ended.seats[seat].delta == payoffs[position]
                assert ended.seats[seat].stake == TREE.stakes[node][position]
                assert ended.seats[seat].folded == TREE.folded[node][position]
            assert sum(payoffs, Fraction(0)) == 0
            checked += 1
            return
        assert state.deal.turn == seat_to_act
        assert state.deal.pot == TREE.pot[node]
        legal = legal_actions(state, seat_to_act)
        if look and "look" in legal:
            events = events + decide(state, Act(seat_to_act, "look"))
            state = replay(events)
            legal = legal_actions(state, seat_to_act)
        assert tuple(a for a in legal if a != "look") == TREE.actions[node]
        for action, child in zip(TREE.actions[node], TREE.children[node], strict=True):
            walk(child, events + decide(state, Act(seat_to_act, action)))

    walk(0, opening)
    assert checked == 1023
