"""The match endpoints, through HTTP, on real Postgres."""

import random
from fractions import Fraction

import pytest

from games.engine import MatchState, event_from_dict, replay
from games.models import Deal, Match
from tests.http.play import play_match
from tests.http.problems import assert_problem
from tests.matches import stored_events, stored_seqs

pytestmark = pytest.mark.django_db


def test_create_match_seats_the_caller_at_seat_0_against_three_ai(client, new_match):
    view = new_match(seed=7)
    assert view["your_seat"] == 0
    assert [seat["kind"] for seat in view["seats"]] == ["human", "ai", "ai", "ai"]
    assert view["seats"][0]["name"] == "Roya"
    assert view["status"] == "in_deal"
    assert (view["series"], view["deal_number"]) == (1, 1)
    assert view["seeded"] is True
    assert view["ai_level"] == "hard"
    # Every AI seat that acts before the human has acted: it is the human's turn now.
    assert view["turn"] == 0
    assert view["your_cards"] is None
    assert "look" in view["legal_actions"]
    assert view["pot"] == sum(seat["stake"] for seat in view["seats"])
    assert all(seat["total"] == "0" for seat in view["seats"])
    assert view["last_deal"] is None and view["winners"] is None
    assert view["version"] == len(stored_seqs(view["id"]))


def test_created_match_never_shows_the_seed_or_deck(client, new_match):
    view = new_match(seed=7)
    body = client.get(f"/api/v1/matches/{view['id']}").content.decode()
    events = client.get(f"/api/v1/matches/{view['id']}/events").content.decode()
    assert '"seed"' not in body and '"deck"' not in body
    assert '"seed"' not in events and '"deck"' not in events


def test_look_shows_your_cards_and_keeps_your_turn(client, new_match):
    view = new_match(seed=3)
    response = client.post(
        f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, format="json"
    )
    assert response.status_code == 200
    after = response.json()
    assert len(after["your_cards"]) == 5
    assert after["your_category"] is not None
    assert after["turn"] == 0
    assert "look" not in after["legal_actions"]
    assert after["version"] == view["version"] + 1


def test_list_matches_newest_first_and_paginated(client, new_match):
    ids = [new_match(seed=seed)["id"] for seed in range(3)]
    response = client.get("/api/v1/matches?page_size=2")
    assert response.status_code == 200
    page = response.json()
    assert page["count"] == 3
    assert [match["id"] for match in page["results"]] == ids[::-1][:2]
    assert page["next"] is not None
    second = client.get(page["next"]).json()
    assert [match["id"] for match in second["results"]] == [ids[0]]


