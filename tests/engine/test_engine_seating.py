"""Seats and the AI level projected from the events (games/engine/seating.py): what the
append writes to the seat rows and the ai_level column, and check_matches checks. Player ids
ride on private fields: stored, replayed, never shown to anyone, the operator included."""

import json

from games.engine import (
    ADMIN,
    FillSeats,
    Join,
    Leave,
    MatchCreated,
    PlayerJoined,
    Restart,
    SeatsFilled,
    StartMatch,
    Viewer,
    decode_event,
    encode_event,
    event_view,
    seating,
    visible_events,
)
from tests.engine.support import Table, every_type_log

OWNER, ROYA, BABAK = "owner-id", "roya-id", "babak-id"
PERSONAS = ("darius-id", "shirin-id", "kaveh-id")


def numbered(events) -> list:
    return list(enumerate(events, start=1))


def test_a_table_s_seats_follow_its_joins_frees_and_fill():
    table = Table()
    table.do(StartMatch(3, humans=3, ai_level="hard", players=(OWNER, None, None, PERSONAS[0])))
    table.do(Join("Roya", player=ROYA))
    projected = seating(numbered(table.events))
    assert projected.players == [OWNER, ROYA, None, PERSONAS[0]]
    assert projected.ai_level == "hard"
    assert projected.seats_known_from == [1, 1, 1, 1] and projected.level_known_from == 1

    table.do(Leave(1))  # before deal 1: open again, for anyone
    assert seating(numbered(table.events)).players == [OWNER, None, None, PERSONAS[0]]
    table.do(FillSeats(players=PERSONAS[1:]))
    assert seating(numbered(table.events)).players == [OWNER, *PERSONAS[1:], PERSONAS[0]]
    table.do(Leave(0))  # after deal 1 the leaver keeps the seat: the AI plays it
    assert seating(numbered(table.events)).players[0] == OWNER


def test_a_restart_that_changes_the_level_sets_it_and_one_that_keeps_it_does_not():
    table = Table()
    table.do(StartMatch(5, ai_level="easy", players=(OWNER, *PERSONAS)))
    table.do(Restart(0))
    assert seating(numbered(table.events)).ai_level == "easy"
    table.do(Restart(0, ai_level="expert"))
    projected = seating(numbered(table.events))
    assert projected.ai_level == "expert" and projected.level_known_from == 1


def test_a_log_written_before_seats_were_recorded_says_nothing_of_them():
    table = Table()
    table.do(StartMatch(5, humans=2))
    table.do(Join("Babak"))
    projected = seating(numbered(table.events))
    assert projected.seats_known_from == [None] * 4 and projected.level_known_from is None
    # A join after the change names its seat, and only that one is known from then on.
    table = Table()
    table.do(StartMatch(5, humans=3))
    table.do(Join("Babak"))
    table.do(Join("Roya", player=ROYA))
    projected = seating(numbered(table.events))
    assert projected.seats_known_from == [None, None, 3, None]
    assert projected.players[2] == ROYA
    # A restart at a new level makes the level known from there.
    table = Table.started(5)
    table.do(Restart(0, ai_level="hard"))
    assert seating(numbered(table.events)).level_known_from == 3


def test_the_new_fields_are_stored_in_new_letters_and_old_lines_read_as_before():
    created = MatchCreated(9, humans=2, ai_level="easy", players=(OWNER, None, *PERSONAS[:2]))
    joined = PlayerJoined(1, "Roya, the second", "seed,1", ROYA)
    filled = SeatsFilled((1, 2), PERSONAS[1:])
    for event, letter in ((created, "Q"), (joined, "T"), (filled, "U")):
        line = encode_event(event)
        assert line[0] == letter and decode_event(line) == event
    assert encode_event(created) == f"Q9,1,2,easy,{OWNER};;darius-id;shirin-id,"
    # Lines stored before them decode with the new fields absent, and encode as before.
    for line in ("C7,1", "H7,1,2", 'J1,"Roya"', 'K1,["Roya", "hers"]', "I12"):
        event = decode_event(line)
        assert encode_event(event) == line
        assert not getattr(event, "players", ()) and getattr(event, "player", None) is None
        assert getattr(event, "ai_level", None) is None


def test_no_view_shows_a_player_id_the_operator_s_included():
    log = every_type_log(7)
    named = [e for e in log if getattr(e, "player", None) or getattr(e, "players", ())]
    assert {type(event) for event in named} == {MatchCreated, PlayerJoined, SeatsFilled}
    ids = {OWNER, "player-0", "player-1", "player-2", "player-3", "persona-1", "persona-2"}
    ids |= {"persona-3"}
    shown = [event_view(event, viewer) for event in log for viewer in (0, 1, 2, 3, None)]
    for viewer in (ADMIN, Viewer.at_seat(0), Viewer.spectator("live")):
        shown += visible_events(numbered(log), viewer)
    text = json.dumps(shown)
    assert not [player for player in ids if player in text]
    assert all(name not in view for view in shown for name in ("player", "players"))
