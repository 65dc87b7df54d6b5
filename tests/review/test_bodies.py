"""A match's reviews worked out deal by deal, each deal's end replaying only the events since
the last (games.review.bodies.Replay, as games.review.commands keeps it per process), are
byte for byte the ones the whole match replayed at every deal's end gives. No database."""

import json
import random

import pytest

from games.ai import coach
from games.engine import decode_event, encode_event
from games.management.commands.review_counts import simulated_match
from games.management.commands.review_cpu import (
    deal_ends,
    reviews_deal_by_deal,
    reviews_whole,
)
from games.review import bodies

MATCHES = 3


@pytest.fixture(scope="module", autouse=True)
def warm():
    coach.warm()


def encoded(level: str, seed: int) -> list[str]:
    return [encode_event(event) for event in simulated_match(level, level, seed)]


@pytest.mark.parametrize("level", ["hard", "normal", "easy"])
def test_deal_by_deal_gives_the_whole_match_replays_bodies(level):
    for seed in range(MATCHES):
        lines = encoded(level, 100 + seed)
        whole, _ = reviews_whole(lines, level)
        by_deal, _ = reviews_deal_by_deal(lines, level)
        assert len(whole) == len(deal_ends(lines)) == 12
        assert json.dumps(by_deal) == json.dumps(whole)


@pytest.mark.parametrize("level", ["hard", "normal", "easy"])
def test_read_in_any_chunks_a_deal_ends_review_is_the_same(level):
    """The server reads whatever the log holds when its worker runs: a chunk may stop in
    the middle of a deal, or go on past its end into the next; each deal is reviewed once,
    with the body the whole match's replay gives."""
    rng = random.Random(level)
    for seed in range(MATCHES):
        lines = encoded(level, 200 + seed)
        whole, _ = reviews_whole(lines, level)
        replay, found, seq = bodies.Replay(level), [], 0
        every = {key for _, key in deal_ends(lines)}
        while seq < len(lines):
            upto = min(len(lines), seq + rng.randint(1, 40))
            events = [(s, bodies_event(lines, s)) for s in range(seq + 1, upto + 1)]
            found.extend(bodies.reviews_after(replay, events, every - {k for k, _ in found}))
            seq = upto
            assert replay.seq == seq
        assert json.dumps(found) == json.dumps(whole)


def test_a_deal_ended_before_the_replay_went_on_is_not_reviewed_again():
    """What is not wanted when its deal ends is gone from the replay (commands.reviews_compute
    then replays the match anew): `ended` tells which."""
    lines = encoded("normal", 7)
    (first_end, first), (second_end, second) = deal_ends(lines)[:2]
    replay = bodies.Replay("normal")
    events = [(s, bodies_event(lines, s)) for s in range(1, first_end + 1)]
    assert list(bodies.reviews_after(replay, events, set())) == []
    assert replay.ended == {first}
    events = [(s, bodies_event(lines, s)) for s in range(first_end + 1, second_end + 1)]
    assert [key for key, _ in bodies.reviews_after(replay, events, {first, second})] == [second]
    assert replay.ended == {first, second}


def bodies_event(lines: list[str], seq: int):
    return decode_event(lines[seq - 1])
