"""Tables through the services, without HTTP: creating, joining, leaving, restarting, and
each human seeing only their own seat."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import DomainError, Status
from games.http.shapes import MATCH_VIEW
from games.match import commands as match_commands
from games.match import queries as match_queries
from games.match import store as match_store
from games.match.commands import (
    AI_PERSONAS,
    default_turn_seconds,
    match_create,
    match_join,
    match_move,
)
from games.match.integrity import check_matches
from games.models import Deal, Seat
from players.selectors import player_stats
from players.services import player_create
from tests.matches import play_until, seated

pytestmark = pytest.mark.django_db


def shown(match) -> dict:
    """The MatchView as the API renders it for the player `match` was loaded for."""
    return MATCH_VIEW.render(match_queries.match_view(match=match))


@pytest.fixture
def people():
    return [player_create(name=name)[0] for name in ("Roya", "Babak", "Nima", "Sara", "Omid")]


def refused(code: str, call, **arguments) -> None:
    with pytest.raises(DomainError) as raised:
        call(**arguments)
    assert raised.value.code == code


def loaded(match, player):
    return match_store.match_load(match_id=match.row.id, player=player)


def test_a_table_waits_with_an_invite_for_the_owner_only(people):
    match = match_create(owner=people[0], ai_level="easy", humans=3)
    assert match.state.status is Status.WAITING and match.row.turn_seconds is None
    assert len(match.row.invite) >= 32  # 192 bits in URL-safe base64
    view = shown(match)
    assert view["invite"] == match.row.invite
    assert (view["deal_number"], view["dealer"], view["turn"]) == (0, None, None)
    assert [(seat["name"], seat["kind"]) for seat in view["seats"]] == [
        ("Roya", "human"),
        (None, "human"),
        (None, "human"),
        ("Kaveh", "ai"),
    ]
    joined = match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    assert joined.viewer_seat == 1
    assert shown(joined)["invite"] is None  # not the owner's view
    assert [event.type for _, event in joined.appended] == ["player_joined"]
    assert shown(loaded(match, people[0]))["invite"] == match.row.invite


def test_the_last_join_starts_deal_1_and_the_ai_plays_up_to_a_human(people):
    match = seated(people, 2)
    assert match.state.status is Status.IN_DEAL
    assert match.state.deal.turn in (0, 1)
    types = [event.type for _, event in match.appended]
    assert types[:2] == ["player_joined", "deal_started"]
    assert all(event.by == "ai" for _, event in match.appended[2:])
    owner_view = shown(loaded(match, people[0]))
    assert owner_view["invite"] is None and owner_view["seats"][1]["name"] == "Babak"
    assert [
        seat.player for seat in match_store.match_load(match_id=match.row.id, player=None).seats
    ][:2] == [str(people[0].pk), str(people[1].pk)]


def test_join_refusals_change_nothing(people):
    match = match_create(owner=people[0], ai_level="easy", humans=2)
    single = match_create(owner=people[4], ai_level="easy")

    def join(code: str, person, invite: str = match.row.invite, match_id=match.row.id):
        refused(code, match_join, match_id=match_id, player=person, invite=invite)

    join("not_found", people[1], "guess")
    join("not_found", people[1], "", single.row.id)  # a single-player match has no invite
    join("already_seated", people[0])
    assert loaded(match, people[0]).state == match.state
    match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    join("already_seated", people[1])
    join("match_full", people[2])


def test_each_human_sees_only_their_own_cards(people):
    match = seated(people, 4, seed=8)
    for seat, person in enumerate(people[:4]):
        view = shown(loaded(match, person))
        assert view["your_seat"] == seat
    state = match.state
    seat = state.deal.turn
    match = match_move(move="act", match_id=match.row.id, player=people[seat], action="look")
    for viewer, person in enumerate(people[:4]):
        view = shown(loaded(match, person))
        expected = list(state.deal.hands[viewer]) if viewer == seat else None
        assert view["your_cards"] == expected


def test_leaving_hands_the_seat_to_the_ai_and_the_last_leaver_abandons(people):
    match = seated(people, 2, seed=5)
    match = play_until(match, people, lambda state: state.deal.turn == 1)
    left = match_move(move="leave", match_id=match.row.id, player=people[1])
    assert left.appended[0][1].type == "player_left"
    assert all(event.by == "ai" for _, event in left.appended[1:] if event.type == "action")
    assert left.state.status is Status.DEAL_OVER or left.state.deal.turn == 0
    view = shown(loaded(match, people[1]))
    assert view["seats"][1]["away"] and view["seats"][1]["kind"] == "human"
    assert view["legal_actions"] == []
    refused(
        "not_seated", match_move, move="act", match_id=match.row.id, player=people[1], action="fold"
    )
    refused("not_seated", match_move, move="leave", match_id=match.row.id, player=people[1])
    gone = match_move(move="resign", match_id=match.row.id, player=people[0])  # resign = leave here
    assert [event.type for _, event in gone.appended] == ["player_left"]
    assert gone.state.status is Status.ABANDONED
    assert gone.row.status == "abandoned"
    assert not Deal.objects.filter(match_id=match.row.id, outcome="").exists()
    refused("not_seated", match_move, move="next_deal", match_id=match.row.id, player=people[0])
    refused(
        "restart_not_allowed", match_move, move="restart", match_id=match.row.id, player=people[0]
    )


def test_at_a_table_only_the_owner_restarts_and_only_after_the_end(people):
    match = seated(people, 2, seed=6)
    refused(
        "restart_not_allowed", match_move, move="restart", match_id=match.row.id, player=people[0]
    )
    match = play_until(match, people, lambda state: state.status is Status.FINISHED)
    refused(
        "restart_not_allowed", match_move, move="restart", match_id=match.row.id, player=people[1]
    )
    match = match_move(move="restart", match_id=match.row.id, player=people[0])
    assert match.state.series == 2


def test_defaults_of_turn_seconds():
    assert (default_turn_seconds(1), default_turn_seconds(2)) == (None, 60)


def test_a_single_player_match_lists_and_plays_as_before(people):
    match = match_create(owner=people[0], ai_level="easy", seed=3)
    assert match.row.invite == "" and match.state.humans == 1
    assert all(event.by == "ai" for _, event in match.appended if event.type == "action")
    view = shown(match)
    assert view["invite"] is None and view["your_seat"] == 0
    assert [seat["away"] for seat in view["seats"]] == [False] * 4
    assert list(match_queries.match_list(player=people[0])) == [match.row]


def test_a_guest_s_stats_count_their_own_seat(people):
    match = match_create(owner=people[0], ai_level="easy", humans=2)
    match = match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    match = play_until(match, people, lambda state: state.status is Status.FINISHED)
    for seat, person in enumerate(people[:2]):
        stats = player_stats(player=person)
        assert (stats["matches_played"], stats["matches_finished"]) == (1, 1)
        assert stats["points_total"] == str(match.state.totals[seat])
        assert stats["matches_won"] == int(seat in match.state.winners)


def test_tables_pass_the_integrity_check(people):
    waiting = match_create(owner=people[0], ai_level="easy", humans=3)
    playing = seated(people, 3, seed=9)
    match_move(move="leave", match_id=playing.row.id, player=people[2])
    abandoned = seated(people, 2, seed=10)
    match_move(move="leave", match_id=abandoned.row.id, player=people[1])
    match_move(move="leave", match_id=abandoned.row.id, player=people[0])
    ids = [waiting.row.id, playing.row.id, abandoned.row.id]
    assert [problems for _, problems in check_matches(ids)] == [[], [], []]


def test_a_guest_leaving_before_deal_1_frees_the_seat_for_anyone_the_same_guest_included(
    people,
):
    match = match_create(owner=people[0], ai_level="easy", humans=3)
    match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    left = match_move(move="leave", match_id=match.row.id, player=people[1])
    assert [event.type for _, event in left.appended] == ["seat_freed"]
    assert loaded(match, people[1]) is None  # no longer seated: nothing to see
    owner_view = match_queries.match_view(match=loaded(match, people[0]))
    assert owner_view["status"] == "waiting" and owner_view["seats"][1]["name"] is None
    back = match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    assert back.viewer_seat == 1 and back.state.status is Status.WAITING
    match_move(move="leave", match_id=match.row.id, player=people[1])
    other = match_join(match_id=match.row.id, player=people[2], invite=match.row.invite)
    assert other.viewer_seat == 1  # the freed seat, before the one never taken
    last = match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    assert last.viewer_seat == 2 and last.state.status is Status.IN_DEAL
    assert not any(last.state.ai_plays(seat) for seat in range(3))
    assert [problems for _, problems in check_matches([match.row.id])] == [[]]


def test_the_owner_leaving_a_waiting_table_closes_it(people):
    match = match_create(owner=people[0], ai_level="easy", humans=3)
    match_join(match_id=match.row.id, player=people[1], invite=match.row.invite)
    closed = match_move(move="leave", match_id=match.row.id, player=people[0])
    assert [event.type for _, event in closed.appended] == ["player_left"]
    assert closed.state.status is Status.ABANDONED and closed.row.status == "abandoned"
    invite = match.row.invite
    refused("match_abandoned", match_join, match_id=match.row.id, player=people[2], invite=invite)
    refused("match_abandoned", match_move, move="leave", match_id=match.row.id, player=people[1])
    assert [problems for _, problems in check_matches([match.row.id])] == [[]]


def test_leaving_a_finished_match_is_refused_and_writes_nothing(people):
    match = seated(people, 2, seed=6)
    match = play_until(match, people, lambda state: state.status is Status.FINISHED)
    version = match.row.version
    for person in people[:2]:
        refused("match_finished", match_move, move="leave", match_id=match.row.id, player=person)
        refused("match_finished", match_move, move="resign", match_id=match.row.id, player=person)
    assert loaded(match, people[0]).row.version == version
    assert match_move(move="restart", match_id=match.row.id, player=people[0]).state.series == 2


def test_a_join_is_stored_in_one_statement_that_sends_one_notice_its_player_hears(people):
    """The seat row follows the join's event in the append's statement, so the one notice
    already names the new player (before, the seat was written and announced again after)."""
    roya, babak = people[:2]
    table = match_create(owner=roya, ai_level="easy", humans=3)
    with CaptureQueriesContext(connection) as queries:
        joined = match_join(match_id=table.row.id, player=babak, invite=table.row.invite)
    ran = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The player's kind, locked so that a bot declaration at once comes before or after the
    # seat, never beside it (docs/bots.md), and first, as a quick play takes it (on Citus the
    # other order met a quick play in a distributed deadlock); the match under its lock; its
    # events with every projection.
    assert len(ran) == 3
    assert [sql.count("pg_notify") for sql in ran] == [0, 0, 1]
    assert "FOR NO KEY UPDATE" in ran[0] and "games_match" not in ran[0]
    assert "FOR UPDATE OF m" in ran[1]
    assert joined.viewer_seat == 1 and joined.seats[1].player == str(babak.pk)
    assert match_store.match_load(match_id=table.row.id, player=babak).viewer_seat == 1


def test_a_fill_seats_the_ai_personas_with_its_events(people):
    roya = people[0]
    table = match_create(owner=roya, ai_level="easy", humans=3)
    filled = match_store.match_load(match_id=table.row.id, player=None, lock=True)
    match_commands._ai_fills_table(filled)
    seats = Seat.objects.filter(match_id=table.row.id).order_by("number")
    names = [seat.player.name for seat in seats]
    assert names[0] == "Roya" and sorted(names[1:]) == sorted(AI_PERSONAS)
    assert [seat.kind for seat in filled.seats] == ["human", "ai", "ai", "ai"]
    assert [problems for _, problems in check_matches([table.row.id])] == [[]]
