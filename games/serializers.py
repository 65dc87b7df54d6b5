"""Request and response serializers of the match API. Component names in the OpenAPI
schema come from the class names without "Serializer", so every name is unique."""

import copy

from django.conf import settings
from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from edge.serializers import (
    PointsField,
    QueryBooleanField,
    QueryNumberField,
    Rendered,
    RequestBodySerializer,
    UtcDateTimeField,
)
from games.ai import AI_LEVELS, DEFAULT_AI_LEVEL
from games.engine import (
    CATEGORIES,
    DEAL_NUMBER,
    EVENT_TYPES,
    MATCH_DEALS,
    RANKS,
    SEATS,
    SERIES,
    Action,
    EventType,
    Notice,
    Outcome,
    Status,
    fairness,
)
from games.engine.events import COMMITMENT_DOC, NEXT_COMMITMENT_DOC, SCHEME_DOC

ACTION_NAMES = tuple(action.value for action in Action)
# A match is stored once started, so a client never sees not_started.
MATCH_STATUSES = tuple(status.value for status in Status if status is not Status.NOT_STARTED)
SEAT_KINDS = ("human", "ai")
# Abandoned deals have no deal_ended event, so no result says so.
DEAL_OUTCOMES = (Outcome.SHOWDOWN.value, Outcome.UNCONTESTED.value)
MAX_SEED = 2**63 - 1
MAX_VERSION = 2**31 - 1
MAX_WAIT_SECONDS = 30
"""The longest a long-poll of `events` waits."""
ACTORS = ("player", "ai", "clock")
SPECTATOR_MODES = ("off", "delayed", "live")
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
AI_LEVEL_MEANINGS = {
    "easy": "a loose heuristic that feels human",
    "normal": "a tight heuristic that weighs its hand against the price",
    "hard": "a near-equilibrium strategy",
    "expert": "hard, shifted toward exploiting what it has seen of the other seats this match",
}
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
FILL_AFTER_DOC = (
    f"A table only: seconds ({MIN_FILL_AFTER} to {MAX_FILL_AFTER}) after which, if seats are "
    "still open, the AI takes them for the whole match (a `seats_filled` event) and deal 1 "
    "starts. Left out: the table waits for its humans however long (docs/turn-clock.md)."
)


class MatchCreateSerializer(RequestBodySerializer):
    """A new match: every field may be left out."""

    ai_level = ChoiceField(
        choices=AI_LEVELS,
        default=DEFAULT_AI_LEVEL,
        help_text="How well the AI seats play; restart may change it later.",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text="Fixes every deal (tests and development only; refused in production).",
    )

    # Not `default=1`: a field with a default is required in generated clients' types,
    # which would break every client that creates a match without it.
    humans = serializers.IntegerField(
        min_value=1,
        max_value=SEATS,
        required=False,
        help_text="How many humans play (default 1): you at seat 0, the others at seats 1 to "
        "humans - 1 in the order they join with the `invite`. Above 1, the match waits "
        "(`waiting`) until the last one joins.",
    )
    turn_seconds = serializers.IntegerField(
        min_value=10,
        max_value=86_400,
        allow_null=True,
        required=False,
        help_text="Seconds per turn, or null for no clock. Default: null alone, 60 at a table. "
        "When a present human's time runs out, the server acts for them at the AI level "
        "(docs/turn-clock.md).",
    )

    commitment = serializers.UUIDField(
        required=False,
        help_text="The id of a commitment you drew with POST /commitments: the first series "
        "deals from its server seed, committed to before you chose your `client_seed`. "
        "Without it, the server draws a seed now (still committed to in the answer).",
    )
    client_seed = ClientSeedField(required=False)
    verifiable = serializers.BooleanField(
        required=False,
        help_text="Whether each series' server seed is revealed when it ends, so that anyone "
        "can deal every deal again, folded hands included (docs/fairness.md). Default: true "
        "alone, false at a table; joiners see it before they join.",
    )
    spectators = ChoiceField(
        choices=SPECTATOR_MODES,
        required=False,
        help_text=SPECTATORS_DOC + " Default `off`; unless off, your answer carries the "
        "`watch_code`, once.",
    )

    open = serializers.BooleanField(
        required=False,
        help_text="A table (`humans` above 1) listed in GET /tables while it waits: anyone "
        "may join it without the invite. Default false.",
    )
    fill_after = serializers.IntegerField(
        min_value=MIN_FILL_AFTER,
        max_value=MAX_FILL_AFTER,
        required=False,
        help_text=FILL_AFTER_DOC,
    )

    def validate_seed(self, seed: int) -> int:
        if not settings.ASNAS_ALLOW_CLIENT_SEED:
            raise serializers.ValidationError(
                "Choosing a seed is not allowed on this server.", code="seed_not_allowed"
            )
        return seed

    def validate(self, data: dict) -> dict:
        if "seed" in data and "commitment" in data:
            raise serializers.ValidationError(
                {"commitment": "A seeded match deals from its seed; leave the commitment out."},
                code="invalid",
            )
        return data


