"""Matches are event-sourced: the events (EventBatch rows) are the truth, and Match.state,
its columns and the Deal rows are their projection (`replay(events)`), written in the same
transaction as the events. Each fact is stored once (docs/performance.md, "Storage")."""

import uuid

from django.db import models

from games.engine import BenchmarkStatus, Outcome, SpectatorMode, Status
from players.models import Player

# The engine's statuses, less not_started: a stored match has started.
STATUS_CHOICES = [
    (status.value, status.name.replace("_", " ").title())
    for status in Status
    if status is not Status.NOT_STARTED
]
OUTCOME_CHOICES = [(outcome.value, outcome.name.title()) for outcome in Outcome]
SPECTATOR_CHOICES = [(mode.value, mode.name.title()) for mode in SpectatorMode]


class Match(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="matches")
    ai_level = models.CharField(max_length=16)
    # The random source of every deal. Never sent to a client: it would reveal every hand.
    seed = models.BigIntegerField()
    seeded = models.BooleanField(
        default=False, help_text="The client chose the seed; such a match is left out of stats."
    )
    version = models.PositiveIntegerField(default=0, help_text="The seq of the last event.")
    status = models.CharField(max_length=16, choices=STATUS_CHOICES)
    invite = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="A table's invite code (192 random bits); shown to the owner while seats "
        "are open. Empty for a single-player match.",
    )
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="The turn clock; null: no clock."
    )
    spectators = models.CharField(
        max_length=8,
        choices=SPECTATOR_CHOICES,
        default=SpectatorMode.OFF.value,
        help_text="Who may watch with the watch code: nobody, a deal once it ended, or live.",
    )
    # Only its SHA-256, like a token's: a watch code is a bearer secret, shown once.
    watch_code_hash = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="The SHA-256 of the watch code; empty while spectators are off.",
    )
    open = models.BooleanField(
        default=False,
        help_text="Listed in GET /tables while it waits: anyone may join without the invite.",
    )
    bots = models.BooleanField(
        default=False,
        help_text="Whether the owner allowed bots (docs/bots.md) to join the table: shown "
        "before anyone joins, and only such a table seats a bot beside a human.",
    )
    fill_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the AI takes the seats still open, if the table still waits then; "
        "null: it waits for its humans however long.",
    )
    turn_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the present human to act runs out of time and the clock acts for "
        "them; null without a clock or when no present human is to act.",
    )
    series = models.PositiveIntegerField(default=1)
    deal_number = models.PositiveIntegerField(default=0)
    totals = models.JSONField(default=list, help_text="The four exact totals, as fractions.")
    winners = models.JSONField(null=True, blank=True)
    state = models.JSONField(help_text="The engine state: the projection of the events.")
    skill = models.JSONField(
        null=True,
        blank=True,
        help_text="The current series' skill figures so far (docs/skill.md): the last deal's, "
        "their sums, and who may see every deal; kept by the write that ends a deal, so a read "
        "needs no other row. Null before a deal ended, or for a series begun before it was kept.",
    )
    tournament = models.ForeignKey(
        "Tournament",
        on_delete=models.PROTECT,
        related_name="matches",
        null=True,
        blank=True,
        help_text="The tournament this match is its owner's entry in (docs/tournaments.md); "
        "null for any other match.",
    )
    tournament_pool = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="In a tournament: the deal pool the match was dealt from, drawn at entry; "
        "null for any other match.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="match_owner_created"),
            models.Index(fields=["-updated_at"], name="match_updated"),
            models.Index(fields=["status"], name="match_status"),
            # The clock's two queues: turns that run out, and clocked deals over that start
            # the next by themselves. Partial: they hold only the few matches in them.
            models.Index(
                fields=["turn_deadline"],
                name="match_turn_deadline",
                condition=models.Q(turn_deadline__isnull=False),
            ),
            models.Index(
                fields=["updated_at"],
                name="match_clocked_deal_over",
                condition=models.Q(status="deal_over", turn_seconds__isnull=False),
            ),
            # The lobby, oldest first, and the clock's third queue: tables to fill.
            models.Index(
                fields=["created_at"],
                name="match_open_waiting",
                condition=models.Q(open=True, status="waiting"),
            ),
            models.Index(
                fields=["fill_at"],
                name="match_fill_due",
                condition=models.Q(status="waiting", fill_at__isnull=False),
            ),
        ]
        constraints = [
            # A player enters a tournament once: its one match each. On Citus, which cannot
            # hold a unique constraint without the match's id, citus_distribute drops it and
            # tournament_enter's check under the tournament's row lock holds it alone.
            models.UniqueConstraint(
                fields=["tournament", "owner"],
                name="match_one_entry_per_tournament",
                condition=models.Q(tournament__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.id}"


class WatchCode(models.Model):
    """Which match a watch code opens, by the code's hash: the spectators' way in. A table of
    its own, keyed by the hash, so that on Citus the lookup goes to one shard (the match row
    is found by its id), and the codes stay unique without a unique index on the match table,
    which Citus refuses (it would not contain the match's id). Written only when a code is
    drawn or dropped, in the same transaction as the match's `watch_code_hash`; no foreign
    key, as Citus keeps the two tables on different shards."""

    code_hash = models.CharField(max_length=64, primary_key=True, editable=False)
    match_id = models.UUIDField()

    def __str__(self) -> str:
        return f"watch code of {self.match_id}"


class Seat(models.Model):
    # The unique key starts with match_id, so the foreign key needs no index of its own.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="seats",
        null=True,
        blank=True,
        help_text="Null: a human seat of a table that nobody has taken yet.",
    )

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number}: {self.player.name if self.player else 'open'}"


