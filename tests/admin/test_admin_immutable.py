"""Nothing in the admin changes a match's history: events, deals and seats cannot be added,
changed or deleted, and a match can only be deleted whole, with its events."""

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from games.models import Deal, EventBatch, Match, Seat
from players.models import Player
from tests.matches import stored_seqs

pytestmark = pytest.mark.django_db


def snapshot(match: Match) -> tuple:
    return (
        Match.objects.filter(id=match.id).values().get(),
        list(EventBatch.objects.filter(match=match).values()),
        list(Deal.objects.filter(match=match).values()),
        list(Seat.objects.filter(match=match).values()),
    )


@pytest.mark.parametrize("model", [EventBatch, Deal, Seat])
def test_events_deals_and_seats_have_no_pages_of_their_own(admin_client, model):
    assert not admin.site.is_registered(model)
    name = model._meta.model_name
    for view in ("changelist", "add"):
        with pytest.raises(NoReverseMatch):
            reverse(f"admin:games_{name}_{view}")
    assert admin_client.post(f"/admin/games/{name}/add/", {"seq": 1}).status_code == 404


def test_posting_changes_to_a_match_or_its_inlines_is_forbidden(admin_client, make_match):
    match = make_match(deals=1)
    before = snapshot(match)
    batch = EventBatch.objects.filter(match=match).first()
    deal = Deal.objects.get(match=match)
    seats = list(Seat.objects.filter(match=match))
    other = Player.objects.create(name="Intruder")
    form = {
        "owner": other.pk,
        "status": "finished",
        "version": 1,
        "seats-TOTAL_FORMS": 5,
        "seats-INITIAL_FORMS": 4,
        **{f"seats-{i}-id": seat.pk for i, seat in enumerate(seats)},
        "seats-0-player": other.pk,
        "seats-1-DELETE": "on",
        "seats-4-number": 4,
        "seats-4-player": other.pk,
        "deals-TOTAL_FORMS": 1,
        "deals-INITIAL_FORMS": 1,
        "deals-0-id": deal.pk,
        "deals-0-outcome": "abandoned",
        "deals-0-DELETE": "on",
        "events-TOTAL_FORMS": 1,
        "events-INITIAL_FORMS": 1,
        "events-0-seq": batch.seq,
        "events-0-events": "",
        "events-0-DELETE": "on",
    }
    assert admin_client.post(f"/admin/games/match/{match.id}/change/", form).status_code == 403
    assert admin_client.post("/admin/games/match/add/", form).status_code == 403
    assert snapshot(match) == before
    assert Match.objects.count() == 1


def test_the_change_page_is_read_only(admin_client, make_match):
    match = make_match(deals=1)
    response = admin_client.get(f"/admin/games/match/{match.id}/change/")
    assert not response.context["has_change_permission"]
    assert not response.context["has_add_permission"]
    for formset in response.context["inline_admin_formsets"]:
        assert not formset.has_add_permission
        assert not formset.has_change_permission
        assert not formset.has_delete_permission
    assert 'name="_save"' not in response.content.decode()


def test_a_match_is_deleted_whole_with_its_events(admin_client, make_match):
    match, kept = make_match(deals=1), make_match(deals=1, name="Bahram")
    response = admin_client.post(f"/admin/games/match/{match.id}/delete/", {"post": "yes"})
    assert response.status_code == 302
    for model in (Match, EventBatch, Deal, Seat):
        field = "id" if model is Match else "match_id"
        assert not model.objects.filter(**{field: match.id}).exists()
    assert len(stored_seqs(kept.id)) == kept.version
    assert Player.objects.filter(id=match.owner_id).exists()


def test_players_are_read_only_and_their_token_hashes_never_shown(admin_client, make_match):
    match = make_match(deals=1)
    player = match.owner
    urls = ["/admin/players/player/", f"/admin/players/player/{player.id}/change/"]
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            content = admin_client.get(url).content.decode()
        assert player.name in content
        assert player.tokens.get().token_hash not in content
        assert "token hash" not in content.lower()
        # Not even read: the hashes are in a table of their own.
        assert not any("token_hash" in query["sql"] for query in queries)
    change = urls[1]
    assert admin_client.post(change, {"name": "Renamed", "kind": "ai"}).status_code == 403
    assert admin_client.post(f"{urls[0]}add/", {"name": "New"}).status_code == 403
    assert admin_client.post(change.replace("change", "delete"), {"post": "yes"}).status_code == 403
    assert Player.objects.get(id=player.id).name == player.name
    assert Player.objects.filter(name="New").count() == 0