class VersionSerializer(RequestBodySerializer):
    """A move that needs nothing but, if you like, the version you saw; `{}` will do."""

    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        help_text="The version you last saw; a different current version answers 409 "
        "stale_version and changes nothing.",
    )


class ActionSerializer(VersionSerializer):
    """Your action, one of `legal_actions`."""

    action = ChoiceField(choices=ACTION_NAMES, help_text="One of the view's `legal_actions`.")


class RestartSerializer(VersionSerializer):
    """A new series, at the same AI level unless you name another."""

    ai_level = ChoiceField(
        choices=AI_LEVELS,
        required=False,
        help_text="The AI seats' level from the new series on; unchanged if left out.",
    )
    client_seed = ClientSeedField(
        required=False,
        help_text="Your client seed for the new series, mixed with the server seed that "
        "`fairness.next_commitment` committed to (docs/fairness.md).",
    )


class JoinSerializer(RequestBodySerializer):
    """A table's invite, to take its next open seat; an open table needs none."""

    invite = serializers.CharField(
        max_length=128,
        required=False,
        help_text="The table's invite code, as its owner's MatchView shows it; not needed "
        "at an open table (GET /tables lists them).",
    )
    client_seed = ClientSeedField(required=False)


class InvitationSerializer(RequestBodySerializer):
    """A table's invite, to see the table before joining it."""

    invite = serializers.CharField(
        max_length=128,
        required=False,
        help_text="The table's invite code, as its owner shared it; not needed at an open table.",
    )


class CommitmentSerializer(serializers.Serializer):
    """A server seed drawn before you choose your client seed: create a match with its `id`
    within 10 minutes (once)."""

    id = serializers.UUIDField(help_text="Pass as `commitment` to POST /matches.")
    commitment = HexField(help_text="SHA-256 of the server seed (lowercase hex).")
    expires_at = UtcDateTimeField(help_text="When it can no longer create a match.")


class MatchRecordSerializer(serializers.Serializer):
    """A match's record to keep, `asnas-record/2`: docs/record.md describes it, and
    docs/record.schema.json is its JSON Schema."""

    format = serializers.ChoiceField(choices=["asnas-record/2"], help_text="The format.")
    match = serializers.DictField(
        help_text="id, created_at, ai_level, humans, seeded, status and version."
    )
    viewer_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat of the reader the record is shaped for."
    )
    seats = serializers.ListField(
        child=serializers.DictField(), help_text="The four seats: seat, name and kind."
    )
    series = serializers.ListField(
        child=serializers.DictField(),
        help_text="Each series: its commitments, client seeds and revealed server seed, its "
        "deals (dealer, moves, hands you may see, result) and its end.",
    )


class FairnessSerializer(serializers.Serializer):
    """How this series is dealt, and what proves it (docs/fairness.md)."""

    verifiable = serializers.BooleanField(
        help_text="Whether each series' server seed is revealed when it ends."
    )
    scheme = serializers.CharField(help_text=SCHEME_DOC)
    commitment = HexField(allow_null=True, help_text=COMMITMENT_DOC)
    client_seeds = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        help_text='The four client seeds by seat, "" where none was given.',
    )
    next_commitment = HexField(allow_null=True, help_text=NEXT_COMMITMENT_DOC)
    server_seed = HexField(
        allow_null=True,
        help_text="This series' server seed, once it ended and was revealed; else null.",
    )


