"""The puzzles room's rows (games.models Puzzle, PuzzleMined, PuzzleSolver, PuzzleTry): the
only code that reads or writes them."""

import json
import uuid

from django.db import IntegrityError, connection, transaction

from games.engine import Outcome, Status
from games.models import (
    Deal,
    DealReview,
    Match,
    Puzzle,
    PuzzleMined,
    PuzzleSolver,
    PuzzleTry,
    Seat,
    Tournament,
)
from players.models import Player

ENDED = [Status.FINISHED.value, Status.ABANDONED.value]
SETTLED = [Outcome.SHOWDOWN.value, Outcome.UNCONTESTED.value]


def matches_to_mine(*, limit: int) -> list[uuid.UUID]:
    """Ended matches not yet mined whose every settled deal has its review stored; a
    tournament's only once the tournament closed. Oldest first."""
    match, mined = Match._meta.db_table, PuzzleMined._meta.db_table
    deal, review = Deal._meta.db_table, DealReview._meta.db_table
    tournament = Tournament._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT m.id FROM {match} m LEFT JOIN {tournament} t ON t.id = m.tournament_id"
            " WHERE m.status = ANY(%s) AND (m.tournament_id IS NULL OR t.closed_at IS NOT NULL)"
            f" AND NOT EXISTS (SELECT 1 FROM {mined} x WHERE x.match_id = m.id)"
            f" AND NOT EXISTS (SELECT 1 FROM {deal} d LEFT JOIN {review} r"
            " ON r.match_id = d.match_id AND r.series = d.series"
            " AND r.deal_number = d.deal_number"
            " WHERE d.match_id = m.id AND d.outcome = ANY(%s) AND r.body IS NULL)"
            " ORDER BY m.updated_at LIMIT %s",
            [ENDED, SETTLED, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def human_players(*, match_id: uuid.UUID) -> list[str]:
    rows = Seat.objects.filter(
        match_id=match_id, player__isnull=False, player__kind=Player.Kind.HUMAN
    )
    return sorted({str(player) for player in rows.values_list("player_id", flat=True)})


def mined_save(*, match_id: uuid.UUID, puzzles: list[dict], excluded: list[str], start) -> int:
    """Mark the match mined and store its puzzles, in the caller's transaction; 0 if another
    process mined it meanwhile."""
    _, created = PuzzleMined.objects.get_or_create(match_id=match_id)
    if not created:
        return 0
    Puzzle.objects.bulk_create(
        Puzzle(
            position=p["position"],
            actions=p["actions"],
            values=p["values"],
            best=p["best"],
            margin=p["margin"],
            themes=p["themes"],
            excluded=excluded,
            mu=start.mu,
            sigma=start.sigma,
            rating=start.displayed,
        )
        for p in puzzles
    )
    return len(puzzles)


_NEXT = """
WITH me AS (SELECT COALESCE((SELECT rating FROM {solver} WHERE player_id = %(player)s),
    %(start)s) AS r),
open AS (SELECT p.id, p.position, p.actions, p.themes, p.rating FROM {puzzle} p
    WHERE NOT p.excluded @> %(player_json)s::jsonb
    AND NOT EXISTS (SELECT 1 FROM {tried} t WHERE t.player_id = %(player)s
        AND t.puzzle_id = p.id)),
above AS (SELECT o.* FROM open o, me WHERE o.rating >= me.r ORDER BY o.rating LIMIT 1),
below AS (SELECT o.* FROM open o, me WHERE o.rating < me.r ORDER BY o.rating DESC LIMIT 1)
SELECT x.id, x.position, x.actions, x.themes, x.rating, me.r
FROM (SELECT * FROM above UNION ALL SELECT * FROM below) x, me
ORDER BY abs(x.rating - me.r), x.id LIMIT 1
"""


def puzzle_near(*, player_id: uuid.UUID, start: float) -> tuple[dict, float] | None:
    """The untried puzzle not from the player's matches whose rating is nearest theirs, and
    their puzzle rating, in one statement (the puzzles' rating index, from their rating up and
    down); None when none is left."""
    sql = _NEXT.format(
        solver=PuzzleSolver._meta.db_table,
        puzzle=Puzzle._meta.db_table,
        tried=PuzzleTry._meta.db_table,
    )
    params = {"player": player_id, "start": start, "player_json": json.dumps([str(player_id)])}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    id_, position, actions, themes, rating, mine = row
    puzzle = {
        "id": id_,
        "position": _json(position),
        "actions": _json(actions),
        "themes": _json(themes),
        "rating": rating,
    }
    return puzzle, mine


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def puzzle_lock(*, puzzle_id: uuid.UUID) -> Puzzle | None:
    return Puzzle.objects.select_for_update().filter(id=puzzle_id).first()


def solver_lock(*, player_id: uuid.UUID, start) -> PuzzleSolver:
    PuzzleSolver.objects.get_or_create(
        player_id=player_id,
        defaults={"mu": start.mu, "sigma": start.sigma, "rating": start.displayed},
    )
    return PuzzleSolver.objects.select_for_update().get(player_id=player_id)


def try_save(*, puzzle: Puzzle, solver: PuzzleSolver, action: str, solved: bool) -> bool:
    """Record the try and both new ratings; False (nothing stored) if the player tried the
    puzzle before."""
    try:
        with transaction.atomic():
            PuzzleTry.objects.create(
                puzzle=puzzle, player_id=solver.player_id, action=action, solved=solved
            )
    except IntegrityError:
        return False
    puzzle.save(update_fields=["mu", "sigma", "rating", "tries", "solved"])
    solver.save(update_fields=["mu", "sigma", "rating", "tries"])
    return True
