"""The tournaments' admin shows terms, commitment and entrants, and the seed only after the
close (#37 item 7)."""

import pytest

from games.models import Tournament
from tests.http.clients import make_client  # noqa: F401, F811 (a shared fixture)
from tests.tournaments.support import create, enter, past_deadline

pytestmark = pytest.mark.django_db


def test_the_admin_shows_the_seed_only_after_the_close(admin_client, make_client):  # noqa: F811
    roya = make_client("Roya")
    tournament = create(roya)
    enter(roya, tournament)
    row = Tournament.objects.get(pk=tournament["id"])
    url = f"/admin/games/tournament/{row.pk}/change/"
    page = admin_client.get(url).content.decode()
    assert row.commitment in page and "Roya" in page and row.server_seed not in page
    listing = admin_client.get("/admin/games/tournament/").content.decode()
    assert row.name in listing and row.server_seed not in listing
    past_deadline(tournament)
    roya.get(f"/api/v1/tournaments/{row.pk}")  # the read closes it
    assert row.server_seed in admin_client.get(url).content.decode()