class MatchListQuerySerializer(serializers.Serializer):
    status = ChoiceField(
        choices=MATCH_STATUSES, required=False, help_text="Only the matches with this status."
    )


class EventsQuerySerializer(serializers.Serializer):
    after = QueryNumberField(
        min_value=0, max_value=MAX_VERSION, default=0, help_text="Return events with seq > after."
    )
    wait = QueryNumberField(
        min_value=0,
        max_value=MAX_WAIT_SECONDS,
        default=0,
        help_text="A long-poll: when there is no event after `after` yet, wait up to this many "
        "seconds for one, and answer as soon as it is written (else with no events).",
    )


class _StreamCursorSerializer(serializers.Serializer):
    """Where a stream starts: what a match's stream and a watch stream share."""

    after = QueryNumberField(
        min_value=0,
        max_value=MAX_VERSION,
        default=0,
        help_text="Send the events with seq > after; the Last-Event-ID header wins over it.",
    )


class StreamQuerySerializer(_StreamCursorSerializer):
    ticket = serializers.CharField(
        required=False,
        help_text="A single-use ticket from POST /stream-tickets, for clients that cannot "
        "send an Authorization header (a browser's EventSource). Never put a token here.",
    )


class MatchSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        min_value=0,
        max_value=SEATS - 1,
        help_text=SEAT_DOC,
    )
    name = serializers.CharField(
        allow_null=True, help_text="Null at a human seat nobody has taken yet."
    )
    kind = serializers.ChoiceField(
        choices=SEAT_KINDS, help_text="Stays `human` after its human left."
    )
    away = serializers.BooleanField(
        help_text="The human left (the AI plays the seat), or the clock took their last turn."
    )
    stake = serializers.IntegerField(help_text=STAKE_DOC)
    folded = serializers.BooleanField(help_text=FOLDED_DOC)
    looked = serializers.BooleanField(
        help_text="Whether this seat has looked at its cards this deal."
    )
    total = PointsField()


class DealResultSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        min_value=0,
        max_value=SEATS - 1,
        help_text=SEAT_DOC,
    )
    hand = serializers.ListField(
        child=serializers.ChoiceField(choices=RANKS),
        allow_null=True,
        help_text="Null unless this hand may be shown to you.",
    )
    category = serializers.ChoiceField(
        choices=CATEGORIES,
        allow_null=True,
        help_text="The hand's category, if the hand may be shown to you, else null.",
    )
    stake = serializers.IntegerField(help_text=STAKE_DOC)
    payout = PointsField()
    delta = PointsField()
    folded = serializers.BooleanField(help_text=FOLDED_DOC)


SKILL_DOC = (
    "Cards, your play, the others' play (docs/skill.md): the result split into what the "
    "cards were worth against `hard` play, what the seat's own decisions added, and what the "
    "other seats' decisions added; cards + play + table = the result, exactly. Null unless "
    "every hand of the deal may be seen by you: in a verifiable series once it ended, or a "
    "deal whose hands were all shown. Always null in a write's answer: read the match for "
    "them."
)


class SkillSerializer(serializers.Serializer):
    cards = PointsField(
        help_text="What the cards were worth: the seat's result had every seat "
        "played `hard` from the deal's start."
    )
    play = PointsField(help_text="What the seat's own decisions added to that.")
    table = PointsField(help_text="What the other seats' decisions added to that.")


class LastDealSeatSerializer(DealResultSeatSerializer):
    skill = SkillSerializer(allow_null=True, help_text=SKILL_DOC)


class DealResultSerializer(serializers.Serializer):
    series = serializers.IntegerField(help_text=SERIES.doc)
    deal_number = serializers.IntegerField(help_text=DEAL_NUMBER.doc)
    outcome = serializers.ChoiceField(
        choices=DEAL_OUTCOMES,
        help_text=(
            "`showdown` when two or more seats were left to compare hands, "
            "`uncontested` when all but one folded."
        ),
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats that won this deal and split its pot.",
    )
    seats = LastDealSeatSerializer(many=True, help_text=SEATS_DOC)


class MatchViewSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text=ID_DOC)
    version = serializers.IntegerField(help_text="The seq of the last event.")
    series = serializers.IntegerField(help_text="1, then one more on each restart.")
    deal_number = serializers.IntegerField(
        min_value=0, max_value=MATCH_DEALS, help_text="0 while a table waits for its humans."
    )
    status = serializers.ChoiceField(
        choices=MATCH_STATUSES,
        help_text=STATUS_DOC,
    )
    ai_level = serializers.ChoiceField(
        choices=AI_LEVELS,
        help_text=AI_LEVEL_DOC,
    )
    seeded = serializers.BooleanField(help_text=SEEDED_DOC)
    dealer = serializers.IntegerField(
        min_value=0, max_value=SEATS - 1, allow_null=True, help_text="Null while a table waits."
    )
    turn = serializers.IntegerField(
        allow_null=True,
        help_text="The seat whose turn it is, or null when no one is to act (the deal is over).",
    )
    pot = serializers.IntegerField(help_text="Points staked by every seat in this deal so far.")
    high_stake = serializers.IntegerField(
        help_text="The highest stake of any seat in this deal: calling matches it."
    )
    your_seat = serializers.IntegerField(
        min_value=0,
        max_value=SEATS - 1,
        help_text="Your seat: 0 alone or as a table's owner; at a table, 1 to humans - 1 for "
        "the others, in the order they joined; still the seat you left, once you left it.",
    )
    your_cards = serializers.ListField(
        child=serializers.ChoiceField(choices=RANKS),
        allow_null=True,
        help_text="Your five cards once you have looked or the deal is over, else null; "
        "always null once you left the table (the AI plays your seat, with cards you may not see).",
    )
    your_category = serializers.ChoiceField(
        choices=CATEGORIES,
        allow_null=True,
        help_text="The category of your five cards once you may see them, else null.",
    )
    legal_actions = serializers.ListField(
        child=serializers.ChoiceField(choices=ACTION_NAMES),
        help_text="What you may do now, in this order; empty unless it is your turn.",
    )
    seats = MatchSeatSerializer(many=True, help_text=SEATS_DOC)
    last_deal = DealResultSerializer(
        allow_null=True,
        help_text=(
            "The result of the series' latest finished deal, as you may see it; "
            "null before the first one ends."
        ),
    )
    skill = SkillSerializer(
        many=True,
        allow_null=True,
        help_text="Per seat, in seat order, the sums of cards, play and table over the series' "
        "ended deals (docs/skill.md): null unless every one of them may be shown to you (see "
        "`last_deal`), as in a verifiable series once it ended; null in a write's answer.",
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The seats with the highest total once the match is finished, else null.",
    )
    humans = serializers.IntegerField(
        min_value=1, max_value=SEATS, help_text="How many human seats (0 to humans - 1)."
    )
    invite = serializers.CharField(
        allow_null=True,
        help_text="The code others join with: in the owner's view only, while seats are open.",
    )
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Seconds per turn, or null for no clock."
    )
    spectators = ChoiceField(choices=SPECTATOR_MODES, help_text=SPECTATORS_DOC)
    watch_code = serializers.CharField(
        allow_null=True,
        help_text="The code spectators watch with (POST /watch), in the owner's view only and "
        "only in the answer of the request that drew it: the server keeps only its hash. "
        "Null otherwise, and always when spectators are off.",
    )
    watchers = serializers.IntegerField(
        min_value=0, help_text="How many watch streams are open on this match, on every server."
    )
    open = serializers.BooleanField(
        help_text="An open table: listed in GET /tables while it waits, joined without invite."
    )
    fill_at = UtcDateTimeField(
        allow_null=True,
        help_text="While the table waits: when the AI takes the seats still open and deal 1 "
        "starts (its owner's `fill_after`). Null otherwise.",
    )
    turn_deadline = UtcDateTimeField(
        allow_null=True,
        help_text="When the human to act runs out of time (RFC 3339 UTC): then the server "
        "acts for them. Null without a clock, or when no human is to act.",
    )
    fairness = FairnessSerializer(
        help_text="How this series is dealt, and what proves it (docs/fairness.md)."
    )
    created_at = UtcDateTimeField(help_text=CREATED_DOC)
    updated_at = UtcDateTimeField(help_text=UPDATED_DOC)


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text=ID_DOC)
    status = serializers.ChoiceField(
        choices=MATCH_STATUSES,
        help_text=STATUS_DOC,
    )
    series = serializers.IntegerField(help_text=SERIES.doc)
    deal_number = serializers.IntegerField(help_text=DEAL_NUMBER.doc)
    ai_level = serializers.ChoiceField(
        choices=AI_LEVELS,
        help_text=AI_LEVEL_DOC,
    )
    seeded = serializers.BooleanField(help_text=SEEDED_DOC)
    totals = serializers.ListField(
        child=PointsField(), help_text="Each seat's total points this series, in seat order, exact."
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The seats with the highest total once finished, else null.",
    )
    version = serializers.IntegerField(
        help_text=(
            "The seq of the match's last event: send it as expected_version to act "
            "only on the match as you saw it."
        )
    )
    created_at = UtcDateTimeField(help_text=CREATED_DOC)
    updated_at = UtcDateTimeField(help_text=UPDATED_DOC)


