"""Property tests: random seeds and random legal play, checked at every step against a
reference model of docs/rules.md (tests/engine/support.py) and against the engine's own promises:
replay, serialization, secrecy, refusals that change nothing."""

import copy
import json
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Act,
    DealEnded,
    DealStarted,
    MatchFinished,
    MatchRestarted,
    MatchState,
    NextDeal,
    Restart,
    RuleError,
    StartMatch,
    decide,
    event_from_dict,
    event_view,
    legal_actions,
    replay,
)
from tests.engine.support import (
    ACTIONS,
    RefDeal,
    Table,
    card_paths,
    check_observe,
    check_result_dict,
    keys_in,
    reference_category,
    reference_key,
)

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
CHOICES = st.randoms(use_true_random=False)


def refused(table: Table, command) -> str | None:
    """The code if `decide` refuses `command` (checking nothing changed), else None."""
    before = table.state.to_dict()
    try:
        decide(table.state, command)
    except RuleError as error:
        code = error.code
    else:
        code = None
    assert table.state.to_dict() == before, f"deciding {command!r} changed the state"
    return code


def check_against_reference(table: Table, ref: RefDeal) -> None:
    deal = table.state.deal
    assert deal.stakes == ref.stakes
    assert deal.high_stake == ref.high
    assert deal.pot == ref.pot == sum(deal.stakes)
    assert deal.folded == ref.folded
    assert deal.looked == ref.looked
    assert deal.turn == ref.turn
    assert (table.state.status == "in_deal") == (ref.turn is not None)


def check_legal_actions_match_decide(table: Table, ref: RefDeal) -> None:
    state = table.state
    for seat in range(4):
        legal = legal_actions(state, seat)
        assert len(set(legal)) == len(legal)
        assert set(legal) == ref.legal(seat)
        if seat == ref.turn:
            assert "fold" in legal
        for action in ACTIONS:
            code = refused(table, Act(seat, action))
            assert (code is None) == (action in legal), (seat, action, code)
            if code is None:
                continue
            if seat != ref.turn:
                assert code == "not_your_turn"
            elif action == "look":
                assert code == "already_looked"
            else:
                assert code == "illegal_action"


def check_other_refusals(table: Table, rnd) -> None:
    """Commands that can never be accepted mid-deal: refused, and nothing changes."""
    assert refused(table, NextDeal()) == "deal_in_progress"
    assert refused(table, StartMatch(rnd.randrange(2**63))) == "match_already_started"
    seat = rnd.choice([-1, 4, 5, 2**40, "0", None])
    assert refused(table, Act(seat, rnd.choice(ACTIONS))) == "invalid_seat"
    assert refused(table, Act(table.state.deal.turn, "peek")) == "illegal_action"


def check_round_trips(table: Table) -> None:
    state = table.state
    assert replay(table.events) == state
    data = json.loads(json.dumps(state.to_dict()))
    assert MatchState.from_dict(data) == state
    assert MatchState.from_dict(state.to_dict()).to_dict() == state.to_dict()
    for event in table.events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


def check_event_views(events) -> None:
    """No event as a seat (or an outsider) sees it holds the seed, the deck or a hidden hand."""
    for event in events:
        for viewer in (0, 1, 2, 3, None):
            view = event_view(event, viewer)
            json.dumps(view)
            assert not keys_in(view) & {"seed", "deck", "hands"}
            allowed = {}
            if isinstance(event, DealEnded):
                allowed = check_result_dict(view, event, viewer, ())
            for path, cards in card_paths(view).items():
                assert path in allowed, f"{event.type} shows cards at {path} to {viewer}"
                assert cards == list(allowed[path])


def check_settlement(table: Table, ref: RefDeal, result: DealEnded) -> None:
    deal = table.state.deal
    assert result.series == deal.series and result.deal_number == deal.deal_number
    in_deal = ref.in_deal
    keys = {seat: reference_key(deal.hands[seat]) for seat in in_deal}
    if len(in_deal) == 1:
        assert result.outcome == "uncontested"
        winners = tuple(in_deal)
    else:
        assert result.outcome == "showdown"
        best = max(keys.values())
        winners = tuple(seat for seat in in_deal if keys[seat] == best)
    assert result.winners == winners
    share = Fraction(ref.pot, len(winners))
    for seat, entry in enumerate(result.seats):
        assert entry.seat == seat
        assert Counter(entry.hand) == Counter(deal.hands[seat])
        assert entry.category == reference_category(entry.hand)
        assert entry.stake == ref.stakes[seat]
        assert entry.folded == ref.folded[seat]
        assert entry.shown == (result.outcome == "showdown" and not ref.folded[seat])
        assert type(entry.payout) is Fraction and type(entry.delta) is Fraction
        assert entry.payout == (share if seat in winners else 0)
        assert entry.delta == entry.payout - entry.stake
    assert sum(entry.payout for entry in result.seats) == ref.pot
    total = sum((entry.delta for entry in result.seats), Fraction(0))
    assert type(total) is Fraction and total == 0


