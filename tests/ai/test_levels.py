"""Every level plays legally and deterministically, and sees only what its seat may see."""

import hashlib
import hmac
import random

import pytest

from games.ai import AI_LEVELS, DEFAULT_AI_LEVEL, ai_rng, choose_action, decision_rng, heuristics
from games.ai.exploit import exploitability
from games.ai.hands import PERCENTILE
from games.ai.tables import easy_table, engine_legal, normal_table, view_at
from games.ai.tree import build_tree
from games.engine import (
    DECK,
    Act,
    DealStarted,
    MatchCreated,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
    replay,
)
from games.engine.commands import Seeds
from tests.ai.support import swap_other_hands


def test_levels():
    assert AI_LEVELS == ("easy", "normal", "hard", "expert")
    assert DEFAULT_AI_LEVEL == "hard"


@pytest.mark.parametrize("level", AI_LEVELS)
def test_a_level_plays_whole_matches_legally_and_replays_exactly(level):
    def play(seed):
        state = MatchState()
        for event in decide(state, StartMatch(seed)):
            evolve(state, event)
        actions = []
        while state.status is not Status.FINISHED:
            if state.status is Status.DEAL_OVER:
                command = NextDeal()
            else:
                seat = state.deal.turn
                view = observe(state, seat)
                legal = legal_actions(state, seat)
                rng = ai_rng(seed, state.series, state.deal.deal_number, seat, len(view.history))
                action = choose_action(level, view, legal, rng)
                assert action in legal
                actions.append(action)
                command = Act(seat, action)
            for event in decide(state, command):
                evolve(state, event)
        return actions

    for seed in range(3):
        assert play(seed) == play(seed)


def test_unknown_level_is_refused():
    state = replay([MatchCreated(1), DealStarted(1, 1, 0, DECK)])
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_action("master", observe(state, 1), legal_actions(state, 1), random.Random(1))


@pytest.mark.parametrize("level", AI_LEVELS)
def test_a_seat_never_reads_other_hands(level):
    """Deal the same cards to one seat and different ones to the others, replay the same
    public actions: that seat's view, and so its every decision, must not change."""
    rng = random.Random(level)
    checked = 0
    for trial in range(40):
        deck = list(DECK)
        rng.shuffle(deck)
        dealer, seat = rng.randrange(4), rng.randrange(4)
        decks = [tuple(deck)] + [swap_other_hands(tuple(deck), dealer, seat, rng) for _ in range(3)]
        states = [replay([MatchCreated(7), DealStarted(1, 1, dealer, d)]) for d in decks]
        assert len({s.deal.hands[seat] for s in states}) == 1
        assert len({s.deal.hands for s in states}) > 1
        while states[0].status is Status.IN_DEAL:
            turn = states[0].deal.turn
            views = [observe(s, turn) for s in states]
            legal = legal_actions(states[0], turn)
            choices = {
                choose_action(level, v, legal, ai_rng(trial, 1, 1, turn, len(v.history)))
                for v in views
            }
            if turn == seat:
                assert len({v for v in views}) == 1
                assert len(choices) == 1
                checked += 1
            # Everyone follows the first deal's AI so that the public actions stay equal.
            view = views[0]
            action = choose_action(level, view, legal, ai_rng(trial, 1, 1, turn, len(view.history)))
            for s in states:
                if s.status is Status.IN_DEAL:
                    for event in decide(s, Act(turn, action)):
                        evolve(s, event)
    assert checked > 40


@pytest.mark.parametrize("make", [normal_table, easy_table])
def test_heuristic_tables_are_distributions(make):
    for rows in make():
        if rows is not None:
            for row in rows:
                assert min(row) >= 0 and sum(row) == pytest.approx(1.0)


@pytest.mark.slow
def test_normal_is_far_more_exploitable_than_the_target():
    assert exploitability(normal_table())["average"] > 0.05


BANNED = {
    "fold while holding is free": lambda beats, legal: "hold" in legal and {"fold"},
    "raise a bottom-quarter hand after looking": lambda beats, legal: (
        beats is not None and beats < 0.25 and {"raise"}
    ),
    "call with a bottom-tenth hand after looking": lambda beats, legal: (
        beats is not None and beats < 0.10 and {"call"}
    ),
    "fold a top-tenth hand after looking": lambda beats, legal: (
        beats is not None and beats >= 0.90 and {"fold"}
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_never_make_an_absurd_move(level):
    """Every betting situation (fold while matched included), every hand, looked or not."""
    tree = build_tree(matched_fold=True)
    decide_easy = {True: heuristics.easy_looked, False: heuristics.easy_blind}
    checked = 0
    for n in tree.decision_nodes():
        history = view_at(tree, n, None).history
        for hand in [None, *range(121)]:
            looked = hand is not None
            if level == "normal" and not looked:
                continue  # normal always looks first
            legal = engine_legal(tree, n, looked=True)
            legal = tuple(a for a in legal if a != "look")
            view = view_at(tree, n, hand, history)
            choose = heuristics.normal if level == "normal" else decide_easy[looked]
            distribution = choose(view, legal)
            beats = PERCENTILE[hand] if looked else None
            for name, rule in BANNED.items():
                for action in rule(beats, legal) or ():
                    assert distribution.get(action, 0.0) == 0.0, (name, n, hand, distribution)
            assert sum(distribution.values()) == pytest.approx(1.0)
            checked += 1
    assert checked >= 788 * 121


def test_the_levels_still_have_their_character():
    """easy still raises middling hands on a whim and plays blind; normal still folds
    weak hands facing a price."""
    tree = build_tree(matched_fold=True)
    legal = ("call", "raise", "fold")
    facing_a_raise = tree.index[("raise",)]
    middling = min(range(121), key=lambda h: abs(PERCENTILE[h] - 0.5))
    view = view_at(tree, facing_a_raise, middling)
    assert heuristics.easy_looked(view, legal)["raise"] > 0
    assert heuristics.easy(view_at(tree, 0, None), ("look", "hold", "raise", "fold"))["hold"] > 0
    weak = min(range(121), key=lambda h: abs(PERCENTILE[h] - 0.2))
    assert heuristics.normal(view_at(tree, facing_a_raise, weak), legal) == {"fold": 1.0}


def test_a_verifiable_match_s_ai_draws_from_the_documented_stream_of_its_server_seed():
    # docs/fairness.md: HMAC-SHA256(server_seed, "ai:" + material(s, d) + ":{seat}:{step}"),
    # as a big-endian integer, seeds Python's random.Random; written here from that text.
    server_seed = bytes(range(32))
    state = MatchState()
    start = StartMatch(5, seeds=Seeds(server_seed.hex(), "ab" * 32, client_seed="roya"))
    for event in decide(state, start):
        evolve(state, event)
    seat, step = 2, 3
    message = f"ai:roya::::{state.series}:{state.deal.deal_number}:{seat}:{step}"
    digest = hmac.new(server_seed, message.encode(), hashlib.sha256).digest()
    expected = random.Random(int.from_bytes(digest, "big"))
    drawn = decision_rng(state, seat, step)
    assert [drawn.random() for _ in range(4)] == [expected.random() for _ in range(4)]
    # Not the stream the match recorded as its legacy `seed`, which is public.
    legacy = ai_rng(state.seed, state.series, state.deal.deal_number, seat, step)
    assert decision_rng(state, seat, step).random() != legacy.random()