SEQ_DOC = (
    "The event's number in its match: 1, 2, 3... with no gaps; the match's version is the seq "
    "of its last event."
)


# A serializer field for each field kind of the engine's event catalogue.
EVENT_FIELD_KINDS = {
    "integer": lambda doc: serializers.IntegerField(help_text=doc),
    "seat": lambda doc: serializers.IntegerField(help_text=doc),
    "seats": lambda doc: serializers.ListField(child=serializers.IntegerField(), help_text=doc),
    "boolean": lambda doc: serializers.BooleanField(help_text=doc),
    "text": lambda doc: serializers.CharField(help_text=doc),
    "points": lambda doc: serializers.ListField(child=PointsField(), help_text=doc),
    "action": lambda doc: serializers.ChoiceField(choices=ACTION_NAMES, help_text=doc),
    "actor": lambda doc: serializers.ChoiceField(choices=ACTORS, help_text=doc),
    "outcome": lambda doc: serializers.ChoiceField(choices=DEAL_OUTCOMES, help_text=doc),
    "seat_results": lambda doc: DealResultSeatSerializer(many=True, help_text=doc),
    "ai_level": lambda doc: serializers.ChoiceField(
        choices=AI_LEVELS, allow_null=True, help_text=doc
    ),
    "hash": lambda doc: HexField(allow_null=True, help_text=doc),
    "seed": lambda doc: HexField(allow_null=True, help_text=doc),
}


def _event_serializer(event_type: type[EventType]) -> type[serializers.Serializer]:
    """The serializer (for the schema) of one event type, built from its catalogue entry:
    `seq`, `type`, then its public fields. Named after the type, as `ActionEvent`."""
    fields = {
        "seq": serializers.IntegerField(help_text=SEQ_DOC),
        "type": serializers.ChoiceField(choices=[event_type.type]),
        **{spec.name: EVENT_FIELD_KINDS[spec.kind](spec.doc) for spec in event_type.FIELDS},
    }
    name = "".join(word.title() for word in event_type.type.split("_")) + "EventSerializer"
    return type(name, (serializers.Serializer,), {"__doc__": event_type.DOC, **fields})


EVENT_SERIALIZERS = {name: _event_serializer(cls) for name, cls in EVENT_TYPES.items()}


class DescribedPolymorphicProxySerializer(PolymorphicProxySerializer):
    """A `oneOf` component with a description of its own."""

    def __init__(self, *args, description: str, **kwargs):
        self.description = description
        super().__init__(*args, **kwargs)


