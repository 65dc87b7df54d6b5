"""The betting rules of docs/rules.md, spelled out deal by deal with hands chosen by the test.

Unless a test says otherwise, seat 0 deals, so seats 1, 2 and 3 act first, then the dealer.
"""

from fractions import Fraction

import pytest

from games.engine import (
    Act,
    ActionTaken,
    DealEnded,
    DealStarted,
    MatchFinished,
    MatchRestarted,
    MatchState,
    NextDeal,
    Restart,
    StartMatch,
    legal_actions,
    observe,
    replay,
)
from tests.engine.support import Table

F = Fraction

FOUR_AS = ("As", "As", "As", "As", "Couli")
SHAH_FULL = ("Shah", "Shah", "Shah", "Bibi", "Bibi")
BIBI_TWO_PAIR = ("Bibi", "Bibi", "Sarbaz", "Sarbaz", "Couli")
SARBAZ_COULI = ("Sarbaz", "Sarbaz", "Couli", "Couli", "Shah")  # two pair too

# Seat 2 holds four As, seat 1 a full house, seat 0 (the dealer) two pair, seat 3 two pair lower.
STRONG_SEAT_2 = {
    0: BIBI_TWO_PAIR,
    1: SHAH_FULL,
    2: FOUR_AS,
    3: SARBAZ_COULI,
}

HIGH = ("As", "Shah", "Bibi", "Sarbaz", "Couli")
# Every seat holds the one high-card hand: any showdown is a tie of everyone still in.
ALL_HIGH = {0: HIGH, 1: HIGH, 2: HIGH, 3: HIGH}


def seat_results(result: DealEnded) -> dict:
    return {r.seat: (r.stake, r.payout, r.delta, r.folded, r.shown) for r in result.seats}


def test_opening_stake_and_first_turn():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    assert table.deal.stakes == [1, 0, 0, 0]
    assert (table.deal.high_stake, table.deal.pot, table.deal.turn) == (1, 1, 1)
    assert table.deal.looked == [False] * 4
    table = Table.dealt(STRONG_SEAT_2, dealer=3)
    assert table.deal.stakes == [0, 0, 0, 1]
    assert table.deal.turn == 0


def test_everyone_calls_and_the_dealer_holds_gives_a_showdown_with_a_pot_of_4():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    turns = []
    for seat, action in ((1, "call"), (2, "call"), (3, "call")):
        turns.append(table.deal.turn)
        table.act(seat, action)
    assert turns == [1, 2, 3]
    assert table.deal.stakes == [1, 1, 1, 1]
    assert table.deal.pot == 4
    assert table.deal.turn == 0
    assert table.state.status == "in_deal"
    events = table.act(0, "hold")
    assert [type(e) for e in events] == [ActionTaken, DealEnded]
    assert events[0] == ActionTaken(0, "hold", 1, 1, 4)
    result = events[1]
    assert result.outcome == "showdown"
    assert result.winners == (2,)
    assert seat_results(result) == {
        0: (1, F(0), F(-1), False, True),
        1: (1, F(0), F(-1), False, True),
        2: (1, F(4), F(3), False, True),
        3: (1, F(0), F(-1), False, True),
    }
    assert [r.category for r in result.seats] == [
        "two_pair",
        "full_house",
        "four_of_a_kind",
        "two_pair",
    ]
    assert table.state.status == "deal_over"
    assert table.deal.turn is None
    assert table.state.totals == [F(-1), F(-1), F(3), F(-1)]
    assert legal_actions(table.state, 0) == ()
    # At a showdown every hand still in is shown to everyone.
    for viewer in range(4):
        shown = observe(table.state, viewer).last_result["seats"]
        assert [entry["hand"] is not None for entry in shown] == [True] * 4


