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
    # SHA-256 of the bearer token; the token itself is shown once and never stored.
    # NULL, not "", for AI personas: they have no token, and NULLs never collide when unique.
    token_hash = models.CharField(  # noqa: DJ001
        max_length=64, unique=True, null=True, blank=True, editable=False
    )
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