class DescribedPolymorphicProxySerializerExtension(PolymorphicProxySerializerExtension):
    target_class = DescribedPolymorphicProxySerializer

    def map_serializer(self, auto_schema, direction):
        return {
            **super().map_serializer(auto_schema, direction),
            "description": self.target.description,
        }


def match_event_field() -> PolymorphicProxySerializer:
    """One event of the `oneOf` MatchEvent, discriminated on `type` (a new field each time:
    DRF binds a field to one parent)."""
    return DescribedPolymorphicProxySerializer(
        component_name="MatchEvent",
        serializers=EVENT_SERIALIZERS,
        resource_type_field_name="type",
        many=False,
        description="One event of a match, as you may see it: its `type` says which of the "
        f"members it is ({', '.join(EVENT_TYPES)}).",
    )


class MatchEventsSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The match's version now: the seq of its last event."
    )
    has_more = serializers.BooleanField(
        help_text="More events follow: ask again with after = the last seq you got."
    )
    events = serializers.ListField(
        child=match_event_field(),
        help_text=(
            "Up to 1,000 events, in seq order, as you may see them; when has_more "
            "is true, ask again with after = the last seq."
        ),
    )


class MatchWriteViewSerializer(MatchViewSerializer):
    events = serializers.ListField(
        child=match_event_field(),
        help_text="The events this request appended, in seq order, as you may see them: your "
        "move and every AI seat's reply, to animate without calling `events`.",
    )


class TableFiltersSerializer(serializers.Serializer):
    """Which open tables fit; each filter may be left out."""

    humans = QueryNumberField(
        min_value=2,
        max_value=SEATS,
        required=False,
        help_text="Tables of exactly this many humans.",
    )
    max_turn_seconds = QueryNumberField(
        min_value=10,
        max_value=86_400,
        required=False,
        help_text="The longest turn clock you accept: tables whose clock is at most this "
        "(a table without a clock does not fit).",
    )
    ai_level = ChoiceField(
        choices=AI_LEVELS, required=False, help_text="Tables whose AI seats play at this level."
    )
    verifiable = QueryBooleanField(
        required=False,
        help_text="Only verifiable tables (true), whose folded hands are shown to all once "
        "each series ends (docs/fairness.md), or only the others (false). Left out: both.",
    )


class QuickPlaySerializer(RequestBodySerializer, TableFiltersSerializer):
    """What table you would sit at; `{}` takes any that is not verifiable."""

    verifiable = serializers.BooleanField(
        required=False,
        help_text="Sit at a verifiable table, or open one: every folded hand there is shown to "
        "all once each series ends (docs/fairness.md). Default false: a table that is not.",
    )

    client_seed = ClientSeedField(
        required=False,
        help_text="Your part of the dealing's randomness, at a verifiable table or the one "
        "quick play opens (docs/fairness.md).",
    )


class OpenTableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    name = serializers.CharField(
        allow_null=True, help_text="Who sits there; null at a free human seat."
    )
    kind = serializers.ChoiceField(choices=SEAT_KINDS, help_text="A human seat or an AI seat.")
    free = serializers.BooleanField(help_text="A human seat nobody has taken: yours to join.")


class OpenTableSerializer(serializers.Serializer):
    """A table waiting for its humans, as someone choosing whether to sit there may see it:
    join it with POST /matches/{id}/join (an open table needs no invite)."""

    id = serializers.UUIDField(help_text="The match's id.")
    owner = serializers.CharField(help_text="The name of the player who opened it (seat 0).")
    humans = serializers.IntegerField(min_value=2, max_value=SEATS, help_text="Its human seats.")
    seats_free = serializers.IntegerField(
        min_value=1, max_value=SEATS - 1, help_text="How many human seats are still free."
    )
    seats = OpenTableSeatSerializer(many=True, help_text=SEATS_DOC)
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Seconds per turn, or null for no clock."
    )
    ai_level = serializers.ChoiceField(choices=AI_LEVELS, help_text=AI_LEVEL_DOC)
    verifiable = serializers.BooleanField(
        help_text="Whether each series' server seed is revealed when it ends (docs/fairness.md)."
    )
    spectators = ChoiceField(choices=SPECTATOR_MODES, help_text=SPECTATORS_DOC)
    fill_at = UtcDateTimeField(
        allow_null=True,
        help_text="When the AI takes the seats still free and deal 1 starts; null: it waits "
        "for its humans.",
    )
    created_at = UtcDateTimeField(help_text="When it was opened: the list's order, oldest first.")


