"""GET /matches/{id}/review: the stored reviews of a seat's decisions, never half made, to the
seat alone, at tables of several humans only once the match is over; a read never writes."""

import random
import uuid
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.ai.review import grade
from games.models import DealReview
from games.review import commands as review_commands
from tests.http.play import play_match, play_table
from tests.http.problems import assert_problem

pytestmark = pytest.mark.django_db


def review(client, match_id):
    return client.get(f"/api/v1/matches/{match_id}/review")


def post(client, url: str, body: dict | None = None):
    return client.post(url, body or {}, format="json")


def first_deal_over(client, view: dict, rng: random.Random) -> dict:
    while view["status"] == "in_deal":
        action = rng.choice(view["legal_actions"])
        view = post(client, f"/api/v1/matches/{view['id']}/actions", {"action": action}).json()
    return view


def test_a_deal_ends_its_review_is_due_then_answered_once_computed(client, new_match):
    rng = random.Random(3)
    view = first_deal_over(client, new_match(seed=3), rng)
    assert view["status"] == "deal_over"
    # The write that ended the deal made its review due: no body yet, so no review at all.
    assert list(DealReview.objects.values_list("series", "deal_number", "body")) == [(1, 1, None)]
    pending = review(client, view["id"])
    assert_problem(pending, 503, "review_pending")
    assert pending["Retry-After"] == "1"
    assert review_commands.reviews_compute(match_id=view["id"]) == (1, 0)
    body = review(client, view["id"]).json()
    assert (body["id"], body["your_seat"], body["status"]) == (view["id"], 0, "deal_over")
    [mine] = body["seats"]
    [deal] = mine["deals"]
    assert (deal["series"], deal["deal_number"], deal["dealer"]) == (1, 1, view["dealer"])
    assert [o["seat"] for o in deal["opponents"]] == [1, 2, 3]
    assert {o["basis"] for o in deal["opponents"]} == {"exact"} and mine["bases"] == ["exact"]
    check_figures(deal)
    assert mine["lost"] == deal["lost"] and mine["counts"] == deal["counts"]


def check_figures(deal: dict) -> None:
    """Each decision's loss is the best value minus the chosen one's, its class by the loss,
    and the deal's sums are its decisions'."""
    losses = []
    for decision in deal["decisions"]:
        values = {v["action"]: Fraction(v["value"]) for v in decision["values"]}
        best = max(values.values())
        lost = best - values[decision["action"]]
        assert Fraction(decision["lost"]) == lost
        assert decision["lost_rounded"] == round(float(lost), 2)
        assert [v["best"] for v in decision["values"]] == [v == best for v in values.values()]
        assert decision["grade"] == (grade(lost) if decision["by"] == "player" else None)
        if decision["grade"]:
            losses.append(lost)
    assert Fraction(deal["lost"]) == sum(losses)
    assert sum(deal["counts"].values()) == len(losses)


def test_a_whole_match_the_positions_as_the_seat_saw_them(client, new_match):
    view = new_match(seed=7)
    events = []
    view = play_match(client, view, random.Random(7))
    review_commands.reviews_compute(match_id=view["id"], budget_seconds=60)
    body = review(client, view["id"]).json()
    [mine] = body["seats"]
    assert [d["deal_number"] for d in mine["deals"]] == list(range(1, 13))
    listed = client.get(f"/api/v1/matches/{view['id']}/events").json()["events"]
    deals = {}
    for event in listed:
        if event["type"] == "deal_started":
            deals[event["deal_number"]] = moves = []
        elif event["type"] == "action":
            moves.append(event)
    for deal in mine["deals"]:
        check_figures(deal)
        moves = deals[deal["deal_number"]]
        mine_at = [i for i, m in enumerate(moves) if m["seat"] == 0]
        assert [moves[i]["action"] for i in mine_at] == [d["action"] for d in deal["decisions"]]
        for at, decision in zip(mine_at, deal["decisions"], strict=True):
            position = decision["position"]
            before = [{"seat": m["seat"], "action": m["action"], "by": m["by"]} for m in moves[:at]]
            assert position["moves"] == before
            looked = any(m["seat"] == 0 and m["action"] == "look" for m in moves[:at])
            assert decision["looked"] is looked
            assert (position["hand"] is not None) is looked
            assert position["pot"] == sum(s["stake"] for s in position["seats"])
            assert position["seats"][0]["looked"] is looked
    events.extend(listed)
    counted = [d for deal in mine["deals"] for d in deal["decisions"] if d["grade"]]
    assert sum(mine["counts"].values()) == len(counted)
    assert Fraction(mine["lost"]) == sum(Fraction(d["lost"]) for d in counted)


