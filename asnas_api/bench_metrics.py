"""Per-request cost headers for `manage.py bench`, loaded only when ASNAS_BENCH_METRICS=1 (see
settings), so the normal request path does not pay for them.

X-Bench-Queries: SQL statements Django ran (BEGIN and COMMIT are not statements here).
X-Bench-App-Cpu-Ns: CPU time of this worker thread inside Django.
X-Bench-Db-Cpu-Ns: CPU time of this worker's Postgres backend meanwhile, read from /proc,
so only for a database on this machine (the bench's embedded one).

And the floors the bench measures beside the API (asnas_api/urls.py serves them only then):
- `GET /bench/floor/read`: a bare DRF view, no authentication, permission or rate limit: what
  Django and DRF cost before any work.
- `POST /bench/floor/write/<match_id>`: the least write that does an action's work in the
  fewest round trips, without authentication or rules: lock the match row and read its state,
  then store it back with one event batch in one statement, and commit. It appends junk to the
  match's events, which is why only the bench's throwaway database ever sees it."""

import time
from pathlib import Path

from django.db import connection, transaction
from django.utils import timezone
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import EventBatch, Match


def _backend_cpu() -> tuple[int | None, int]:
    """This worker's Postgres backend pid and its CPU time so far in ns, or (None, 0)."""
    raw = connection.connection
    if raw is None or raw.closed:
        return None, 0
    pid = raw.info.backend_pid
    # schedstat's first field is the task's run time in ns; /proc/PID/stat only has 10 ms ticks.
    return pid, int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


class BenchMetricsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        queries = 0
        backend, db_start = None, 0

        def count(execute, sql, params, many, context):
            nonlocal queries, backend, db_start
            if not queries:
                # Read at the first query: a pooled connection is only taken from the pool then.
                backend, db_start = _backend_cpu()
            queries += 1
            return execute(sql, params, many, context)

        app_start = time.thread_time_ns()
        with connection.execute_wrapper(count):
            response = self.get_response(request)
        app_ns = time.thread_time_ns() - app_start
        backend_after, db_end = _backend_cpu() if queries else (None, 0)
        if backend_after != backend:
            db_start = 0  # a backend born during this request: all of its time is this request's
        response["X-Bench-Queries"] = str(queries)
        response["X-Bench-App-Cpu-Ns"] = str(app_ns)
        response["X-Bench-Db-Cpu-Ns"] = str(db_end - db_start)
        return response


_LOCK = f"SELECT version, state::text FROM {Match._meta.db_table} WHERE id = %s FOR UPDATE"
_WRITE = (
    f"WITH projection AS (UPDATE {Match._meta.db_table}"
    " SET version = %s, state = %s::jsonb, updated_at = %s WHERE id = %s)"
    f" INSERT INTO {EventBatch._meta.db_table} (match_id, seq, events, created_at)"
    " VALUES (%s, %s, %s, %s)"
)


class Bare(APIView):
    authentication_classes = []
    permission_classes = []
    throttle_classes = []
    schema = None


class FloorRead(Bare):
    def get(self, request):
        return Response({"status": "ok"})


class FloorWrite(Bare):
    def post(self, request, match_id):
        now = timezone.now()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_LOCK, [match_id])
            version, state = cursor.fetchone()
            seq = version + 1
            cursor.execute(_WRITE, [seq, state, now, match_id, match_id, seq, "floor", now])
        return Response({"version": seq})
