"""Puzzles mined from stored reviews in housekeeping: only decisions whose hand the table saw,
only of ended matches, naming nobody; a player never gets one of their own matches; a try is
graded by value and moves both ratings. The leak tests of docs/puzzles.md."""

import json
import random
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from asnas_api.housekeeping import close_due_tournaments
from games.engine import DealEnded
from games.match import log
from games.models import Puzzle, PuzzleMined
from games.puzzles import commands as puzzle_commands
from games.puzzles import positions
from games.puzzles.positions import CLEAR_MARGIN
from games.review import commands as review_commands
from games.review import store as review_store
from tests.http.play import play_match
from tests.http.problems import assert_problem
from tests.reliability.test_edge_limits import clock_passes
from tests.tournaments import support as tournaments

pytestmark = pytest.mark.django_db


def finished_matches(client, new_match, seeds, *, verifiable=True):
    """Play matches to the end at random, their reviews stored; their events by match id."""
    events = {}
    for seed in seeds:
        view = new_match(seed=seed, verifiable=verifiable)
        view = play_match(client, view, random.Random(seed))
        review_commands.reviews_compute(match_id=view["id"], budget_seconds=120)
        events[view["id"]] = client.get(f"/api/v1/matches/{view['id']}/events").json()["events"]
    return events


def canonical(puzzle: dict) -> str:
    return json.dumps(puzzle, sort_keys=True)


def puzzle_dict(puzzle: Puzzle) -> dict:
    names = ("position", "actions", "values", "best", "margin", "themes")
    return {name: getattr(puzzle, name) for name in names}


def test_only_ended_matches_with_their_reviews_are_mined(client, new_match):
    playing = new_match(seed=2)
    assert puzzle_commands.puzzles_mine() == 0
    assert not PuzzleMined.objects.filter(match_id=playing["id"]).exists()
    finished_matches(client, new_match, [11])
    puzzle_commands.puzzles_mine()
    assert list(PuzzleMined.objects.values_list("match_id", flat=True)) != [playing["id"]]
    assert not PuzzleMined.objects.filter(match_id=playing["id"]).exists()
    assert puzzle_commands.puzzles_mine() == 0  # each match once


def test_puzzles_leak_no_hand_and_name_nothing_of_their_match(client, make_client, new_match):
    events = finished_matches(client, new_match, [21, 22, 23], verifiable=False)
    assert puzzle_commands.puzzles_mine() > 0
    # Worked out here from the raw events: which seats' hands each deal's showdown showed
    # (a showdown, and the seat had not folded). These matches are not verifiable: no
    # series' end reveals its seed, and with it every hand.
    shown = set()
    for match_id in events:
        for _, event in log.match_events(match_id=match_id):
            if isinstance(event, DealEnded) and event.outcome == "showdown":
                key = (match_id, event.series, event.deal_number)
                shown |= {(*key, seat.seat) for seat in event.seats if not seat.folded}
    allowed, leaking = [], []
    for match_id in events:
        for series, number, body in review_store.reviews_stored(match_id=match_id):
            for seat, seat_body in body.items():
                found = [canonical(p) for p in positions.puzzles_of_seat(seat_body, int(seat))]
                seen = (match_id, series, number, int(seat)) in shown
                (allowed if seen else leaking).extend(found)
    assert leaking, "the matches hold clear decisions of hands never shown: the test can fail"
    puzzles = list(Puzzle.objects.all())
    assert puzzles
    texts = json.dumps(
        [[p.position, p.actions, p.values, p.themes] for p in puzzles], sort_keys=True
    )
    for match_id in events:
        assert str(match_id) not in texts
    assert client.player.name not in texts
    for word in ("series", "deal_number", "seat", "by", "_at", "name", "id"):
        assert f'"{word}"' not in texts
    # Exactly the clear decisions of hands the table saw: none of a hand folded and never shown.
    assert sorted(canonical(puzzle_dict(p)) for p in puzzles) == sorted(allowed)
    for puzzle in puzzles:
        ranked = sorted((Fraction(v["value"]) for v in puzzle.values), reverse=True)
        assert ranked[0] - ranked[1] == Fraction(puzzle.margin) > CLEAR_MARGIN
        assert puzzle.position["seats"][0]["position"] == 0