class Deal(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals", db_index=False)
    series = models.PositiveIntegerField()
    deal_number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    # The deck and the result are in the deal's events, and only there: started_seq finds them.
    started_seq = models.PositiveIntegerField(help_text="The seq of its deal_started event.")
    outcome = models.CharField(
        max_length=16, choices=OUTCOME_CHOICES, blank=True, help_text="Empty while in play."
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    skill = models.JSONField(
        null=True,
        blank=True,
        help_text="Which hands were shown, and cards, play and table by seat (docs/skill.md; "
        "seats null where no viewer may see them), stored by the write that ended the deal. "
        "Null for a deal ended before writes stored them, or whose rows were rebuilt: a read "
        "works them out.",
    )
    state_before = models.JSONField(
        null=True,
        blank=True,
        help_text="While the deal is in play, the match's state just before its deal_started: "
        "what a delayed spectator is shown (docs/spectators.md), read rather than replayed. "
        "Null once it ended, and for a deal started before this column or whose rows were "
        "rebuilt (their spectators' view is replayed).",
    )

    class Meta:
        ordering = ["match", "series", "deal_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "series", "deal_number"], name="deal_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"Series {self.series} deal {self.deal_number}"


class DealReview(models.Model):
    """An ended deal's review of its human seats' decisions (docs/review.md): made due (no
    body) by the write that ends the deal, in that write's one statement, and filled after it
    commits by the review room's worker. Only games/review/store.py touches it."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="deal_reviews", db_index=False
    )
    series = models.PositiveIntegerField()
    deal_number = models.PositiveSmallIntegerField()
    due_at = models.DateTimeField(help_text="When the write that ended the deal made it due.")
    reviewed_at = models.DateTimeField(null=True, blank=True)
    body = models.JSONField(
        null=True,
        blank=True,
        help_text="By seat (a string key), each human seat's review of the deal as the API "
        "shows it; null while due.",
    )

    class Meta:
        ordering = ["match", "series", "deal_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "series", "deal_number"], name="deal_review_unique_number"
            ),
        ]
        indexes = [
            # The sweep's queue: reviews still due, oldest first.
            models.Index(
                fields=["due_at"], name="deal_review_due", condition=models.Q(body__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        return f"Review of series {self.series} deal {self.deal_number}"


class EventBatch(models.Model):
    """The events of one write, in seq order, as the lines of `events` (their compact form,
    games/engine/codec.py). Keyed by (match, seq), `seq` being the seq of its last event, so
    event n is in the first batch of its match with seq >= n. Append-only: rows are never
    updated or deleted on their own. Nothing points at a batch, so it needs no id."""

    pk = models.CompositePrimaryKey("match", "seq")
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="event_batches", db_index=False
    )
    seq = models.PositiveIntegerField(help_text="The seq of the last event in the batch.")
    events = models.TextField(help_text="One encoded event a line.")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "seq"]
        verbose_name_plural = "event batches"

    def __str__(self) -> str:
        return f"events to #{self.seq}"


class IdempotencyRecord(models.Model):
    """The stored outcome of a state-changing request sent with an Idempotency-Key.

    Written in the same transaction as the change it guards, so a key has an outcome
    exactly when its change committed."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="idempotency_unique_key"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return self.key


class Hint(models.Model):
    """A hint the coach gave, logged for the admin. Not a match event: asking for one changes
    no version, so it never makes a client's next `expected_version` stale."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hints")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hints")
    version = models.PositiveIntegerField(help_text="The match's version when it was asked.")
    series = models.PositiveIntegerField()
    deal_number = models.PositiveSmallIntegerField()
    advice = models.JSONField(help_text="The hint as the player got it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at"]
        indexes = [models.Index(fields=["match", "created_at"], name="hint_match_created")]

    def __str__(self) -> str:
        return f"Hint at version {self.version}"


class Commitment(models.Model):
    """A server seed drawn before any client seed is known, published as its SHA-256: a
    match created with this commitment deals its first series from the seed. Single-use,
    and good for COMMITMENT_SECONDS (docs/fairness.md)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="commitments")
    server_seed = models.CharField(max_length=64, help_text="Hex; secret until revealed.")
    expires_at = models.DateTimeField()
    used = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["expires_at"], name="commitment_expires")]

    def __str__(self) -> str:
        return f"commitment {self.id}"


