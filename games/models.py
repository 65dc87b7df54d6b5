"""Matches are event-sourced: MatchEvent rows are the truth, and Match.state is their
projection (`replay(events)`), written in the same transaction as the events."""

import uuid

from django.db import models

from games.engine import Status
from players.models import Player

# The engine's statuses, less not_started: a stored match has started.
STATUS_CHOICES = [
    (status.value, status.name.replace("_", " ").title())
    for status in Status
    if status is not Status.NOT_STARTED
]


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
    series = models.PositiveIntegerField(default=1)
    deal_number = models.PositiveIntegerField(default=0)
    totals = models.JSONField(default=list, help_text="The four exact totals, as fractions.")
    winners = models.JSONField(null=True, blank=True)
    state = models.JSONField(help_text="The engine state: the projection of the events.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="match_owner_created"),
            models.Index(fields=["-updated_at"], name="match_updated"),
            models.Index(fields=["status"], name="match_status"),
        ]

    def __str__(self) -> str:
        return f"Match {self.id}"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number}: {self.player.name}"


class Deal(models.Model):
    class Outcome(models.TextChoices):
        SHOWDOWN = "showdown"
        UNCONTESTED = "uncontested"
        ABANDONED = "abandoned"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    series = models.PositiveIntegerField()
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    # The shuffled deck (card i goes to seat dealer+1+i mod 4). Staff only; never sent out.
    deck = models.JSONField()
    outcome = models.CharField(
        max_length=16, choices=Outcome.choices, blank=True, help_text="Empty while in play."
    )
    result = models.JSONField(null=True, blank=True, help_text="The deal_ended event, in full.")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "series", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "series", "number"], name="deal_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"Series {self.series} deal {self.number}"


class MatchEvent(models.Model):
    """One engine event. Append-only: rows are never updated or deleted on their own.
    Keyed by (match, seq): nothing points at an event, so it needs no id of its own, and the
    key doubles as the index by match."""

    pk = models.CompositePrimaryKey("match", "seq")
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"


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
