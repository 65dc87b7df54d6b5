"""The integrity check, as `manage.py check_matches` and as the match list's admin action."""

import io
import reprlib
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from games.ai import coach
from games.engine import decode_event, encode_event
from games.match.commands import match_create, match_join, match_move
from games.match.integrity import check_matches
from games.models import Deal, EventBatch, Match, Seat
from players.services import player_create
from tests.matches import play

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command("check_matches", *args, stdout=out)
    return out.getvalue()


def test_healthy_matches_pass(make_match):
    make_match(deals=0)
    make_match(deals=12, seed=2, name="Finisher")
    restarted = make_match(deals=1, seed=3, name="Restarter")
    # A restart during deal 2 abandons it; then play on into the new series.
    match_move(move="next_deal", match_id=restarted.id, player=restarted.owner)
    restarted = play(
        match_move(move="restart", match_id=restarted.id, player=restarted.owner), deals=2
    )
    assert Deal.objects.get(match=restarted, series=1, deal_number=2).outcome == "abandoned"
    assert Deal.objects.filter(match=restarted, series=2).exclude(outcome="").count() == 2
    assert run() == "3 matches checked, 0 mismatches\n"


def corrupt_totals(match):
    state = match.state
    state["totals"][0] = "100"
    Match.objects.filter(id=match.id).update(state=state)


def corrupt_version(match):
    Match.objects.filter(id=match.id).update(version=F("version") + 1)


def delete_an_event(match):
    # The batch that holds event 3.
    EventBatch.objects.filter(match=match, seq__gte=3).order_by("seq").first().delete()


def corrupt_a_payload(match):
    batch = EventBatch.objects.filter(match=match).order_by("seq").first()
    lines = batch.events.split("\n")
    lines[1] = "~" + lines[1]  # event 2, deal_started, of an unknown type (no letter is ~)
    EventBatch.objects.filter(match=match, seq=batch.seq).update(events="\n".join(lines))


def corrupt_a_deal_row(match):
    Deal.objects.filter(match=match, deal_number=1).update(outcome="uncontested")


def corrupt_a_seat(match):
    """Seat 2 handed by hand to a player the events never seated there."""
    stranger, _ = player_create(name="Stranger")
    Seat.objects.filter(match=match, number=2).update(player=stranger)


def corrupt_the_ai_level(match):
    Match.objects.filter(id=match.id).update(ai_level="expert")


@pytest.mark.parametrize(
    ("corrupt", "finding"),
    [
        (corrupt_totals, "state.totals: stored ['100', "),
        (corrupt_version, "column version: stored "),
        (delete_an_event, "events: seqs are not 1.."),
        (corrupt_a_payload, "event 2: cannot be replayed (KeyError"),
        (corrupt_a_deal_row, "deal row series 1 deal 1: outcome: stored 'uncontested', "),
        (corrupt_a_seat, "seat 2: player: stored '"),
        (corrupt_the_ai_level, "column ai_level: stored 'expert', replayed 'normal'"),
    ],
)
def test_a_corrupted_match_is_reported_and_fails_the_command(make_match, corrupt, finding):
    healthy, broken = make_match(deals=2), make_match(deals=2, seed=5, name="Bahram")
    corrupt(broken)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 2 matches failed the integrity check"):
        call_command("check_matches", stdout=out)
    lines = out.getvalue().splitlines()
    assert f"{broken.id}: {finding}" in "\n".join(lines)
    assert all(line.startswith(f"{broken.id}: ") for line in lines[:-1])
    found = len(lines) - 1
    assert lines[-1] == f"2 matches checked, {found} {'mismatch' if found == 1 else 'mismatches'}"
    # The healthy match alone passes.
    assert run(str(healthy.id)) == "1 match checked, 0 mismatches\n"


def test_the_ai_tables_are_mapped_before_the_stored_reviews_are_worked_out_again(
    make_match, monkeypatch
):
    warmed = []
    monkeypatch.setattr(coach, "warm", lambda: warmed.append(True))
    make_match(deals=1)
    assert run() == "1 match checked, 0 mismatches\n" and warmed == [True]


def test_unknown_match_ids_are_an_error(make_match):
    match = make_match()
    with pytest.raises(CommandError, match="No such match: 00000000-0000-0000-0000-000000000000"):
        run(str(match.id), "00000000-0000-0000-0000-000000000000")
    with pytest.raises(CommandError):
        run("not-a-uuid")


