"""What a viewer may see of the cards: the checks that test_secrecy and the wire-level leak
tests share."""

from games.engine import RANKS, evaluate
from games.engine.state import hands_from_deck
from games.models import Deal
from tests.matches import stored_deck


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
    deal = Deal.objects.get(match_id=match_id, series=series, deal_number=deal_number)
    return hands_from_deck(stored_deck(match_id, series, deal_number), deal.dealer)


def check_result(result: dict, match_id, viewer: int = 0) -> int:
    """A settled deal shows hands only at a showdown, never a folded one (but your own)."""
    hands = true_hands(match_id, result["series"], result["deal_number"])
    shown = 0
    for seat in result["seats"]:
        allowed = seat["seat"] == viewer or (result["outcome"] == "showdown" and not seat["folded"])
        if allowed:
            assert seat["hand"] == list(hands[seat["seat"]])
            assert seat["category"] == evaluate(hands[seat["seat"]]).category
            shown += seat["seat"] != viewer
        else:
            assert seat["hand"] is None and seat["category"] is None
    return shown


def check_event(event: dict, match_id, viewer: int = 0) -> int:
    """An event shows hands only in a deal's result, as check_result allows."""
    assert "deck" not in event and "seed" not in event
    for path, _ in hands_in(event):
        assert event["type"] == "deal_ended" and path[0] == "seats" and path[2] == "hand"
    return check_result(event, match_id, viewer) if event["type"] == "deal_ended" else 0


def check_view(view: dict) -> int:
    """A MatchView, or a write's answer with the events it appended, for the viewer at
    `your_seat`."""
    viewer = view["your_seat"]
    me = view["seats"][viewer]
    if view["deal_number"] == 0:  # a table waiting for its humans: no cards yet
        assert view["your_cards"] is None
    elif view["status"] == "in_deal" and not me["looked"]:
        assert view["your_cards"] is None
    else:
        hands = true_hands(view["id"], view["series"], view["deal_number"])
        assert view["your_cards"] == list(hands[viewer])
    last = view["last_deal"]
    shown = check_result(last, view["id"], viewer) if last else 0
    allowed_paths = {("your_cards",)} | {
        ("last_deal", "seats", index, "hand") for index in range(4)
    }
    events = view.get("events", [])
    for path, _ in hands_in({key: value for key, value in view.items() if key != "events"}):
        assert path in allowed_paths, path
    return shown + sum(check_event(event, view["id"], viewer) for event in events)