def test_everyone_folds_to_the_dealer_who_wins_uncontested_and_shows_nothing():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "fold"), (2, "fold"))
    assert table.deal.turn == 3
    events = table.act(3, "fold")
    result = events[-1]
    assert result.outcome == "uncontested"
    assert result.winners == (0,)
    assert seat_results(result) == {
        0: (1, F(1), F(0), False, False),
        1: (0, F(0), F(0), True, False),
        2: (0, F(0), F(0), True, False),
        3: (0, F(0), F(0), True, False),
    }
    assert table.state.totals == [0, 0, 0, 0]
    # No hand is shown: each seat sees only its own hand, even the four As that folded.
    for viewer in range(4):
        seats = observe(table.state, viewer).last_result["seats"]
        assert [entry["hand"] is not None for entry in seats] == [s == viewer for s in range(4)]


def test_a_folded_stake_stays_in_the_pot_and_is_lost():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "call"), (2, "fold"), (3, "fold"), (0, "raise"))
    assert table.deal.turn == 1
    assert (table.deal.stakes, table.deal.pot) == ([2, 1, 0, 0], 3)
    result = table.act(1, "fold")[-1]
    assert (result.outcome, result.winners) == ("uncontested", (0,))
    assert [r.delta for r in result.seats] == [F(1), F(-1), F(0), F(0)]


def test_a_raise_reopens_the_action_for_every_other_seat():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "call"), (2, "call"))
    events = table.act(3, "raise")
    assert events == [ActionTaken(3, "raise", 2, 2, 5)]
    assert table.deal.high_stake == 2
    # The dealer, then seats 1 and 2, who had already called, must all act again.
    assert table.deal.turn == 0
    table.act(0, "call")
    assert table.deal.turn == 1
    assert legal_actions(table.state, 1) == ("look", "call", "raise", "fold")
    table.act(1, "call")
    assert table.deal.turn == 2
    assert table.state.status == "in_deal"
    events = table.act(2, "call")
    # Seat 3 raised and everyone matched it since: betting is over.
    result = events[-1]
    assert table.deal.stakes == [2, 2, 2, 2]
    assert (result.outcome, result.winners) == ("showdown", (2,))
    assert [r.delta for r in result.seats] == [F(-2), F(-2), F(6), F(-2)]


def test_a_re_raise_reopens_the_action_for_the_first_raiser():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "raise"), (2, "call"), (3, "call"), (0, "raise"))
    assert (table.deal.high_stake, table.deal.turn) == (3, 1)
    table.acts((1, "call"), (2, "fold"))
    assert table.deal.turn == 3
    result = table.act(3, "call")[-1]
    assert (table.deal.stakes, table.deal.pot) == ([3, 3, 2, 3], 11)
    # Seat 2's four As folded: seat 1's full house wins 11.
    assert (result.outcome, result.winners) == ("showdown", (1,))
    assert [r.delta for r in result.seats] == [F(-3), F(8), F(-2), F(-3)]
    assert [r.shown for r in result.seats] == [True, True, False, True]


def test_a_raise_is_refused_at_4():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "raise"), (2, "raise"), (3, "raise"))
    assert (table.deal.high_stake, table.deal.pot) == (4, 10)
    assert table.deal.turn == 0
    assert "raise" not in legal_actions(table.state, 0)
    assert legal_actions(table.state, 0) == ("look", "call", "fold")
    assert table.refuse(Act(0, "raise")) == "illegal_action"
    table.act(0, "call")
    assert table.refuse(Act(1, "raise")) == "illegal_action"
    table.acts((1, "call"), (2, "call"))
    assert table.state.status == "deal_over"
    assert table.deal.pot == 16
    assert [r.delta for r in table.result().seats] == [F(-4), F(-4), F(12), F(-4)]


def test_the_longest_deal_has_13_betting_actions():
    # Every raise comes as late as it can: 4 actions, then 3 after each of three raises.
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    moves = [(1, "call"), (2, "call"), (3, "call"), (0, "raise")]
    moves += [(1, "call"), (2, "call"), (3, "raise")]
    moves += [(0, "call"), (1, "call"), (2, "raise")]
    moves += [(3, "call"), (0, "call"), (1, "call")]
    assert len(moves) == 13
    for seat, action in moves[:-1]:
        table.act(seat, action)
        assert table.state.status == "in_deal"
    table.act(*moves[-1])
    assert table.state.status == "deal_over"
    assert table.deal.pot == 16


