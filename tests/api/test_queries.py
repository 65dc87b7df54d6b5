"""An action costs the same number of SQL queries at deal 12 as at deal 1."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match

pytestmark = pytest.mark.django_db

MAX_QUERIES_PER_ACTION = 8


def fold_to_deal(client, view: dict, deal_number: int) -> dict:
    while view["deal_number"] < deal_number or view["status"] != "in_deal":
        if view["status"] == "deal_over":
            view = client.post(f"/api/v1/matches/{view['id']}/next-deal", format="json").json()
        else:
            view = client.post(
                f"/api/v1/matches/{view['id']}/actions", {"action": "fold"}, format="json"
            ).json()
    return view


def look_queries(client, view: dict) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/v1/matches/{view['id']}/actions", {"action": "look"}, format="json"
        )
    assert response.status_code == 200
    return len(queries)


def test_queries_per_action_do_not_grow_with_the_match(
    client, new_match, django_assert_max_num_queries
):
    view = new_match(seed=21)
    at_deal_1 = look_queries(client, view)
    view = fold_to_deal(client, client.get(f"/api/v1/matches/{view['id']}").json(), 12)
    assert Match.objects.get(id=view["id"]).version > 50
    at_deal_12 = look_queries(client, view)
    assert at_deal_1 == at_deal_12 <= MAX_QUERIES_PER_ACTION, (at_deal_1, at_deal_12)
    with django_assert_max_num_queries(MAX_QUERIES_PER_ACTION):
        client.post(f"/api/v1/matches/{view['id']}/actions", {"action": "fold"}, format="json")