class WatchTicket(models.Model):
    """A single-use pass to open a match's watch stream (`?ticket=`), for a spectator's
    browser, which cannot send the Watch-Code header from an EventSource. Only hashes are
    kept: of the ticket, and of the watch code it was issued for, so a code drawn again or
    spectators turned off make its tickets useless too."""

    ticket_hash = models.CharField(max_length=64, primary_key=True, editable=False)
    watch_code_hash = models.CharField(max_length=64)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"watch ticket until {self.expires_at:%H:%M:%S}"


class WatchStream(models.Model):
    """One open watch stream, for counting them across every server process: the stream
    renews `expires_at` on each heartbeat and deletes its row when it closes; a row whose
    process died expires by itself."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    address = models.CharField(max_length=64, help_text="The SHA-256 of the client's address.")
    process = models.CharField(max_length=64, help_text="The server process that serves it.")
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["match", "expires_at"], name="watch_stream_match"),
            models.Index(fields=["address", "expires_at"], name="watch_stream_address"),
            models.Index(fields=["process", "expires_at"], name="watch_stream_process"),
            models.Index(fields=["expires_at"], name="watch_stream_expires"),
        ]

    def __str__(self) -> str:
        return f"watch stream until {self.expires_at:%H:%M:%S}"


class Tournament(models.Model):
    """A duplicate tournament (docs/tournaments.md): every entrant plays one 12-deal match
    against three AI seats on the same deals, dealt from `server_seed`, which was drawn and
    committed to at creation and is revealed at the close (the play deadline)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=80)
    creator = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tournaments")
    ai_level = models.CharField(max_length=16, help_text="The AI seats' level: easy to hard.")
    entry_opens_at = models.DateTimeField()
    entry_closes_at = models.DateTimeField()
    deadline = models.DateTimeField(help_text="The play deadline: the tournament closes then.")
    cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="The most entrants it takes; null: no cap."
    )
    turn_seconds = models.PositiveIntegerField(help_text="Each match's turn clock.")
    bots = models.BooleanField(
        default=False,
        help_text="Whether the organizer allowed bots (docs/bots.md) to enter; shown to all.",
    )
    pools = models.PositiveSmallIntegerField(
        default=1,
        help_text="How many deal pools: each entrant is dealt one, drawn at entry, and scored "
        "within it; each pool's seed is derived from `server_seed`.",
    )
    server_seed = models.CharField(
        max_length=64, help_text="Hex; deals every entrant's match; secret until the close."
    )
    commitment = models.CharField(max_length=64, help_text="The seed's SHA-256, public.")
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="When it closed and revealed its seed; null: not yet."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["-created_at"], name="tournament_created"),
            # The close's queue: tournaments past their deadline and not yet closed.
            models.Index(
                fields=["deadline"],
                name="tournament_to_close",
                condition=models.Q(closed_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Puzzle(models.Model):
    """A decision of a finished match where one action is clearly best, as its seat saw it
    (games.puzzles, docs/puzzles.md). It names nobody and keeps nothing that links it to its
    match: no match, series, deal number, time or name."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    position = models.JSONField(help_text="The position as the seat saw it, seats relative.")
    actions = models.JSONField(help_text="The legal actions, in the API's order.")
    values = models.JSONField(help_text="Each action's exact value (a fraction as a string).")
    best = models.CharField(max_length=8)
    margin = models.TextField(help_text="The best action's lead over the next, exactly.")
    themes = models.JSONField(default=list)
    excluded = models.JSONField(
        default=list,
        help_text="The ids of the players of the match it came from, who never get it. Never "
        "shown.",
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="mu - 3 sigma: what a solver's rating is matched to.")
    tries = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["rating"], name="puzzle_rating")]

    def __str__(self) -> str:
        return f"Puzzle {self.id}"


class PuzzleMined(models.Model):
    """The matches whose puzzles were mined, each once. Which puzzles came of it is not kept."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True)

    def __str__(self) -> str:
        return f"Puzzles mined of {self.match_id}"


class PuzzleSolver(models.Model):
    """A player's puzzle rating (OpenSkill, as players.rating), kept apart from the match one."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    tries = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Puzzle rating of {self.player_id}"


class PuzzleTry(models.Model):
    """One player's one try at a puzzle: each puzzle is tried once by each player."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", db_index=False)
    action = models.CharField(max_length=8)
    solved = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "puzzle"], name="puzzle_try_once"),
        ]

    def __str__(self) -> str:
        return f"Try of {self.puzzle_id} by {self.player_id}"


