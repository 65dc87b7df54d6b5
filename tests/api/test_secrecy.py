"""No response and no event that the human receives holds a card it may not see."""

import random

import pytest

from games.engine import RANKS, evaluate
from games.engine.state import hands_from_deck
from games.models import Deal
from tests.api.play import play_match

pytestmark = pytest.mark.django_db


def hands_in(value, path=()):
    """Every list of rank names anywhere in a JSON value, with its path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from hands_in(item, (*path, key))
    elif isinstance(value, list):
        if value and all(isinstance(item, str) and item in RANKS for item in value):
            yield path, value
        else:
            for index, item in enumerate(value):
                yield from hands_in(item, (*path, index))


def true_hands(match_id, series, deal_number):
    deal = Deal.objects.get(match_id=match_id, series=series, number=deal_number)
    return hands_from_deck(tuple(deal.deck), deal.dealer)


def check_result(result: dict, match_id) -> int:
    """A settled deal shows hands only at a showdown, never a folded one (but your own)."""
    hands = true_hands(match_id, result["series"], result["deal_number"])
    shown = 0
    for seat in result["seats"]:
        allowed = seat["seat"] == 0 or (result["outcome"] == "showdown" and not seat["folded"])
        if allowed:
            assert seat["hand"] == list(hands[seat["seat"]])
            assert seat["category"] == evaluate(hands[seat["seat"]]).category
            shown += seat["seat"] != 0
        else:
            assert seat["hand"] is None and seat["category"] is None
    return shown


def check_view(view: dict) -> int:
    hands = true_hands(view["id"], view["series"], view["deal_number"])
    me = view["seats"][0]
    if view["status"] == "in_deal" and not me["looked"]:
        assert view["your_cards"] is None
    else:
        assert view["your_cards"] == list(hands[0])
    shown = check_result(view["last_deal"], view["id"]) if view["last_deal"] else 0
    allowed_paths = {("your_cards",)} | {
        ("last_deal", "seats", index, "hand") for index in range(4)
    }
    for path, _ in hands_in(view):
        assert path in allowed_paths, path
    return shown


@pytest.mark.parametrize("seed", range(8))
def test_no_response_or_event_leaks_a_hidden_hand(client, new_match, seed):
    responses = [new_match(seed=seed)]
    final = play_match(client, responses[0], random.Random(seed), on_view=responses.append)
    shown = sum(check_view(view) for view in responses)
    events = client.get(f"/api/v1/matches/{final['id']}/events").json()["events"]
    for event in events:
        assert "deck" not in event and "seed" not in event
        for path, _ in hands_in(event):
            assert event["type"] == "deal_ended" and path[0] == "seats" and path[2] == "hand"
        if event["type"] == "deal_ended":
            shown += check_result(event, final["id"])
    # The check saw other seats' hands at showdowns, so it is not vacuous.
    assert shown > 0