def test_get_match_returns_the_same_view(client, new_match):
    view = new_match(seed=5)
    got = client.get(f"/api/v1/matches/{view['id']}").json()
    # A plain read has no `events`: only a write's answer carries what it appended.
    assert got == {key: value for key, value in view.items() if key != "events"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_match_to_finished_with_totals_matching_the_events(client, new_match, seed):
    view = play_match(client, new_match(seed=seed), random.Random(seed))
    assert view["status"] == "finished"
    assert view["deal_number"] == 12
    events = client.get(f"/api/v1/matches/{view['id']}/events").json()["events"]
    assert [event["seq"] for event in events] == list(range(1, view["version"] + 1))
    ended = [event for event in events if event["type"] == "deal_ended"]
    assert [event["deal_number"] for event in ended] == list(range(1, 13))
    totals = [
        sum(
            (Fraction(s["delta"]) for e in ended for s in e["seats"] if s["seat"] == seat),
            Fraction(0),
        )
        for seat in range(4)
    ]
    assert [seat["total"] for seat in view["seats"]] == [str(total) for total in totals]
    assert sum(totals) == 0
    finished = events[-1]
    assert finished["type"] == "match_finished"
    assert finished["totals"] == [str(total) for total in totals]
    best = max(totals)
    assert view["winners"] == finished["winners"] == [s for s in range(4) if totals[s] == best]
    # The stored projection equals the replay of the stored events.
    match = Match.objects.get(id=view["id"])
    stored = [event_from_dict(payload) for payload in stored_events(match.id)]
    assert replay(stored) == MatchState.from_dict(match.state)
    assert Deal.objects.filter(match=match).exclude(outcome="").count() == 12


def test_next_deal_moves_the_dealer_right(client, new_match):
    view = new_match(seed=11)
    dealers = [view["dealer"]]
    rng = random.Random(0)
    for _ in range(3):
        while view["status"] == "in_deal":
            view = client.post(
                f"/api/v1/matches/{view['id']}/actions",
                {"action": "fold" if "fold" in view["legal_actions"] else "hold"},
                format="json",
            ).json()
        assert view["last_deal"]["deal_number"] == view["deal_number"]
        view = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json").json()
        dealers.append(view["dealer"])
    assert rng is not None
    assert [(d - dealers[0]) % 4 for d in dealers] == [0, 1, 2, 3]


def _call_down(client, view: dict) -> dict:
    """Call or hold at every turn until the deal is over."""
    while view["status"] == "in_deal":
        action = "call" if "call" in view["legal_actions"] else "hold"
        view = client.post(
            f"/api/v1/matches/{view['id']}/actions", {"action": action}, format="json"
        ).json()
    return view


def test_restart_resets_totals_and_starts_a_new_series(client, new_match):
    view = _call_down(client, new_match(seed=4))
    # Play on until points have moved (a dealer may win back only its own stake).
    while all(seat["total"] == "0" for seat in view["seats"]):
        view = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json").json()
        view = _call_down(client, view)
    played = view["deal_number"]
    view = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json").json()
    assert view["status"] == "in_deal"
    version = view["version"]
    restarted = client.post(f"/api/v1/matches/{view['id']}/restart", format="json")
    assert restarted.status_code == 200
    view = restarted.json()
    assert (view["series"], view["deal_number"], view["status"]) == (2, 1, "in_deal")
    assert all(seat["total"] == "0" for seat in view["seats"])
    assert view["last_deal"] is None
    events = client.get(f"/api/v1/matches/{view['id']}/events?after={version}").json()["events"]
    assert [e["type"] for e in events][:2] == ["match_restarted", "deal_started"]
    assert events[0]["series"] == 2
    # The abandoned deal counts for nobody and stays in the history.
    deals = list(Deal.objects.filter(match_id=view["id"], series=1).order_by("deal_number"))
    assert len(deals) == played + 1
    assert all(deal.outcome in ("showdown", "uncontested") for deal in deals[:-1])
    assert deals[-1].outcome == "abandoned"


def test_restart_after_the_match_finished(client, new_match):
    view = play_match(client, new_match(seed=9), random.Random(9))
    view = client.post(f"/api/v1/matches/{view['id']}/restart", format="json").json()
    assert (view["status"], view["series"], view["winners"]) == ("in_deal", 2, None)


def test_events_after_returns_only_later_events(client, new_match):
    view = new_match(seed=2)
    everything = client.get(f"/api/v1/matches/{view['id']}/events").json()
    later = client.get(f"/api/v1/matches/{view['id']}/events?after=2").json()
    assert later["events"] == everything["events"][2:]
    assert later["version"] == view["version"]
    assert later["has_more"] is False
    latest = client.get(f"/api/v1/matches/{view['id']}/events?after={view['version']}").json()
    assert latest["events"] == []
    past = client.get(f"/api/v1/matches/{view['id']}/events?after=999")
    assert assert_problem(past, 400, "after_out_of_range")["latest"] == view["version"]


def test_player_me_reports_stats(client, new_match):
    view = play_match(client, new_match(seed=1), random.Random(1))
    me = client.get("/api/v1/players/me").json()
    # Seeded matches do not count in stats.
    assert me["stats"] == {
        "matches_played": 0,
        "matches_finished": 0,
        "matches_won": 0,
        "points_total": "0",
    }
    Match.objects.filter(id=view["id"]).update(seeded=False)
    stats = client.get("/api/v1/players/me").json()["stats"]
    assert stats["matches_played"] == stats["matches_finished"] == 1
    assert stats["matches_won"] == (1 if 0 in view["winners"] else 0)
    assert stats["points_total"] == view["seats"][0]["total"]