class LobbySerializer(serializers.Serializer):
    tables = OpenTableSerializer(
        many=True, help_text="The open tables that fit, the longest waiting first."
    )


MATCH_VIEW = Rendered(MatchViewSerializer)
LOBBY = Rendered(LobbySerializer)
OPEN_TABLE = Rendered(OpenTableSerializer)
COMMITMENT = Rendered(CommitmentSerializer)
MATCH_WRITE_VIEW = Rendered(MatchWriteViewSerializer)


class SpectatorsSerializer(RequestBodySerializer):
    """Who may watch your match, and whether to draw a new watch code."""

    spectators = ChoiceField(choices=SPECTATOR_MODES, help_text=SPECTATORS_DOC)
    new_code = serializers.BooleanField(
        required=False,
        help_text="Draw a new watch code: the old one stops working at once, and every watch "
        "stream opened with it ends. A code is drawn anyway when spectators were off.",
    )


class WatchCodeSerializer(RequestBodySerializer):
    """The watch code a match's owner shared."""

    watch_code = serializers.CharField(
        max_length=128, help_text="The code from the owner's `watch_code`."
    )


def _fields_of(serializer: type[serializers.Serializer], names: tuple[str, ...]) -> dict:
    """Copies of `serializer`'s fields by name: a field is defined once, for every view."""
    return {name: copy.deepcopy(serializer._declared_fields[name]) for name in names}


WatchViewSerializer = type(
    "WatchViewSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "The match as its spectators may see it: seats, names, stakes, totals and "
        "public moves, and no hand but those a showdown showed, once their deal has ended.",
        **_fields_of(MatchViewSerializer, ("id",)),
        "version": serializers.IntegerField(
            help_text="The seq of the last event you may see: live, the match's version; "
            "delayed, the last event before the deal still being played."
        ),
        **_fields_of(MatchViewSerializer, ("series", "deal_number")),
        "status": ChoiceField(
            choices=SPECTATOR_STATUSES,
            help_text=STATUS_DOC + " Delayed, the status as the last deal that ended left it "
            "(`not_started` until deal 1 has ended).",
        ),
        "spectators": ChoiceField(
            choices=SPECTATOR_MODES,
            help_text="How you watch: `delayed` or `live` (a code watches nothing while off).",
        ),
        **_fields_of(
            MatchViewSerializer,
            (
                "ai_level",
                "dealer",
                "turn",
                "pot",
                "high_stake",
                "seats",
                "last_deal",
                "skill",
                "winners",
                "humans",
                "turn_seconds",
                "turn_deadline",
                "watchers",
                "fairness",
            ),
        ),
    },
)


WATCH_VIEW = Rendered(WatchViewSerializer)


