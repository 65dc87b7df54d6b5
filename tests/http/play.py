"""Playing whole matches through the HTTP API, for the tests."""

import random


def _post(client, url: str, body: dict | None = None) -> dict:
    response = client.post(url, body or {}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def play_match(client, view: dict, rng: random.Random, *, on_view=None) -> dict:
    """Play random legal actions from `view` to the end of the match and return the final
    view; `on_view` is called with every response body."""
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = _post(client, f"/api/v1/matches/{view['id']}/next-deal")
        else:
            assert view["turn"] == view["your_seat"], "the API returned while an AI seat was to act"
            action = rng.choice(view["legal_actions"])
            view = _post(client, f"/api/v1/matches/{view['id']}/actions", {"action": action})
        if on_view:
            on_view(view)
    return view


def play_table(clients: list, view: dict, rng: random.Random, *, on_view=None) -> dict:
    """Play a table to its end: `clients[seat]` acts for the human at `seat` whenever it is
    that seat's turn, and the owner starts each next deal. Returns the last answer."""
    while view["status"] not in ("finished", "abandoned"):
        if view["status"] == "deal_over":
            view = _post(clients[0], f"/api/v1/matches/{view['id']}/next-deal")
        else:
            seat = view["turn"]
            assert seat < len(clients), "the API returned while an AI seat was to act"
            mine = clients[seat].get(f"/api/v1/matches/{view['id']}").json()
            if on_view:
                on_view(mine)
            action = rng.choice(mine["legal_actions"])
            url = f"/api/v1/matches/{view['id']}/actions"
            view = _post(clients[seat], url, {"action": action})
        if on_view:
            on_view(view)
    return view
