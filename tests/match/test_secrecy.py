"""No response and no event that the human receives holds a card it may not see."""

import random

import pytest

from games.review import commands as review_commands
from tests.http.play import play_match
from tests.http.secrecy import check_event, check_review, check_view

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", range(8))
def test_no_response_or_event_leaks_a_hidden_hand(client, new_match, seed):
    responses = [new_match(seed=seed)]
    final = play_match(client, responses[0], random.Random(seed), on_view=responses.append)
    shown = sum(check_view(view) for view in responses)
    events = client.get(f"/api/v1/matches/{final['id']}/events").json()["events"]
    shown += sum(check_event(event, final["id"]) for event in events)
    review_commands.reviews_compute(match_id=final["id"], budget_seconds=60)
    review = client.get(f"/api/v1/matches/{final['id']}/review").json()
    assert len(review["seats"][0]["deals"]) == 12
    # The review shows the seat's own hand in the positions after it looked, and no other.
    assert check_review(review, final["id"], 0) > 0 or not any(
        event["type"] == "action" and event["seat"] == 0 and event["action"] == "look"
        for event in events
    )
    # The check saw other seats' hands at showdowns, so it is not vacuous.
    assert shown > 0
