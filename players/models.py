import uuid

from django.db import models


class Player(models.Model):
    """A person who plays through the API, or an AI persona that sits at AI seats."""

    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        AI = "ai", "AI"

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

    def __str__(self) -> str:
        return f"stream ticket of player {self.player_id}, until {self.expires_at:%H:%M:%S}"
