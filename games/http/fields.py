"""The fields, choices and prose that the API's serializers share. Component names in the
OpenAPI schema come from the class names without "Serializer" (or the `component_name` a
nested serializer declares), so every name is unique."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.ai import AI_LEVEL_MEANINGS, AI_LEVELS
from games.engine import Action, Actor, Outcome, SpectatorMode, Status, fairness

ACTION_NAMES = tuple(action.value for action in Action)
# A match is stored once started, so a client never sees not_started.
MATCH_STATUSES = tuple(status.value for status in Status if status is not Status.NOT_STARTED)
# `bot` was added with bot accounts (docs/bots.md): a client that knew only `human` and `ai`
# must take an unknown kind for a seat played through the API.
SEAT_KINDS = ("human", "ai", "bot")
SEAT_KIND_DOC = (
    "`human` (a person), `bot` (a program that declared itself one, docs/bots.md) or `ai` "
    "(the server's AI). `bot` is new: clients written before it must accept kinds they do "
    "not know."
)
# Abandoned deals have no deal_ended event, so no result says so.
DEAL_OUTCOMES = (Outcome.SHOWDOWN.value, Outcome.UNCONTESTED.value)
MAX_SEED = 2**63 - 1
MAX_VERSION = 2**31 - 1
MAX_WAIT_SECONDS = 30
"""The longest a long-poll of `events` waits."""
ACTORS = tuple(actor.value for actor in Actor)
SPECTATOR_MODES = tuple(mode.value for mode in SpectatorMode)
# A delayed spectator may see a match as it stood before deal 1 was dealt.
SPECTATOR_STATUSES = tuple(status.value for status in Status)
SPECTATORS_DOC = (
    "Who may watch with the watch code: `off` (nobody), `delayed` (a deal's moves once that "
    "deal has ended) or `live` (public moves as they happen). Spectators never see a hand "
    "but those a showdown showed (docs/spectators.md)."
)


# What a field means wherever it occurs.
SEAT_DOC = "A seat at the table, 0 to 3; `your_seat` says which is yours."
STAKE_DOC = "What this seat has put in this deal (1 to 4)."
FOLDED_DOC = "Whether this seat has folded this deal."
SEATS_DOC = "The four seats, in seat order."
ID_DOC = "A UUID."
CREATED_DOC = "When it was created (UTC, ISO 8601)."
UPDATED_DOC = "When it last changed (UTC, ISO 8601)."
SEEDED_DOC = (
    "Whether the client chose the match's seed (tests and development): seeded matches stay "
    "out of a player's stats."
)
STATUS_MEANINGS = {
    Status.WAITING: "a table waits for its humans; deal 1 starts when the last one joins",
    Status.IN_DEAL: "a deal is being played",
    Status.DEAL_OVER: "call next-deal",
    Status.FINISHED: "all 12 deals played, or resigned",
    Status.ABANDONED: "every human left before the end; nobody plays it any more",
}
STATUS_DOC = (
    "Where the match stands: "
    + "; ".join(f"`{status}` ({meaning})" for status, meaning in STATUS_MEANINGS.items())
    + "."
)
AI_LEVEL_DOC = (
    "How well the AI seats play: "
    + "; ".join(f"`{level}` ({AI_LEVEL_MEANINGS[level]})" for level in AI_LEVELS)
    + "."
)


class ChoiceField(serializers.ChoiceField):
    """A choice whose refusal lists the choices, so a client need not look them up."""

    default_error_messages = {
        "invalid_choice": '"{input}" is not a valid choice; allowed: {allowed}.',
    }

    def fail(self, key, **kwargs):
        if key == "invalid_choice":
            kwargs["allowed"] = ", ".join(str(choice) for choice in self.choices)
        super().fail(key, **kwargs)


@extend_schema_field({"type": "string", "pattern": "^[0-9a-f]{64}$", "example": "9f8e" + "0" * 60})
class HexField(serializers.CharField):
    """32 bytes in lowercase hex: a SHA-256 commitment, or a revealed server seed."""


class ClientSeedField(serializers.CharField):
    """Your part of a verifiable deal's randomness."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "help_text",
            "Your part of the dealing's randomness: 1 to 64 printable ASCII characters, mixed "
            "with the server seed it was committed to (docs/fairness.md).",
        )
        super().__init__(
            min_length=1, max_length=fairness.CLIENT_SEED_MAX, trim_whitespace=False, **kwargs
        )

    def to_internal_value(self, data):
        if not isinstance(data, str):  # a number is not a seed someone chose as text
            self.fail("invalid")
        value = super().to_internal_value(data)
        if not fairness.valid_client_seed(value):
            raise serializers.ValidationError(
                "A client seed is 1 to 64 printable ASCII characters.", code="invalid_client_seed"
            )
        return value


MIN_FILL_AFTER, MAX_FILL_AFTER = 10, 3600
MIN_TURN_SECONDS = 10
FILL_AFTER_DOC = (
    f"A table only: seconds ({MIN_FILL_AFTER} to {MAX_FILL_AFTER}) after which, if seats are "
    "still open, the AI takes them for the whole match (a `seats_filled` event) and deal 1 "
    "starts. Left out: the table waits for its humans however long (docs/turn-clock.md)."
)


@extend_schema_field(
    {
        "type": "string",
        "pattern": r"^\d+(/\d+)?$",
        "description": "An exact probability in lowest terms, as '4542/7007', '0' or '1'.",
        "example": "4542/7007",
    }
)
class ProbabilityField(serializers.CharField):
    pass
