"""The floors that `manage.py bench` measures beside the API, served only with
ASNAS_BENCH_METRICS=1 (asnas_api/urls.py): what a request costs at the least.

- `GET /bench/floor/read`: a bare DRF view, no authentication, permission or rate limit: what
  Django and DRF cost before any work.
- `POST /bench/floor/write/<match_id>`: the least write that does an action's work in the
  fewest round trips, without authentication or rules: lock the match row and read its state,
  then store it back with one event batch in one statement, and commit. It appends junk to the
  match's events, which is why only the bench's throwaway database ever sees it."""

from django.db import connection, transaction
from django.utils import timezone
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import EventBatch, Match

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