def test_a_look_does_not_end_the_turn():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    assert observe(table.state, 1).your_cards is None
    events = table.act(1, "look")
    assert events == [ActionTaken(1, "look", 0, 1, 1)]
    assert table.deal.turn == 1
    assert (table.deal.stakes, table.deal.pot) == ([1, 0, 0, 0], 1)
    assert table.deal.looked == [False, True, False, False]
    assert observe(table.state, 1).your_cards == SHAH_FULL
    for other in (0, 2, 3):
        assert observe(table.state, other).your_cards is None
        assert observe(table.state, other).looked == (False, True, False, False)
    assert legal_actions(table.state, 1) == ("call", "raise", "fold")
    table.act(1, "call")
    assert table.deal.turn == 2


def test_a_second_look_is_refused():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.act(1, "look")
    assert table.refuse(Act(1, "look")) == "already_looked"
    table.act(1, "call")
    table.acts((2, "call"), (3, "call"), (0, "raise"))
    # Still refused on the seat's next turn in the same deal.
    assert table.deal.turn == 1
    assert table.refuse(Act(1, "look")) == "already_looked"


def test_a_seat_may_look_on_its_turn_only():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    assert table.refuse(Act(2, "look")) == "not_your_turn"


def test_the_dealer_is_required_to_act():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "call"), (2, "call"), (3, "call"))
    # Every stake equals the high stake, but the dealer has not acted: the deal goes on.
    assert table.deal.stakes == [1, 1, 1, 1]
    assert table.state.status == "in_deal"
    assert table.deal.turn == 0
    assert legal_actions(table.state, 0) == ("look", "hold", "raise", "fold")
    assert not any(isinstance(e, DealEnded) for e in table.events)
    # The dealer may also fold its opening stake.
    result = table.act(0, "fold")[-1]
    assert (result.outcome, result.winners) == ("showdown", (2,))
    assert [r.delta for r in result.seats] == [F(-1), F(-1), F(3), F(-1)]
    assert [r.shown for r in result.seats] == [False, True, True, True]


def test_the_dealer_acts_last_when_another_seat_deals():
    table = Table.dealt(STRONG_SEAT_2, dealer=2)
    turns = []
    for _ in range(3):
        turns.append(table.deal.turn)
        table.act(table.deal.turn, "call")
    assert turns == [3, 0, 1]
    assert table.deal.turn == 2
    table.act(2, "hold")
    assert table.state.status == "deal_over"


def test_turns_skip_folded_seats():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "call"), (2, "fold"), (3, "raise"), (0, "call"))
    assert table.deal.turn == 1
    table.act(1, "raise")
    assert table.deal.turn == 3  # seat 2 folded
    table.act(3, "call")
    assert table.deal.turn == 0


def test_a_three_way_tie_pays_7_thirds_each():
    # Three identical hands can only be the high-card hand (a rank has four copies).
    table = Table.dealt(ALL_HIGH, dealer=0)
    table.acts((1, "raise"), (2, "call"), (3, "call"))
    assert (table.deal.stakes, table.deal.pot) == ([1, 2, 2, 2], 7)
    result = table.act(0, "fold")[-1]
    assert (result.outcome, result.winners) == ("showdown", (1, 2, 3))
    assert seat_results(result) == {
        0: (1, F(0), F(-1), True, False),
        1: (2, F(7, 3), F(1, 3), False, True),
        2: (2, F(7, 3), F(1, 3), False, True),
        3: (2, F(7, 3), F(1, 3), False, True),
    }
    assert all(type(r.payout) is Fraction and type(r.delta) is Fraction for r in result.seats)
    assert sum(r.delta for r in result.seats) == 0
    assert table.state.totals == [F(-1), F(1, 3), F(1, 3), F(1, 3)]
    # Exact in the serialized forms too.
    assert [s["payout"] for s in result.to_dict()["seats"]] == ["0", "7/3", "7/3", "7/3"]
    assert MatchState.from_dict(table.state.to_dict()) == table.state


