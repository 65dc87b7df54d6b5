"""Every bad input to the tournaments' operations is a 4xx problem with its code, and
changes nothing (#37 item 8)."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, Tournament
from tests.tournaments.support import BASE, create, enter, past_deadline, terms

pytestmark = pytest.mark.django_db


def _refused(response, status: int, code: str) -> None:
    assert (response.status_code, response.json()["code"]) == (status, code), response.json()


def _later(**offsets) -> str:
    return (timezone.now() + timedelta(**offsets)).isoformat()


@pytest.mark.parametrize(
    ("changes", "status", "code"),
    [
        ({"ai_level": "expert"}, 422, "tournament_level_refused"),
        ({"ai_level": "grandmaster"}, 422, "tournament_level_refused"),
        ({"entry_closes_at": _later(minutes=-5)}, 422, "invalid_entry_window"),
        ({"deadline": _later(minutes=10)}, 422, "invalid_deadline"),
        ({"name": ""}, 400, "validation_error"),
        ({"name": "x" * 81}, 400, "validation_error"),
        # ESC steers a terminal: this name would retitle the window of everyone shown it.
        ({"name": "Sunday\x1b]0;pwned\x07"}, 400, "validation_error"),
        ({"name": "Sunday\nduplicate"}, 400, "validation_error"),
        ({"cap": 0}, 400, "validation_error"),
        ({"seed": 3}, 400, "unknown_field"),
    ],
)
def test_terms_that_do_not_hold_are_refused_and_nothing_is_created(client, changes, status, code):
    _refused(client.post(BASE, terms(**changes), format="json"), status, code)
    assert not Tournament.objects.exists()


def test_a_name_of_a_megabyte_is_refused_before_it_is_read(client):
    _refused(client.post(BASE, terms(name="x" * 2**20), format="json"), 413, "request_too_large")
    assert not Tournament.objects.exists()


def _entry(client, tournament_id) -> object:
    return client.post(f"{BASE}/{tournament_id}/entries", {}, format="json")


def test_entries_refused_leave_no_match(make_client):
    owner, roya, babak = make_client("Owner"), make_client("Roya"), make_client("Babak")
    full = create(owner, cap=1)
    enter(roya, full)
    _refused(_entry(roya, full["id"]), 409, "already_entered")
    _refused(_entry(babak, full["id"]), 409, "tournament_full")
    _refused(_entry(babak, uuid.uuid4()), 404, "not_found")
    upcoming = create(owner, entry_opens_at=_later(minutes=5), entry_closes_at=_later(minutes=9))
    _refused(_entry(babak, upcoming["id"]), 409, "entry_not_open")
    over = create(owner)
    Tournament.objects.filter(pk=over["id"]).update(entry_closes_at=timezone.now())
    _refused(_entry(babak, over["id"]), 409, "entry_closed")
    closed = create(owner)
    past_deadline(closed)
    _refused(_entry(babak, closed["id"]), 409, "entry_closed")
    assert Match.objects.filter(owner=babak.player).count() == 0
    assert Match.objects.filter(owner=roya.player).count() == 1


def test_the_standings_of_an_unknown_tournament_are_not_found(client):
    _refused(client.get(f"{BASE}/{uuid.uuid4()}/standings"), 404, "not_found")
    _refused(client.get(f"{BASE}/{uuid.uuid4()}"), 404, "not_found")
