import random

from django.core.management.base import BaseCommand
from django.db import connection

from games.engine import HUMAN_SEAT, MatchState, Status, legal_actions
from games.match import commands as match_commands
from games.models import Deal, EventBatch, IdempotencyRecord, Match, Seat
from players.services import player_create

# What one match stores; idempotency records and rate counters are not the match's.
TABLES = (Match, Seat, Deal, EventBatch)


class Command(BaseCommand):
    help = (
        "Play --matches whole 12-deal matches through the services (random legal actions, "
        "seeded), then report the live bytes per finished match of each table (after VACUUM FULL: "
        "dead row versions are reused in a long-lived table), indexes and TOAST "
        "included, and the WAL bytes per write (create, action or next deal) they took. Run it "
        "on a throwaway database: it adds matches."
    )

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=50)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, matches: int, seed: int, **options):
        before = self._sizes()
        owner, _ = player_create(name="storage-report")
        rng = random.Random(seed)
        wal_start = self._wal_position()
        writes = sum(self._play(owner, seed + number, rng) for number in range(matches))
        wal_bytes = self._wal_since(wal_start)
        after = self._sizes()
        self.stdout.write(f"{matches} finished matches; bytes per match:")
        total = 0
        for model in TABLES:
            table = model._meta.db_table
            per_match = (after[table] - before[table]) / matches
            total += per_match
            self.stdout.write(f"  {table:<24} {per_match:>10,.0f}")
        self.stdout.write(f"  {'total':<24} {total:>10,.0f}")
        self.stdout.write(f"  (not counted: {IdempotencyRecord._meta.db_table})")
        self.stdout.write(
            f"WAL: {wal_bytes:,} bytes for {writes:,} writes = {wal_bytes / writes:,.0f} per write"
        )

    def _play(self, owner, seed: int, rng: random.Random) -> int:
        """Play one whole match; return how many writes it took."""
        match = match_commands.match_create(owner=owner, ai_level="easy", seed=seed)
        writes = 1
        match_id = Match.objects.values_list("id", flat=True).get(owner=owner, seed=seed)
        del match  # the services' return type differs between versions; the row is enough
        while True:
            stored = Match.objects.values_list("state", flat=True).get(id=match_id)
            state = MatchState.from_dict(stored)
            if state.status is Status.FINISHED:
                return writes
            writes += 1
            if state.status is Status.DEAL_OVER:
                match_commands.match_move(move="next_deal", match_id=match_id, player=owner)
            else:
                action = rng.choice(legal_actions(state, HUMAN_SEAT))
                match_commands.match_move(
                    move="act", match_id=match_id, player=owner, action=action
                )

    @staticmethod
    def _wal_position() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            return cursor.fetchone()[0]

    @staticmethod
    def _wal_since(start: str) -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)::bigint", [start])
            return cursor.fetchone()[0]

    def _sizes(self) -> dict[str, int]:
        with connection.cursor() as cursor:
            for model in TABLES:
                cursor.execute(f"VACUUM FULL ANALYZE {model._meta.db_table}")
            return {
                model._meta.db_table: self._size(cursor, model._meta.db_table) for model in TABLES
            }

    @staticmethod
    def _size(cursor, table: str) -> int:
        cursor.execute("SELECT pg_total_relation_size(%s)", [table])
        return cursor.fetchone()[0]