class WatchStreamQuerySerializer(_StreamCursorSerializer):
    ticket = serializers.CharField(
        required=False,
        help_text="A single-use ticket from POST /watch/tickets; without one, the Watch-Code "
        "header.",
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


class HintActionSerializer(serializers.Serializer):
    action = ChoiceField(choices=ACTION_NAMES, help_text="One of the actions legal for you now.")
    hard_probability = ProbabilityField(
        help_text="How often the `hard` strategy takes this action here, exactly."
    )
    expected_value = PointsField(
        allow_null=True,
        help_text="Your expected score of this deal if you take this action and then play as "
        "`hard` would, against the AI seats' strategies (for `expert`, its blueprint `hard`), "
        "exactly, as a fraction in lowest terms; null before you have looked.",
    )


# It shapes a coaching.commands.GivenHint (its docstring is the schema's description).
class HintSerializer(serializers.Serializer):
    """The coach's advice for your current decision. Before you have looked it says look
    (free) and tells nothing about your cards."""

    version = serializers.IntegerField(help_text="The match's version: a hint never changes it.")
    series = serializers.IntegerField(help_text=SERIES.doc)
    deal_number = serializers.IntegerField(help_text=DEAL_NUMBER.doc)
    ai_level = ChoiceField(choices=AI_LEVELS, help_text="The AI seats the values are against.")
    values_are_exact = serializers.BooleanField(
        source="advice.values_are_exact",
        help_text="True: each value sums over every deal still possible given the betting so "
        "far, weighted by how likely the AI seats were to bet so; nothing is sampled.",
    )
    actions = HintActionSerializer(
        source="advice.actions",
        many=True,
        help_text="Every legal action, in the order of `legal_actions`.",
    )
    hand_rank = serializers.IntegerField(
        source="advice.hand_rank",
        allow_null=True,
        min_value=1,
        max_value=121,
        help_text="Your hand's rank among the 121 hand classes, 1 the strongest; null before "
        "you have looked.",
    )
    showdown_win = ProbabilityField(
        source="advice.showdown_win",
        allow_null=True,
        help_text="Your exact chance to beat three random hands at a showdown outright.",
    )
    showdown_tie = ProbabilityField(
        source="advice.showdown_tie",
        allow_null=True,
        help_text="Your exact chance to tie for best with them.",
    )

    def to_representation(self, instance) -> dict:
        # The fields above are the schema; the body is built by hand because DRF's field by
        # field walk of every action cost a hint a fifth more server CPU (bench --baseline).
        advice = instance.advice
        return {
            "version": instance.version,
            "series": instance.series,
            "deal_number": instance.deal_number,
            "ai_level": instance.ai_level,
            "values_are_exact": advice.values_are_exact,
            "actions": [
                {
                    "action": a.action,
                    "hard_probability": str(a.hard_probability),
                    "expected_value": _exact(a.expected_value),
                }
                for a in advice.actions
            ],
            "hand_rank": advice.hand_rank,
            "showdown_win": _exact(advice.showdown_win),
            "showdown_tie": _exact(advice.showdown_tie),
        }


def _exact(value) -> str | None:
    """An exact figure as the API writes one: a fraction in lowest terms, or None."""
    return None if value is None else str(value)


class StreamTicketCreateSerializer(RequestBodySerializer):
    match_id = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="The match whose stream the ticket opens (one you sit at); leave it out for "
        "your own stream, /players/me/stream.",
    )


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(
        help_text="Pass as `?ticket=` to the stream; good once, until `expires_at`."
    )
    expires_at = UtcDateTimeField(help_text="When the ticket stops working: in 60 s.")


class YourTurnNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match where your turn began.")
    deadline = UtcDateTimeField(
        allow_null=True, help_text="The match's `turn_deadline`: null without a turn clock."
    )


class MatchStartedNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match whose deal 1 (of a series) started.")


class MatchFinishedNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match that finished.")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats with the highest total."
    )
    totals = serializers.ListField(child=PointsField(), help_text="Each seat's total, exactly.")


class WatchersNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match whose spectators changed.")
    watchers = serializers.IntegerField(
        min_value=0, help_text="How many watch streams are open on it now."
    )


NOTICE_SHAPES = {
    Notice.YOUR_TURN: Rendered(YourTurnNoticeSerializer),
    Notice.MATCH_STARTED: Rendered(MatchStartedNoticeSerializer),
    Notice.MATCH_FINISHED: Rendered(MatchFinishedNoticeSerializer),
    Notice.WATCHERS_CHANGED: Rendered(WatchersNoticeSerializer),
}
"""Each notice of the player's stream, rendered by its serializer."""


def player_notice_field() -> PolymorphicProxySerializer:
    """What one `data:` line of the player's stream holds; its `event:` line names which."""
    return PolymorphicProxySerializer(
        component_name="PlayerNotice",
        serializers=[
            YourTurnNoticeSerializer,
            MatchStartedNoticeSerializer,
            MatchFinishedNoticeSerializer,
            WatchersNoticeSerializer,
        ],
        resource_type_field_name=None,
        many=False,
    )
