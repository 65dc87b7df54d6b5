"""The expert AI in the services: it watches the match, and sees only what its seat saw."""

import pytest

from games import ai
from games.engine import DealEnded
from games.match import log as match_log
from games.match.commands import match_create
from players.services import player_create
from tests.matches import play

pytestmark = pytest.mark.django_db


def test_expert_seats_get_the_public_record_and_no_hidden_card(monkeypatch):
    calls = []
    real = ai.choose_action

    def spy(level, view, legal, rng, record=()):
        calls.append((view.seat, record))
        return real(level, view, legal, rng, record)

    monkeypatch.setattr(ai, "choose_action", spy)
    owner, _ = player_create(name="Roya")
    row = play(match_create(owner=owner, ai_level="expert", seed=11), deals=5, seed=2)
    events = [event for _, event in match_log.match_events(match_id=row.id)]
    results = [event for event in events if isinstance(event, DealEnded)]
    assert len(results) == 5
    longest = 0
    for seat, record in calls:
        assert seat != 0  # the human's seat is never played by the AI here
        longest = max(longest, len(record))
        # Every hand in the record is the seat's own or one shown at that deal's showdown.
        for deal, result in zip(record, results, strict=False):
            for other in result.seats:
                visible = other.shown or other.seat == seat
                assert deal.hands[other.seat] == (other.hand if visible else None)
        # And it is exactly the record of the stored events as that seat's view gives them.
        assert record == ai.public_record(events, seat)[: len(record)]
    assert longest >= 4  # deals 1 to 4 were watched before deal 5's decisions


def test_other_levels_get_no_record(monkeypatch):
    records = []
    real = ai.choose_action

    def spy(level, view, legal, rng, record=()):
        records.append(record)
        return real(level, view, legal, rng, record)

    monkeypatch.setattr(ai, "choose_action", spy)
    owner, _ = player_create(name="Roya")
    play(match_create(owner=owner, ai_level="hard", seed=11), deals=2, seed=2)
    assert records and all(record == () for record in records)