def test_a_two_way_tie_splits_an_odd_pot():
    pair_of_as = ("As", "As", "Shah", "Bibi", "Sarbaz")
    pair_of_couli = ("Couli", "Couli", "Shah", "Bibi", "Sarbaz")
    hands = {0: pair_of_couli, 1: pair_of_couli, 2: pair_of_as, 3: pair_of_as}
    table = Table.dealt(hands, dealer=0)
    table.acts((1, "fold"), (2, "call"), (3, "call"))
    result = table.act(0, "hold")[-1]
    assert table.deal.pot == 3
    assert result.winners == (2, 3)
    assert [r.payout for r in result.seats] == [0, 0, F(3, 2), F(3, 2)]
    assert [r.delta for r in result.seats] == [F(-1), 0, F(1, 2), F(1, 2)]


def test_everyone_tied_gets_their_stake_back():
    table = Table.dealt(ALL_HIGH, dealer=0)
    table.acts((1, "call"), (2, "call"), (3, "call"), (0, "hold"))
    result = table.result()
    assert result.winners == (0, 1, 2, 3)
    assert [r.payout for r in result.seats] == [1, 1, 1, 1]
    assert [r.delta for r in result.seats] == [0, 0, 0, 0]


# --- refusals ---------------------------------------------------------------------------------


def test_not_your_turn():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    for seat in (0, 2, 3):
        for action in ("look", "call", "hold", "raise", "fold"):
            assert table.refuse(Act(seat, action)) == "not_your_turn"


def test_illegal_actions():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    assert table.refuse(Act(1, "hold")) == "illegal_action"  # hold when behind
    assert table.refuse(Act(1, "dance")) == "illegal_action"
    assert table.refuse(Act(1, "")) == "illegal_action"
    assert table.refuse(Act(1, None)) == "illegal_action"
    assert table.refuse(Act(1, "CALL")) == "illegal_action"
    table.acts((1, "call"), (2, "call"), (3, "call"))
    assert table.refuse(Act(0, "call")) == "illegal_action"  # call when matched


def test_invalid_seat():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    for seat in (4, -1, 100, "1", None, 1.0, True):
        assert table.refuse(Act(seat, "call")) == "invalid_seat"


def test_fold_is_always_allowed_on_your_turn():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    assert "fold" in legal_actions(table.state, 1)  # behind
    table.acts((1, "look"))
    assert "fold" in legal_actions(table.state, 1)  # after looking
    table.acts((1, "raise"), (2, "raise"), (3, "raise"))
    assert "fold" in legal_actions(table.state, 0)  # at the top stake
    table.acts((0, "call"), (1, "call"), (2, "call"))
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    table.acts((1, "call"), (2, "call"), (3, "call"))
    assert "fold" in legal_actions(table.state, 0)  # matched


def test_deal_over_and_deal_in_progress():
    table = Table.dealt(STRONG_SEAT_2, dealer=0)
    assert table.refuse(NextDeal()) == "deal_in_progress"
    table.acts((1, "fold"), (2, "fold"), (3, "fold"))
    for seat in range(4):
        for action in ("look", "call", "hold", "raise", "fold"):
            assert table.refuse(Act(seat, action)) == "deal_over"
        assert legal_actions(table.state, seat) == ()
    (dealt,) = table.do(NextDeal())
    assert (dealt.deal_number, dealt.dealer) == (2, 1)


def test_match_not_started():
    table = Table()
    for command in (Act(0, "look"), Act(1, "call"), NextDeal(), Restart()):
        assert table.refuse(command) == "match_not_started"
    assert legal_actions(table.state, 0) == ()


def test_match_already_started():
    table = Table.started(5)
    assert table.refuse(StartMatch(5)) == "match_already_started"
    assert table.refuse(StartMatch(6)) == "match_already_started"


def _play_match_by_folding(table: Table) -> None:
    for number in range(1, 13):
        if number > 1:
            table.do(NextDeal())
        dealer = table.deal.dealer
        # The first seat to act raises, everyone else folds: it wins 1 from the dealer.
        table.acts(((dealer + 1) % 4, "raise"), ((dealer + 2) % 4, "fold"))
        table.acts(((dealer + 3) % 4, "fold"), (dealer, "fold"))


