"""The review room's rows (games.models.DealReview): the only code that reads or writes them.
The match store calls `due_statement` in the write that ends a deal, so that the review is
due in the same statement as the deal's end."""

import json
import uuid
from collections.abc import Iterable
from datetime import datetime

from django.db import connection

from games.engine import Outcome
from games.models import Deal, DealReview

Key = tuple[int, int]


def due_statement(*, match_id: uuid.UUID, keys: Iterable[Key], now: datetime):
    """The statement (sql, params) that makes the reviews of the deals `keys` due, for the
    write that ends them to run with its own; None for no keys."""
    keys = list(keys)
    if not keys:
        return None
    table = DealReview._meta.db_table
    rows = ", ".join(["(%s, %s::int, %s::int, %s)"] * len(keys))
    params = [value for series, number in keys for value in (match_id, series, number, now)]
    return (
        f"INSERT INTO {table} (match_id, series, deal_number, due_at) VALUES {rows}"
        " ON CONFLICT (match_id, series, deal_number) DO NOTHING",
        params,
    )


def due_keys(*, match_id: uuid.UUID) -> set[Key]:
    rows = DealReview.objects.filter(match_id=match_id, body__isnull=True)
    return set(rows.values_list("series", "deal_number"))


def review_save(*, match_id: uuid.UUID, key: Key, body: dict, now: datetime) -> bool:
    """Store a due review's body; False if it was no longer due (another process stored it)."""
    series, number = key
    rows = DealReview.objects.filter(
        match_id=match_id, series=series, deal_number=number, body__isnull=True
    )
    return rows.update(body=body, reviewed_at=now) == 1


def reviews_of(*, match_id: uuid.UUID) -> list[tuple[int, int, dict | None]]:
    """(series, deal number, body or None while due) of every deal of the match that ended
    with a result, in the order played, in one statement: an ended deal with no review row
    (ended before reviews were kept, and not yet made due by the sweep) counts as due."""
    review = DealReview._meta.db_table
    deal = Deal._meta.db_table
    settled = [Outcome.SHOWDOWN.value, Outcome.UNCONTESTED.value]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT d.series, d.deal_number, r.body FROM {deal} d"
            f" LEFT JOIN {review} r ON r.match_id = d.match_id AND r.series = d.series"
            " AND r.deal_number = d.deal_number"
            " WHERE d.match_id = %s AND d.outcome = ANY(%s)"
            " ORDER BY d.series, d.deal_number",
            [match_id, settled],
        )
        return [(series, number, _json(body)) for series, number, body in cursor.fetchall()]


def _json(body):
    return json.loads(body) if isinstance(body, str) else body


def matches_due(*, before: datetime, limit: int) -> list[uuid.UUID]:
    """Matches with a review due since before `before`, or an ended deal with no review row,
    oldest first: what the sweep hands the worker again (a process died before its worker
    stored them, or the deals ended before reviews were kept)."""
    review = DealReview._meta.db_table
    deal = Deal._meta.db_table
    settled = [Outcome.SHOWDOWN.value, Outcome.UNCONTESTED.value]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {review} (match_id, series, deal_number, due_at)"
            f" SELECT d.match_id, d.series, d.deal_number, %s FROM {deal} d"
            f" WHERE d.outcome = ANY(%s) AND NOT EXISTS (SELECT 1 FROM {review} r"
            " WHERE r.match_id = d.match_id AND r.series = d.series"
            " AND r.deal_number = d.deal_number) LIMIT %s"
            " ON CONFLICT (match_id, series, deal_number) DO NOTHING",
            [before, settled, limit],
        )
    due = (
        DealReview.objects.filter(body__isnull=True, due_at__lte=before)
        .order_by("due_at")
        .values_list("match_id", flat=True)[:limit]
    )
    return list(dict.fromkeys(due))


def reviews_stored(*, match_id: uuid.UUID) -> list[tuple[int, int, dict]]:
    """(series, deal number, body) of the match's computed reviews: what check_matches
    re-derives."""
    rows = DealReview.objects.filter(match_id=match_id, body__isnull=False)
    return list(rows.values_list("series", "deal_number", "body"))
