"""Every request costs a fixed number of SQL statements, the same at deal 12 as at deal 1,
and no statement of the hot path scans a table: each reaches its rows through an index, so
its cost does not grow with the number of stored matches or events."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Deal, EventBatch, Match, Seat

pytestmark = pytest.mark.django_db

# Per request: the token lookup with the rate counting, then for a read the match with its
# seats, for a write the match under its lock and one statement that stores everything.
QUERIES = {"create": 3, "action": 3, "next_deal": 3, "view": 2}


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The SQL the request ran, without the savepoints that the test's own transaction
    makes of the services' transactions."""
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def request(client, kind: str, method: str, path: str, body=None) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(path, body, format="json")
    assert response.status_code in (200, 201), response.json()
    return response.json(), statements(queries)


def test_each_request_runs_the_same_statements_from_deal_1_to_deal_12(client, make_client):
    make_client("Warm-up").post("/api/v1/matches", {"seed": 1}, format="json")  # AI personas
    view, ran = request(client, "create", "post", "/api/v1/matches", {"seed": 21})
    counts = {"create": [len(ran)], "action": [], "next_deal": [], "view": []}
    actions_by_deal: dict[int, list[int]] = {}
    base = f"/api/v1/matches/{view['id']}"
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view, ran = request(client, "next_deal", "post", f"{base}/next-deal", {})
            counts["next_deal"].append(len(ran))
            _, ran = request(client, "view", "get", base)
            counts["view"].append(len(ran))
        else:
            # Call when it can (a deal runs to its showdown), else fold.
            action = "call" if "call" in view["legal_actions"] else "fold"
            view, ran = request(client, "action", "post", f"{base}/actions", {"action": action})
            counts["action"].append(len(ran))
            actions_by_deal.setdefault(view["deal_number"], []).append(len(ran))
    assert {1, 12} <= set(actions_by_deal), actions_by_deal  # the first and the last deal
    for kind, expected in QUERIES.items():
        assert set(counts[kind]) == {expected}, (kind, counts[kind])


def plans(ran: list[str]) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        found = []
        for sql in ran:
            cursor.execute(f"EXPLAIN {sql}")
            found.append("\n".join(row[0] for row in cursor.fetchall()))
    return found


def test_no_statement_of_the_hot_path_scans_a_table(client, new_match):
    """With sequential scans priced out, a plan still shows one only where no index serves:
    such a statement would read every stored match or event."""
    view = new_match(seed=21)
    base = f"/api/v1/matches/{view['id']}"
    _, ran_view = request(client, "view", "get", base)
    _, ran_action = request(client, "action", "post", f"{base}/actions", {"action": "look"})
    for sql, plan in zip(ran_view + ran_action, plans(ran_view + ran_action), strict=True):
        # Postgres prints "Seq Scan on <table>" for a whole-table read; the VALUES lists of
        # the rate counting and the insert are not tables.
        assert "Seq Scan" not in plan, f"{sql}\n{plan}"


def test_hot_statements_are_prepared_once_per_connection(client, new_match):
    """Postgres parses and plans a statement run often on a connection only once."""
    view = new_match(seed=21)
    for _ in range(6):
        assert client.get(f"/api/v1/matches/{view['id']}").status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any("json_agg" in statement for statement in prepared), prepared  # the match read
    assert any("ON CONFLICT" in statement for statement in prepared), prepared  # auth + limits


MATCH_TABLES = tuple(model._meta.db_table for model in (Match, Deal, EventBatch, Seat))


def writes_to_matches(ran: list[str]) -> list[str]:
    """The statements that change a match's rows (the gate's rate counting is no match's)."""
    changes = ("INSERT", "UPDATE", "DELETE")
    return [
        sql
        for sql in ran
        if any(word in sql for word in changes)
        and any(f'"{table}"' in sql or f" {table} " in sql for table in MATCH_TABLES)
    ]


def test_reads_never_write_and_a_finished_match_reads_its_figures_with_its_row(client):
    """docs/skill.md: the writes that ended a verifiable series' deals stored their figures,
    the last one's and their sums in the match row too, so every read of the finished
    match, the first too, runs the statements of any view, none of which writes."""
    from tests.fairness.test_fairness import play_to_the_end

    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    final = play_to_the_end(client, view, [])
    assert final["skill"] is None  # a write's answer shows no figures, as it always did
    base = f"/api/v1/matches/{view['id']}"
    first, ran_first = request(client, "view", "get", base)
    again, ran_again = request(client, "view", "get", base)
    assert first["skill"] is not None and again == first
    assert len(ran_first) == len(ran_again) == QUERIES["view"]
    assert writes_to_matches(ran_first + ran_again) == []
