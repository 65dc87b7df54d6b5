"""The admin of a table: who sat where and when, who left, and the actions the clock took."""

import pytest

from games.engine import SEAT_CHANGE_LINE
from games.match.commands import match_clock_tick, match_create, match_join, match_move
from games.match.log import match_lines_matching
from players.services import player_create
from tests.matches import seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(settings):
    """A table of three whose third human left, after the clock took a turn."""
    settings.ASNAS_CLOCK_GRACE_SECONDS = 0
    people = [player_create(name=name)[0] for name in ("Roya", "Babak", "Nima")]
    match = seated(people, 3, seed=11, turn_seconds=60)
    late = match.state.deal.turn
    assert match_clock_tick(now=match.row.turn_deadline).match_id == match.row.id
    match_move(move="leave", match_id=match.row.id, player=people[2])
    return match.row, people, late


def test_the_seats_show_who_sat_where_joined_left_and_away(admin_client, table):
    row, people, late = table
    response = admin_client.get(f"/admin/games/match/{row.id}/change/")
    assert response.status_code == 200
    seats = response.context["inline_admin_formsets"][0].formset.get_queryset()
    assert [seat.player.name for seat in seats] == ["Roya", "Babak", "Nima", "Kaveh"]
    assert seats[0].joined_at == row.created_at
    assert all(seat.joined_at is not None for seat in seats[:3]) and seats[3].joined_at is None
    assert [seat.left_at is not None for seat in seats] == [False, False, True, False]
    assert [seat.is_away for seat in seats] == [n in (late, 2) for n in range(4)]
    content = response.content.decode()
    assert "seat 2 (Nima) leaves; the AI plays the seat" in content
    assert "field-joined" in content and "field-left" in content and "field-away" in content


def test_the_timeline_says_who_acted_and_filters_the_clock_s_actions(admin_client, table):
    row, _, late = table
    page = f"/admin/games/match/{row.id}/change/"
    everything = admin_client.get(page).context["timeline"]
    actors = {entry["by"] for entry in everything}
    assert {"clock", "AI"} <= actors and "" in actors  # non-actions have no actor
    clock = admin_client.get(page, {"by": "clock"})
    assert clock.status_code == 200
    rows = clock.context["timeline"]
    assert rows and {entry["by"] for entry in rows} == {"clock"}
    assert rows == [entry for entry in everything if entry["by"] == "clock"]
    assert all(f"seat {late} (" in entry["text"] for entry in rows)
    assert "only the actions the clock took" in clock.content.decode().lower()
    assert admin_client.get(page, {"by": "ai"}).status_code == 400


def test_the_match_list_filters_matches_with_a_clock(admin_client, table):
    row, people, _ = table
    response = admin_client.get("/admin/games/match/", {"turn_seconds__isempty": "0"})
    assert [match.id for match in response.context["cl"].result_list] == [row.id]


def test_seat_changes_are_found_in_the_stored_text(table):
    row, _, _ = table
    lines = [line for _, _, line in match_lines_matching(match_id=row.id, line=SEAT_CHANGE_LINE)]
    assert [line[0] for line in lines] == ["T", "T", "L"]  # joins naming their players


def test_a_seat_freed_before_deal_1_shows_its_latest_join_or_stays_open(admin_client):
    people = [player_create(name=name)[0] for name in ("Roya", "Babak", "Nima", "Sara")]
    match = match_create(owner=people[0], ai_level="easy", humans=4)
    for person in people[1:3]:
        match_join(match_id=match.row.id, player=person, invite=match.row.invite)
    match_move(move="leave", match_id=match.row.id, player=people[1])  # seat 1: open again
    match_join(match_id=match.row.id, player=people[3], invite=match.row.invite)  # takes it
    match_move(move="leave", match_id=match.row.id, player=people[2])  # seat 2: open, nobody came
    response = admin_client.get(f"/admin/games/match/{match.row.id}/change/")
    seats = response.context["inline_admin_formsets"][0].formset.get_queryset()
    assert [seat.player.name if seat.player else None for seat in seats] == [
        "Roya",
        "Sara",
        None,
        None,
    ]
    assert [seat.left_at is not None for seat in seats] == [False, False, True, False]
    assert not any(seat.is_away for seat in seats)
    content = response.content.decode()
    assert "seat 2 leaves before deal 1; the seat is open again" in content
    assert "seat 1 (Sara) joins" in content


def test_a_table_the_ai_filled_shows_when_the_ai_sat_down(admin_client):
    people = [player_create(name=name)[0] for name in ("Roya", "Babak")]
    match = match_create(owner=people[0], ai_level="easy", humans=3, open=True, fill_after=10)
    match_join(match_id=match.row.id, player=people[1], invite="")
    assert match_clock_tick(now=match.row.fill_at).match_id == match.row.id
    response = admin_client.get(f"/admin/games/match/{match.row.id}/change/")
    assert response.status_code == 200
    seats = response.context["inline_admin_formsets"][0].formset.get_queryset()
    assert [seat.player.name for seat in seats] == ["Roya", "Babak", "Darius", "Kaveh"]
    assert seats[2].joined_at is not None and seats[2].left_at is None
    assert not any(seat.is_away for seat in seats)
    assert "the AI took the open seats 2" in response.content.decode()