def test_a_match_ends_after_deal_12():
    table = Table.started(11)
    first_dealer = table.deal.dealer
    _play_match_by_folding(table)
    finished = table.events[-1]
    assert isinstance(finished, MatchFinished)
    assert table.state.status == "finished"
    assert table.deal.deal_number == 12
    # Each seat acted first three times (the seat after the dealer) and dealt three times.
    assert table.state.totals == [F(0)] * 4
    assert finished.totals == (0, 0, 0, 0)
    assert finished.winners == (0, 1, 2, 3)
    assert table.state.winners == (0, 1, 2, 3)
    assert table.deal.dealer == (first_dealer + 11) % 4
    assert table.refuse(NextDeal()) == "match_finished"
    for seat in range(4):
        assert table.refuse(Act(seat, "fold")) == "match_finished"
        assert legal_actions(table.state, seat) == ()


def test_match_winner_is_the_seat_with_the_highest_total():
    table = Table.started(3)
    dealers = []
    for number in range(1, 13):
        if number > 1:
            table.do(NextDeal())
        dealer = table.deal.dealer
        dealers.append(dealer)
        # Everyone folds to the dealer, except when seat 2 deals: then seat 3 raises.
        if dealer == 2:
            table.acts((3, "raise"), (0, "fold"), (1, "fold"), (2, "fold"))
        else:
            for offset in (1, 2, 3):
                table.act((dealer + offset) % 4, "fold")
    assert dealers.count(2) == 3
    finished = table.events[-1]
    assert finished == MatchFinished(1, (3,), (F(0), F(0), F(-3), F(3)))
    assert table.state.totals == [0, 0, -3, 3]


def test_restart_mid_deal_abandons_the_deal():
    table = Table.dealt(STRONG_SEAT_2, dealer=0, seed=42)
    table.acts((1, "call"), (2, "call"), (3, "call"), (0, "hold"))
    assert table.state.totals == [-1, -1, 3, -1]
    table.do(NextDeal())
    table.acts((2, "raise"), (3, "call"))
    history = list(table.events)
    events = table.do(Restart())
    assert [type(e) for e in events] == [MatchRestarted, DealStarted]
    assert events[0].series == 2
    assert (events[1].series, events[1].deal_number) == (2, 1)
    # The abandoned deal counts for nobody and the totals start again from zero.
    assert not any(isinstance(e, DealEnded) for e in events)
    assert table.state.totals == [0, 0, 0, 0]
    assert table.state.series == 2
    assert table.state.status == "in_deal"
    assert table.state.last_result is None
    assert table.deal.deal_number == 1
    assert table.deal.stakes[table.deal.dealer] == 1 and table.deal.pot == 1
    # What happened before stays in the history, and replaying it all gives the same state.
    assert table.events[: len(history)] == history
    assert replay(table.events) == table.state
    for seat in range(4):
        assert observe(table.state, seat).last_result is None


def test_restart_after_the_match_finished():
    table = Table.started(11)
    _play_match_by_folding(table)
    assert table.state.status == "finished"
    restarted, dealt = table.do(Restart())
    assert restarted == MatchRestarted(2)
    assert (dealt.series, dealt.deal_number) == (2, 1)
    assert table.state.status == "in_deal"
    assert table.state.winners is None
    assert table.state.totals == [0, 0, 0, 0]
    assert table.deal.turn == (dealt.dealer + 1) % 4
    # The new series is 12 deals too.
    table.acts(*[((dealt.dealer + k) % 4, "fold") for k in (1, 2, 3)])
    for _ in range(11):
        table.do(NextDeal())
        table.acts(*[((table.deal.dealer + k) % 4, "fold") for k in (1, 2, 3)])
    assert isinstance(table.events[-1], MatchFinished)
    assert table.events[-1].series == 2
    assert table.refuse(NextDeal()) == "match_finished"


@pytest.mark.parametrize("restarts", [1, 2, 3])
def test_each_restart_is_a_new_series(restarts):
    table = Table.started(9)
    for series in range(2, 2 + restarts):
        restarted, dealt = table.do(Restart())
        assert restarted.series == dealt.series == series
    assert table.state.series == 1 + restarts
