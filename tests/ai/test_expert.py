"""The expert level: what it sees, its model of the opponents, its certified mixes."""

import json
import random
from dataclasses import replace

import pytest

from games.ai import choose_action, public_record
from games.ai.expert import (
    ASSET_PATH,
    BLUEPRINT,
    DECISION_INDEX,
    EPS_DENOMINATOR,
    FOLLOW_BLUEPRINT,
    StrategyError,
    load_expert,
    opponent_model,
    posterior,
    read_asset,
)
from games.ai.hands import N_HANDS
from games.ai.strategy import SCALE, load_strategy
from games.ai.tables import engine_legal, view_at
from games.ai.tournament import play_match
from games.ai.tree import TREE
from games.engine import DealEnded

BOUND = 0.02


@pytest.fixture(scope="module")
def expert():
    return load_expert()


def test_the_record_holds_only_what_the_seat_saw():
    _, _, events = play_match(("expert", "easy", "normal", "hard"), seed=5)
    ended = [e for e in events if isinstance(e, DealEnded)]
    shown_somewhere = False
    for seat in range(4):
        record = public_record(events, seat)
        assert len(record) == len(ended) == 12
        for deal, result in zip(record, ended, strict=True):
            for other in result.seats:
                visible = other.shown or other.seat == seat
                assert deal.hands[other.seat] == (other.hand if visible else None)
                shown_somewhere |= other.shown and other.seat != seat
    assert shown_somewhere  # the match had showdowns: the test looked at shown hands


@pytest.mark.slow
def test_without_a_record_the_expert_plays_exactly_as_hard():
    for n in TREE.decision_nodes()[::5]:
        for h in range(0, N_HANDS, 11):
            view, legal = view_at(TREE, n, h), engine_legal(TREE, n, looked=True)
            for seed in range(3):
                hard = choose_action("hard", view, legal, random.Random(seed))
                assert choose_action("expert", view, legal, random.Random(seed)) == hard


@pytest.mark.parametrize("archetype", ["easy", "normal", "hard"])
def test_the_model_recognises_opponents_who_play_an_archetype(archetype):
    _, _, events = play_match(("expert", archetype, archetype, archetype), seed=4)
    record = public_record(events, 0)
    assert opponent_model(record, 0) == (archetype,) * 3
    assert opponent_model(record[:0], 0) == (BLUEPRINT,) * 3  # the prior: the blueprint
    for seat in (1, 2, 3):
        assert posterior(record, seat)[archetype] > 0.9


def test_the_model_tells_seats_apart():
    _, _, events = play_match(("expert", "easy", "hard", "normal"), seed=4)
    assert opponent_model(public_record(events, 0), 0) == ("easy", "hard", "normal")


def _node_where_the_exploit_differs(expert, assignment):
    """A (node, hand) where T_A picks an action the blueprint plays at most half the time."""
    rows = load_strategy().rows
    table = expert.choices[assignment]
    for n, i in DECISION_INDEX.items():
        for h in range(N_HANDS):
            t = table[i * N_HANDS + h]
            if t != FOLLOW_BLUEPRINT and rows[n][h][t] < SCALE // 2:
                return n, h, t
    raise AssertionError("the exploiting strategy never departs from the blueprint")


def test_the_expert_mixes_exactly_its_share_of_the_exploit(expert):
    _, _, events = play_match(("expert", "easy", "easy", "easy"), seed=3)
    record = public_record(events, 0)
    assignment = opponent_model(record, 0)
    assert assignment == ("easy",) * 3
    n, h, t = _node_where_the_exploit_differs(expert, assignment)
    view = view_at(TREE, n, h)
    view = replace(view, seat=0, dealer=-TREE.player[n] % 4)  # the record's seat 0
    legal = engine_legal(TREE, n, looked=True)
    draws = 20_000
    picked = sum(
        choose_action("expert", view, legal, random.Random(i), record) == TREE.actions[n][t]
        for i in range(draws)
    )
    share = expert.shares[assignment] / EPS_DENOMINATOR
    expected = (1 - share) * load_strategy().rows[n][h][t] / SCALE + share
    assert abs(picked / draws - expected) < 4 * (expected * (1 - expected) / draws) ** 0.5
    assert picked / draws > load_strategy().rows[n][h][t] / SCALE + share / 2


def test_every_share_is_certified_within_the_bound(expert):
    header = expert.header
    assert header["bound"] == BOUND
    assert len(expert.shares) == 26
    for key, measured in header["exploitability"].items():
        assert 0 < measured <= BOUND
        assert 0 < header["shares"][key] <= EPS_DENOMINATOR


@pytest.fixture(scope="module")
def builder():
    """The expert's builder, made once: it measures its blueprint as it starts, and mixing
    copies its rows."""
    from games.ai.expert_training import Builder

    return Builder()


@pytest.mark.slow
@pytest.mark.parametrize("assignment", [("easy",) * 3, ("normal",) * 3, ("hard", "hard", "easy")])
def test_a_mix_measured_again_is_within_the_bound(expert, builder, assignment):
    rows = builder.mix_of(expert.choices[assignment], expert.shares[assignment])
    measured = builder.exploitability(rows)
    assert measured == pytest.approx(
        expert.header["exploitability"][",".join(assignment)], abs=1e-6
    )
    assert measured <= BOUND
    # A larger share would break the bound: the share is not needlessly small.
    double = builder.mix_of(expert.choices[assignment], 2 * expert.shares[assignment])
    assert builder.exploitability(double) > BOUND


def test_the_loader_refuses_a_damaged_asset(tmp_path):
    data = json.loads(ASSET_PATH.read_text())
    data["sha256"] = "0" * 64
    path = tmp_path / "expert.json"
    path.write_text(json.dumps(data))
    with pytest.raises(StrategyError, match="checksum"):
        read_asset(path)
    with pytest.raises(StrategyError, match="missing.*train_expert"):
        read_asset(tmp_path / "absent.json")
    data = json.loads(ASSET_PATH.read_text())
    data["blueprint_sha256"] = "0" * 64
    path.write_text(json.dumps(data))
    with pytest.raises(StrategyError, match="another hard table"):
        read_asset(path)