def test_a_player_never_gets_their_own_and_a_try_is_graded(client, make_client, new_match):
    finished_matches(client, new_match, [31, 32])
    assert puzzle_commands.puzzles_mine() > 0
    assert_problem(client.get("/api/v1/puzzles/next"), 404, "no_puzzle_left")
    other = make_client("Sima")
    got = other.get("/api/v1/puzzles/next")
    assert got.status_code == 200, got.json()
    puzzle = got.json()
    assert "themes" not in puzzle and "values" not in puzzle
    assert_problem(
        client.post(f"/api/v1/puzzles/{puzzle['id']}/try", {"action": "call"}, format="json"),
        404,
        "not_found",
    )
    illegal = next(
        a for a in ("look", "call", "hold", "raise", "fold") if a not in puzzle["actions"]
    )
    url = f"/api/v1/puzzles/{puzzle['id']}/try"
    assert_problem(
        other.post(url, {"action": illegal}, format="json"), 422, "puzzle_action_illegal"
    )
    assert_problem(other.post(url, {"action": "jump"}, format="json"), 400, "validation_error")
    stored = Puzzle.objects.get(id=puzzle["id"])
    answer = other.post(url, {"action": stored.best}, format="json").json()
    assert answer["solved"] and answer["best"] == stored.best and answer["lost"] == "0"
    assert [v["best"] for v in answer["values"]].count(True) == 1
    assert answer["rating"] > answer["rating_before"]
    assert answer["puzzle_rating"] < puzzle["rating"]
    assert_problem(other.post(url, {"action": stored.best}, format="json"), 409, "puzzle_tried")
    following = other.get("/api/v1/puzzles/next").json()
    assert following.get("id") != puzzle["id"]


def test_a_verifiable_series_that_ended_shows_every_hand(client, new_match):
    events = finished_matches(client, new_match, [21, 22, 23])
    puzzle_commands.puzzles_mine()
    every = [
        canonical(p)
        for match_id in events
        for _, _, body in review_store.reviews_stored(match_id=match_id)
        for seat, seat_body in body.items()
        for p in positions.puzzles_of_seat(seat_body, int(seat))
    ]
    assert sorted(canonical(puzzle_dict(p)) for p in Puzzle.objects.all()) == sorted(every)


def test_a_tournaments_matches_wait_for_its_close(client, new_match):
    # Play the tournament's match at random to its end; it waits for the close.
    tournament = tournaments.create(client)
    view = tournaments.enter(client, tournament)
    view = play_match(client, view, random.Random(5))
    review_commands.reviews_compute(match_id=view["id"], budget_seconds=120)
    puzzle_commands.puzzles_mine()
    assert not PuzzleMined.objects.filter(match_id=view["id"]).exists()
    tournaments.past_deadline(tournament)
    close_due_tournaments()
    review_commands.reviews_compute(match_id=view["id"], budget_seconds=120)
    puzzle_commands.puzzles_mine()
    assert PuzzleMined.objects.filter(match_id=view["id"]).exists()


def test_the_next_puzzle_is_one_statement(client, make_client, new_match):
    finished_matches(client, new_match, [31, 32])
    assert puzzle_commands.puzzles_mine() > 0
    other = make_client("Sima")
    with CaptureQueriesContext(connection) as queries:
        assert other.get("/api/v1/puzzles/next").status_code == 200
    puzzle_reads = [q["sql"] for q in queries.captured_queries if "puzzle" in q["sql"]]
    assert len(puzzle_reads) == 1
    # Nothing of the read is a puzzle's write: the try is.
    assert not any(sql.lstrip().upper().startswith(("INSERT", "UPDATE")) for sql in puzzle_reads)


def test_the_clock_mines_and_a_request_never_does(settings, client, new_match):
    finished = finished_matches(client, new_match, [31])
    # Requests after the match ended mine nothing, however many.
    for _ in range(3):
        assert client.get("/api/v1/players/me").status_code == 200
    assert not PuzzleMined.objects.exists()
    settings.ASNAS_PURGE_INTERVAL_SECONDS = 0
    settings.ASNAS_CLOCK_POLL_SECONDS = 0
    clock_passes(1)
    mined = PuzzleMined.objects.values_list("match_id", flat=True)
    assert {str(match_id) for match_id in mined} == set(finished)
