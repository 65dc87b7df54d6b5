import uuid

from django.db import models


class Player(models.Model):
    """A person who plays through the API, a bot (a program that said so, for good: docs/bots.md)
    that plays through it too, or an AI persona that sits at AI seats."""

    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        AI = "ai", "AI"
        BOT = "bot", "Bot"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=64)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # AI personas are shared by every match, looked up by name.
            models.UniqueConstraint(
                fields=["name"], condition=models.Q(kind="ai"), name="player_unique_ai_name"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return self.kind == Player.Kind.BOT

    # DRF treats the authenticated principal like a user.
    @property
    def is_authenticated(self) -> bool:
        return True


class Token(models.Model):
    """One bearer token of a human player, say one per device. Only its SHA-256 is kept: the
    token itself is shown once, so a lost token can be replaced but never recovered."""

    token_hash = models.CharField(max_length=64, primary_key=True, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tokens")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        # Never the hash: a name for logs and the shell must not help anyone guess a token.
        return f"token of player {self.player_id}, issued {self.created_at:%Y-%m-%d %H:%M:%S}"


class StreamTicket(models.Model):
    """A single-use pass to open one event stream, for clients that cannot send headers
    (browsers' EventSource): `?ticket=` in the stream's URL, where a token must never be.
    Only its SHA-256 is kept, in the database, so any server can redeem it."""

    ticket_hash = models.CharField(max_length=64, primary_key=True, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="stream_tickets")
    match_id = models.UUIDField(
        null=True, blank=True, help_text="The match whose stream it opens; none: the player's."
    )
    expires_at = models.DateTimeField(db_index=True)
    token_hash = models.CharField(
        max_length=64,
        editable=False,
        help_text="The hash of the token that issued it: the stream it opens lives as long "
        "as that token does (rotated or revoked, the ticket and its stream are dead).",
    )

    def __str__(self) -> str:
        return f"stream ticket of player {self.player_id}, until {self.expires_at:%H:%M:%S}"


class Rating(models.Model):
    """A human's OpenSkill rating (docs/ratings.md); none until their first rated match. The
    AI levels' ratings are constants (players/rating_anchors.py), never rows: they never
    move. mu and sigma are floats by OpenSkill's nature: a rating, not points."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    displayed = models.FloatField(help_text="mu - 3 sigma: what is shown and ranked by.")
    matches = models.PositiveIntegerField(default=0, help_text="How many rated matches.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # The leaderboard: its players only (5 rated matches or more), in its order.
            models.Index(
                models.F("displayed").desc(),
                "player",
                name="rating_leaderboard",
                condition=models.Q(matches__gte=5),
            ),
        ]

    def __str__(self) -> str:
        return f"rating of player {self.player_id}: {self.displayed:.2f}"


class RatingChange(models.Model):
    """One rated match of one human: their place and their rating before and after. A match
    is rated once per series (a restart plays a new series), which the unique key makes sure
    of. `match_id` is a plain UUID: players knows nothing of games."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match_id = models.UUIDField()
    series = models.PositiveIntegerField()
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField(help_text="1 to 4, 1 best; tied seats share one.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match_id", "series", "player"], name="rating_change_unique_match"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "-finished_at"], name="rating_change_player"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} series {self.series}: place {self.place}"