BENCHMARK_STATUS_CHOICES = [(status.value, status.name.title()) for status in BenchmarkStatus]


class Benchmark(models.Model):
    """A bot's benchmark (docs/bots.md): `deals` deals against three `hard` seats, in matches
    of 12 the server deals one after another from `server_seed`, and the exact sums of the
    bot's play and result over the deals of the matches it finished (the figure)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    deals = models.PositiveIntegerField(help_text="The deals asked for: a multiple of 12.")
    server_seed = models.CharField(
        max_length=64,
        help_text="Hex; each match's seed is HMAC-SHA256 of `pool:<n>` keyed with it (as a "
        "tournament's pools). Never shown: each match reveals its own seed as it ends.",
    )
    status = models.CharField(max_length=16, choices=BENCHMARK_STATUS_CHOICES)
    matches = models.PositiveIntegerField(default=0, help_text="How many matches were dealt.")
    current_match = models.UUIDField(
        null=True,
        blank=True,
        help_text="The match in play (no foreign key: a match lives on its own shard); null "
        "once the benchmark finished.",
    )
    sums = models.JSONField(
        help_text="Over the finished matches' deals: their number and the exact sums of the "
        "bot's play and result and of their squares (games.ai.benchmark.Sums)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["player", "-created_at"], name="benchmark_latest"),
            # The bots' leaderboard and the housekeeping: finished benchmarks only.
            models.Index(
                fields=["player", "-finished_at"],
                name="benchmark_finished",
                condition=models.Q(status="finished"),
            ),
        ]

    def __str__(self) -> str:
        return f"Benchmark {self.id}"


class BenchmarkMatch(models.Model):
    """A match a benchmark dealt: the mark that it is one (no restart, no giving up), its
    number in the benchmark, and what the housekeeping deletes once the benchmark is old."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    benchmark = models.ForeignKey(Benchmark, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField(help_text="0 for the benchmark's first match.")

    def __str__(self) -> str:
        return f"Match {self.number} of benchmark {self.benchmark_id}"