def test_each_match_costs_the_same_queries_however_long(make_match):
    short, long = make_match(deals=0), make_match(deals=6, seed=9, name="Bahram")

    def queries(match) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert list(check_matches([match.id])) == [(match.id, [])]
        return len(captured)

    assert queries(short) == queries(long)


def test_the_admin_action_reports_each_broken_match(admin_client, make_match):
    healthy, broken = make_match(deals=1), make_match(deals=1, seed=5, name="Bahram")
    corrupt_totals(broken)
    response = admin_client.post(
        "/admin/games/match/",
        {"action": "check_integrity", "_selected_action": [healthy.id, broken.id]},
        follow=True,
    )
    assert response.status_code == 200
    messages = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert messages[0][0] == "error"
    assert messages[0][1].startswith(f"Match {broken.id}: state.totals: stored ['100', ")
    assert messages[-1] == ("error", "2 matches checked, 1 mismatch")

    response = admin_client.post(
        "/admin/games/match/",
        {"action": "check_integrity", "_selected_action": [healthy.id]},
        follow=True,
    )
    messages = [(m.level_tag, str(m)) for m in response.context["messages"]]
    assert messages == [("success", "1 match checked, 0 mismatches")]


def test_a_table_s_seats_and_a_restart_s_level_are_checked_and_rebuilt(db):
    roya, babak, sara = (player_create(name=name)[0] for name in ("Roya", "Babak", "Sara"))
    table = match_create(owner=roya, ai_level="easy", humans=3)
    match_join(match_id=table.row.id, player=babak, invite=table.row.invite)
    match_move(
        move="leave", match_id=table.row.id, player=babak
    )  # before deal 1: seat 1 is open again
    match_join(match_id=table.row.id, player=sara, invite=table.row.invite)  # and Sara takes it
    alone = match_create(owner=sara, ai_level="easy", seed=4)
    match_move(move="restart", match_id=alone.row.id, player=sara, ai_level="hard")
    assert run() == "2 matches checked, 0 mismatches\n"

    Seat.objects.filter(match_id=table.row.id, number=1).update(player=babak)
    Match.objects.filter(id=alone.row.id).update(ai_level="easy")
    with pytest.raises(CommandError, match="2 of 2 matches failed"):
        run()
    out = io.StringIO()
    call_command("rebuild_projections", "--repair", stdout=out)
    assert Seat.objects.get(match_id=table.row.id, number=1).player == sara
    assert Match.objects.get(id=alone.row.id).ai_level == "hard"
    assert run() == "2 matches checked, 0 mismatches\n"


def test_a_log_from_before_events_said_the_seats_is_checked_from_the_first_that_does(db):
    """Its rows are the truth until an event says who sits where, and the check says so."""
    roya, babak = player_create(name="Roya")[0], player_create(name="Babak")[0]
    table = match_create(owner=roya, ai_level="easy", humans=2)
    # Its match_created as stored before it said the level and the seats (letter M).
    created = decode_event(EventBatch.objects.get(match_id=table.row.id, seq=1).events)
    old_line = encode_event(replace(created, ai_level=None, players=()))
    assert old_line.startswith("M")
    EventBatch.objects.filter(match_id=table.row.id, seq=1).update(events=old_line)
    match_join(match_id=table.row.id, player=babak, invite=table.row.invite)  # says seat 1
    note = (
        f"{table.row.id}: note: its log began before events said who sits where and the AI "
        "level, so the rows are the truth until an event says them: checked seat 1 from "
        "event 2; seat 0, seat 2, seat 3, the AI level unchecked"
    )
    assert run().splitlines() == [note, "1 match checked, 0 mismatches"]
    # A seat said from then on is checked; one never said is not.
    Seat.objects.filter(match_id=table.row.id, number=1).update(player=None)
    Seat.objects.filter(match_id=table.row.id, number=0).update(player=babak)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 1 matches failed"):
        call_command("check_matches", stdout=out)
    assert out.getvalue().splitlines() == [
        note,
        f"{table.row.id}: seat 1: player: stored None, replayed {reprlib.repr(str(babak.pk))}",
        "1 match checked, 1 mismatch",
    ]