def test_only_the_seat_sees_it(client, make_client, new_match):
    view = first_deal_over(client, new_match(seed=3), random.Random(3))
    review_commands.reviews_compute(match_id=view["id"])
    assert_problem(review(make_client("Babak"), view["id"]), 404, "not_found")
    assert_problem(review(client, uuid.uuid4()), 404, "not_found")
    client.credentials()
    assert_problem(review(client, view["id"]), 401, "not_authenticated")


def test_a_table_of_several_humans_is_reviewed_once_the_match_is_over(make_client):
    clients = [make_client(name) for name in ("Roya", "Babak")]
    view = post(clients[0], "/api/v1/matches", {"seed": 2, "humans": 2}).json()
    view = post(clients[1], f"/api/v1/matches/{view['id']}/join", {"invite": view["invite"]})
    view = view.json()
    assert_problem(review(clients[1], view["id"]), 409, "review_not_yet")
    view = play_table(clients, view, random.Random(2))
    assert_problem(review(clients[0], view["id"]), 503, "review_pending")
    review_commands.reviews_compute(match_id=view["id"], budget_seconds=600)
    for seat, each in enumerate(clients):
        body = review(each, view["id"]).json()
        # Not verifiable: another human's hands are not all the viewer's to see.
        assert [s["seat"] for s in body["seats"]] == [seat]
        other = 1 - seat
        for deal in body["seats"][0]["deals"]:
            basis = {o["seat"]: o["basis"] for o in deal["opponents"]}
            assert basis[other] == "human_as_hard"
            check_figures(deal)


def test_a_read_is_two_statements_and_writes_nothing(client, new_match):
    view = first_deal_over(client, new_match(seed=3), random.Random(3))
    review_commands.reviews_compute(match_id=view["id"])
    review(client, view["id"])  # the token's lookup is cached after the first request
    with CaptureQueriesContext(connection) as queries:
        assert review(client, view["id"]).status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    assert not [s for s in sql if s.split()[0].upper() in ("INSERT", "UPDATE", "DELETE")], sql
    assert len(sql) <= 4, sql


def test_a_review_stored_is_checked_against_the_events(client, new_match):
    from games.match.integrity import check_matches

    view = first_deal_over(client, new_match(seed=3), random.Random(3))
    review_commands.reviews_compute(match_id=view["id"])
    [(_, problems)] = list(check_matches([uuid.UUID(view["id"])]))
    assert problems == []
    row = DealReview.objects.get()
    row.body["0"]["lost"] = "7"
    row.save(update_fields=["body"])  # Citus refuses a write of the match_id, even unchanged
    [(_, problems)] = list(check_matches([uuid.UUID(view["id"])]))
    assert problems == ["review of series 1 deal 1: stored differs from the replay's"]


def test_each_deal_end_replays_from_the_last_and_stores_what_the_whole_replay_gives(
    client, new_match, monkeypatch
):
    """As the worker does: the reviews at each deal's end, in one process. After the first,
    each call reads the match's events from where the last left them (the kept replay), and
    every stored body is the one the match's whole replay gives (check_matches)."""
    from games.match import log as match_log
    from games.match.integrity import check_matches

    reads, lines = [], match_log.match_event_lines
    monkeypatch.setattr(
        review_commands.log,
        "match_event_lines",
        lambda **kw: reads.append(kw.get("first", 1)) or lines(**kw),
    )

    def at_deal_end(view):
        if view["status"] in ("deal_over", "finished"):
            assert review_commands.reviews_compute(match_id=view["id"], budget_seconds=60) == (1, 0)

    view = play_match(client, new_match(seed=11), random.Random(11), on_view=at_deal_end)
    assert len(reads) == 12 and reads[0] == 1 and all(first > 1 for first in reads[1:])
    assert DealReview.objects.filter(match_id=view["id"], body__isnull=False).count() == 12
    [(_, problems)] = list(check_matches([uuid.UUID(view["id"])]))
    assert problems == []


def test_a_due_deal_the_kept_replay_passed_is_reviewed_from_the_first_event(client, new_match):
    """A review made due after the kept replay went past its deal (here: stored, then due
    again, as the sweep makes due the deals that ended before reviews were kept) is worked
    out by replaying the match anew, with the same body."""
    view = first_deal_over(client, new_match(seed=3), random.Random(3))
    review_commands.reviews_compute(match_id=view["id"])
    row = DealReview.objects.get()
    body = row.body
    DealReview.objects.filter(pk=row.pk).update(body=None, reviewed_at=None)
    assert review_commands.reviews_compute(match_id=view["id"]) == (1, 0)
    assert DealReview.objects.get().body == body
