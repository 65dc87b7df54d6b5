"""What a viewer may see of the cards: the checks that test_secrecy and the wire-level leak
tests share."""

import functools

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


@functools.cache
def true_hands(match_id, series, deal_number):
    """The deal's four hands, as stored. A dealt deal's are read once per process: the leak
    tests check every deal result that every role sees at every step against them, and read
    them twice from the database each time (a quarter of the spectator leak test's time)."""
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


def eyes(seat: int | None, left_at: int | None, seq: int) -> int | None:
    """The seat whose cards the player seated at `seat` may see in event `seq`: their own,
    up to their own player_left at seq `left_at` (None: they have not left), and none after:
    they watch as a live spectator."""
    return seat if left_at is None or seq <= left_at else None


def check_figures(seats: list[dict], hands: list, revealed: bool) -> bool:
    """A deal result's skill figures show only where its viewer may see all four hands (or
    the series' seed is revealed); whether it showed any."""
    shown = any(seat.get("skill") for seat in seats)
    if shown and not revealed:
        assert None not in hands, (seats, hands)
    return shown


def check_view(view: dict, left_at: int | None = None) -> int:
    """A MatchView, or a write's answer with the events it appended, for the viewer at
    `your_seat`, who left the table at seq `left_at` if given: since then they see the
    match as a live spectator, no cards and no moves of their own."""
    seat = view["your_seat"]
    viewer = seat if left_at is None else None
    me = view["seats"][seat]
    if viewer is None:
        assert view["your_cards"] is None and view["legal_actions"] == []
    elif view["deal_number"] == 0:  # a table waiting for its humans: no cards yet
        assert view["your_cards"] is None
    elif view["status"] == "in_deal" and not me["looked"]:
        assert view["your_cards"] is None
    else:
        hands = true_hands(view["id"], view["series"], view["deal_number"])
        assert view["your_cards"] == list(hands[viewer])
    last = view["last_deal"]
    shown = check_result(last, view["id"], viewer) if last else 0
    if last:
        revealed = view["fairness"]["server_seed"] is not None
        check_figures(last["seats"], [each["hand"] for each in last["seats"]], revealed)
    allowed_paths = {("your_cards",)} | {
        ("last_deal", "seats", index, "hand") for index in range(4)
    }
    events = view.get("events", [])
    for path, _ in hands_in({key: value for key, value in view.items() if key != "events"}):
        assert path in allowed_paths, path
    return shown + sum(
        check_event(event, view["id"], eyes(seat, left_at, event["seq"])) for event in events
    )


def check_record(record: dict, match_id, viewer: int, left_at: int | None = None) -> int:
    """A seat's record, of a player who left the table at seq `left_at` if given: a deal's
    hands only as its result may show them to the eyes it ended under (a result follows the
    deal's last move), every hand once a verifiable series ended and revealed its seed; each
    shown hand the one dealt; skill figures only where all four hands show; a deal's review
    only once the seed is revealed, its hands the reviewed seats' own. How many deals
    showed figures."""
    figures = 0
    for series in record["series"]:
        for deal in series["deals"]:
            hands = true_hands(match_id, series["series"], deal["deal_number"])
            result = deal["result"]
            if result is not None:
                seen_by = eyes(viewer, left_at, deal["moves"][-1]["seq"] + 1)
                check_result({**result, **deal, "series": series["series"]}, match_id, seen_by)
                figures += check_figures(result["seats"], deal["hands"], False)
            for seat in deal.get("review") or ():  # only once every hand may be seen
                assert series["server_seed"], deal
                for decision in seat["decisions"]:
                    for path, hand in hands_in(decision):
                        assert path == ("position", "hand"), path
                        assert hand == list(hands[seat["seat"]])
            for seat, hand in enumerate(deal["hands"]):
                if series["server_seed"]:  # dealt again from the seeds, in the deck's order
                    assert sorted(hand) == sorted(hands[seat])
                    continue
                shown = result is not None and result["seats"][seat]["hand"] is not None
                assert hand == (list(hands[seat]) if shown else None), (deal, seat)
    return figures


def check_review(review: dict, match_id, viewer: int, revealed: bool = False) -> int:
    """A review (GET /matches/{id}/review) for the seat `viewer`: another seat's decisions
    only where every hand may be seen (`revealed`: a verifiable series that ended); a hand only
    in a decision's position, the reviewed seat's own as dealt, and only once its player (or
    the clock for them) looked at it, never after a look the AI made for a human who left.
    How many hands it showed."""
    shown = 0
    for index, seat in enumerate(review["seats"]):
        assert seat["seat"] == viewer if index == 0 else revealed, (seat["seat"], viewer)
        for path, _ in hands_in({key: value for key, value in seat.items() if key != "deals"}):
            raise AssertionError(f"a hand outside the decisions: {path}")
        for deal in seat["deals"]:
            hands = true_hands(match_id, deal["series"], deal["deal_number"])
            for decision in deal["decisions"]:
                position = decision["position"]
                for path, hand in hands_in(decision):
                    assert path == ("position", "hand"), path
                    assert hand == list(hands[seat["seat"]])
                    shown += 1
                looked = any(
                    move["seat"] == seat["seat"] and move["action"] == "look" and move["by"] != "ai"
                    for move in position["moves"]
                )
                assert (position["hand"] is not None) is looked, decision
    return shown