def play_deal(
    table: Table, rnd, full_checks: bool = True, restart_chance: float = 0.0
) -> DealEnded | None:
    """Play the current deal to its end with random legal actions and return its result; or
    return None mid-deal, with probability `restart_chance` at each turn, for a restart."""
    ref = RefDeal(table.state.deal.dealer)
    deal_start = len(table.events)
    while True:
        check_against_reference(table, ref)
        for seat in range(4):
            check_observe(table.state, seat)
        if ref.turn is None:
            break
        if full_checks:
            check_legal_actions_match_decide(table, ref)
            check_other_refusals(table, rnd)
        if restart_chance and rnd.random() < restart_chance:
            return None
        seat = ref.turn
        action = rnd.choice(sorted(ref.legal(seat)))
        events = table.act(seat, action)
        ref.act(seat, action)
        assert events[0].seat == seat and events[0].action == action
        assert (events[0].stake, events[0].high_stake, events[0].pot) == (
            ref.stakes[seat],
            ref.high,
            ref.pot,
        )
        assert ref.betting_actions <= 13
        assert sum(ref.looked) <= 4
        if full_checks:
            check_round_trips(table)
    result = table.result()
    assert table.events.index(result) >= deal_start
    check_settlement(table, ref, result)
    check_event_views(table.events[deal_start:])
    assert table.state.status in ("deal_over", "finished")
    for seat in range(4):
        assert legal_actions(table.state, seat) == ()
    return result


@settings(max_examples=150, deadline=None)
@given(seed=SEEDS, rnd=CHOICES)
def test_random_deal_follows_the_rules(seed, rnd):
    table = Table.started(seed)
    check_event_views(table.events)
    result = play_deal(table, rnd)
    check_round_trips(table)
    assert table.state.totals == [entry.delta for entry in result.seats]


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, rnd=CHOICES)
def test_random_match_follows_the_rules(seed, rnd):
    table = Table.started(seed)
    series_totals = [Fraction(0)] * 4
    restarts = 0
    while True:
        dealt = table.events[-1]
        assert isinstance(dealt, DealStarted)
        restart_chance = 0.01 if restarts < 3 else 0.0
        result = play_deal(table, rnd, full_checks=False, restart_chance=restart_chance)
        if result is None:
            restarted, dealt = table.do(Restart())
            restarts += 1
            assert restarted == MatchRestarted(1 + restarts)
            assert table.state.totals == [0, 0, 0, 0]
            series_totals = [Fraction(0)] * 4
            continue
        deltas = [entry.delta for entry in result.seats]
        series_totals = [total + delta for total, delta in zip(series_totals, deltas, strict=True)]
        assert table.state.totals == series_totals
        if table.state.status == "finished":
            break
        assert refused(table, NextDeal()) is None
        (following,) = table.do(NextDeal())
        assert following.dealer == (dealt.dealer + 1) % 4
        assert following.deal_number == dealt.deal_number + 1
        assert following.series == dealt.series == 1 + restarts
    finished = table.events[-1]
    assert isinstance(finished, MatchFinished)
    assert table.state.deal.deal_number == 12
    assert finished.series == 1 + restarts
    assert list(finished.totals) == series_totals
    best = max(series_totals)
    assert finished.winners == tuple(s for s in range(4) if series_totals[s] == best)
    assert table.state.winners == finished.winners
    assert sum(series_totals) == 0
    series_deals = [
        e for e in table.events if isinstance(e, DealEnded) and e.series == finished.series
    ]
    assert [e.deal_number for e in series_deals] == list(range(1, 13))
    check_round_trips(table)
    assert refused(table, NextDeal()) == "match_finished"
    for seat in range(4):
        assert refused(table, Act(seat, rnd.choice(ACTIONS))) == "match_finished"
        check_observe(table.state, seat)
    assert refused(table, StartMatch(seed)) == "match_already_started"


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, rnd=CHOICES, steps=st.integers(min_value=0, max_value=60))
def test_replay_of_every_prefix_is_the_state_at_that_point(seed, rnd, steps):
    table = Table.started(seed)
    checkpoints = [(len(table.events), copy.deepcopy(table.state), table.state.to_dict())]
    for _ in range(steps):
        status = table.state.status
        if rnd.random() < 0.05 or status == "finished":
            table.do(Restart())
        elif status == "deal_over":
            table.do(NextDeal())
        else:
            seat = table.state.deal.turn
            table.act(seat, rnd.choice(legal_actions(table.state, seat)))
        checkpoints.append((len(table.events), copy.deepcopy(table.state), table.state.to_dict()))
    for count, state, data in checkpoints:
        rebuilt = replay(table.events[:count])
        assert rebuilt.version == count
        assert rebuilt == state
        assert rebuilt.to_dict() == data
        assert MatchState.from_dict(data) == state
