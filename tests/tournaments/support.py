"""Tournaments made and played through the API, for the tests."""

from datetime import timedelta

from django.utils import timezone

from games.models import Tournament

BASE = "/api/v1/tournaments"


def terms(**changes) -> dict:
    """Terms whose entry window is open now, with the deadline an hour away."""
    now = timezone.now()
    return {
        "name": "Sunday duplicate",
        "ai_level": "normal",
        "entry_opens_at": (now - timedelta(minutes=1)).isoformat(),
        "entry_closes_at": (now + timedelta(minutes=30)).isoformat(),
        "deadline": (now + timedelta(hours=1)).isoformat(),
        **changes,
    }


def create(client, **changes) -> dict:
    response = client.post(BASE, terms(**changes), format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def enter(client, tournament: dict) -> dict:
    response = client.post(f"{BASE}/{tournament['id']}/entries", {}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def past_deadline(tournament: dict) -> None:
    """Move the tournament's window and deadline into the past: its close is due."""
    now = timezone.now()
    Tournament.objects.filter(pk=tournament["id"]).update(
        entry_opens_at=now - timedelta(hours=3),
        entry_closes_at=now - timedelta(hours=2),
        deadline=now - timedelta(seconds=1),
    )


def play(client, view: dict, choose) -> dict:
    """Play the match to its end: `choose(decision, legal)` picks each action, `decision`
    counting the player's decisions from 0."""
    decision = 0
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            url, body = f"/api/v1/matches/{view['id']}/next-deal", {}
        else:
            action = choose(decision, view["legal_actions"])
            decision += 1
            url, body = f"/api/v1/matches/{view['id']}/actions", {"action": action}
        response = client.post(url, body, format="json")
        assert response.status_code == 200, response.json()
        view = response.json()
    return view


def steady(decision: int, legal: list[str]) -> str:
    """Look, then call while it may, else hold, else the first legal action."""
    for action in ("look", "call", "hold"):
        if action in legal:
            return action
    return legal[0]


def record(client, match_id: str) -> dict:
    response = client.get(f"/api/v1/matches/{match_id}/record")
    assert response.status_code == 200, response.json()
    return response.json()


def played(record: dict) -> list[tuple]:
    """Each deal's dealer, hands and moves (seat, action): what entrants who act alike
    must share, leaving out what each match draws for itself."""
    (series,) = record["series"]
    return [
        (
            deal["dealer"],
            deal["hands"],
            [(move["seat"], move["action"]) for move in deal["moves"]],
        )
        for deal in series["deals"]
    ]
