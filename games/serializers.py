"""Request and response serializers of the match API. Component names in the OpenAPI
schema come from the class names without "Serializer", so every name is unique."""

from django.conf import settings
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from edge.serializers import PointsField, RequestBodySerializer
from games.ai import AI_LEVELS, DEFAULT_AI_LEVEL
from games.engine import CATEGORIES, MATCH_DEALS, RANKS, SEATS, Action, Outcome, Status

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


class ChoiceField(serializers.ChoiceField):
    """A choice whose refusal lists the choices, so a client need not look them up."""

    default_error_messages = {
        "invalid_choice": '"{input}" is not a valid choice; allowed: {allowed}.',
    }

    def fail(self, key, **kwargs):
        if key == "invalid_choice":
            kwargs["allowed"] = ", ".join(str(choice) for choice in self.choices)
        super().fail(key, **kwargs)


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
        "(The clock is recorded; acting when it runs out comes in a later release.)",
    )

    def validate_seed(self, seed: int) -> int:
        if not settings.ASNAS_ALLOW_CLIENT_SEED:
            raise serializers.ValidationError(
                "Choosing a seed is not allowed on this server.", code="seed_not_allowed"
            )
        return seed


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

    action = ChoiceField(choices=ACTION_NAMES)


class RestartSerializer(VersionSerializer):
    """A new series, at the same AI level unless you name another."""

    ai_level = ChoiceField(
        choices=AI_LEVELS,
        required=False,
        help_text="The AI seats' level from the new series on; unchanged if left out.",
    )


class JoinSerializer(RequestBodySerializer):
    """A table's invite, to take its next open seat."""

    invite = serializers.CharField(
        max_length=128, help_text="The table's invite code, as its owner's MatchView shows it."
    )


class MatchListQuerySerializer(serializers.Serializer):
    status = ChoiceField(
        choices=MATCH_STATUSES, required=False, help_text="Only the matches with this status."
    )


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=MAX_VERSION, default=0, help_text="Return events with seq > after."
    )
    wait = serializers.IntegerField(
        min_value=0,
        max_value=MAX_WAIT_SECONDS,
        default=0,
        help_text="A long-poll: when there is no event after `after` yet, wait up to this many "
        "seconds for one, and answer as soon as it is written (else with no events).",
    )


class StreamQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        default=0,
        help_text="Send the events with seq > after; the Last-Event-ID header wins over it.",
    )
    ticket = serializers.CharField(
        required=False,
        help_text="A single-use ticket from POST /stream-tickets, for clients that cannot "
        "send an Authorization header (a browser's EventSource). Never put a token here.",
    )


class MatchSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1)
    name = serializers.CharField(
        allow_null=True, help_text="Null at a human seat nobody has taken yet."
    )
    kind = serializers.ChoiceField(
        choices=SEAT_KINDS, help_text="Stays `human` after its human left."
    )
    away = serializers.BooleanField(
        help_text="The human left (the AI plays the seat), or the clock took their last turn."
    )
    stake = serializers.IntegerField()
    folded = serializers.BooleanField()
    looked = serializers.BooleanField()
    total = PointsField()


class DealResultSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1)
    hand = serializers.ListField(
        child=serializers.ChoiceField(choices=RANKS),
        allow_null=True,
        help_text="Null unless this hand may be shown to you.",
    )
    category = serializers.ChoiceField(choices=CATEGORIES, allow_null=True)
    stake = serializers.IntegerField()
    payout = PointsField()
    delta = PointsField()
    folded = serializers.BooleanField()


class DealResultSerializer(serializers.Serializer):
    series = serializers.IntegerField()
    deal_number = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=DEAL_OUTCOMES)
    winners = serializers.ListField(child=serializers.IntegerField())
    seats = DealResultSeatSerializer(many=True)


class MatchViewSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    version = serializers.IntegerField(help_text="The seq of the last event.")
    series = serializers.IntegerField(help_text="1, then one more on each restart.")
    deal_number = serializers.IntegerField(
        min_value=0, max_value=MATCH_DEALS, help_text="0 while a table waits for its humans."
    )
    status = serializers.ChoiceField(choices=MATCH_STATUSES)
    ai_level = serializers.ChoiceField(choices=AI_LEVELS)
    seeded = serializers.BooleanField()
    dealer = serializers.IntegerField(
        min_value=0, max_value=SEATS - 1, allow_null=True, help_text="Null while a table waits."
    )
    turn = serializers.IntegerField(allow_null=True)
    pot = serializers.IntegerField()
    high_stake = serializers.IntegerField()
    your_seat = serializers.IntegerField()
    your_cards = serializers.ListField(
        child=serializers.ChoiceField(choices=RANKS),
        allow_null=True,
        help_text="Your five cards once you have looked or the deal is over, else null.",
    )
    your_category = serializers.ChoiceField(choices=CATEGORIES, allow_null=True)
    legal_actions = serializers.ListField(child=serializers.ChoiceField(choices=ACTION_NAMES))
    seats = MatchSeatSerializer(many=True)
    last_deal = DealResultSerializer(allow_null=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
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
    turn_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the human to act runs out of time (RFC 3339 UTC): then the server "
        "acts for them. Null without a clock, or when no human is to act.",
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=MATCH_STATUSES)
    series = serializers.IntegerField()
    deal_number = serializers.IntegerField()
    ai_level = serializers.ChoiceField(choices=AI_LEVELS)
    seeded = serializers.BooleanField()
    totals = serializers.ListField(child=PointsField())
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def _event_type(name: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[name])


class MatchCreatedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("match_created")


class DealStartedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("deal_started")
    series = serializers.IntegerField()
    deal_number = serializers.IntegerField()
    dealer = serializers.IntegerField()


class ActionEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("action")
    seat = serializers.IntegerField()
    action = serializers.ChoiceField(choices=ACTION_NAMES)
    stake = serializers.IntegerField(help_text="The seat's stake after the action.")
    high_stake = serializers.IntegerField()
    pot = serializers.IntegerField()
    by = serializers.ChoiceField(
        choices=ACTORS, help_text="Who acted for the seat: its player, the AI, or the clock."
    )


class DealEndedEventSerializer(DealResultSerializer):
    seq = serializers.IntegerField()
    type = _event_type("deal_ended")


class MatchFinishedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("match_finished")
    series = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=PointsField())


class MatchRestartedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("match_restarted")
    series = serializers.IntegerField()


class ResignedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("resigned")
    seat = serializers.IntegerField(help_text="The seat that gave the match up.")


class PlayerJoinedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("player_joined")
    seat = serializers.IntegerField(help_text="The seat the human took.")
    name = serializers.CharField(help_text="The human's name.")


class PlayerLeftEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("player_left")
    seat = serializers.IntegerField(help_text="The seat the AI plays from now on.")
    abandoned = serializers.BooleanField(
        help_text="No human is left: the match ends `abandoned`, with no winners."
    )


class SeatFreedEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = _event_type("seat_freed")
    seat = serializers.IntegerField(
        help_text="The seat its human left before deal 1: open again, for the next join."
    )


def match_event_field() -> PolymorphicProxySerializer:
    """One event of the `oneOf` MatchEvent, discriminated on `type` (a new field each time:
    DRF binds a field to one parent)."""
    return PolymorphicProxySerializer(
        component_name="MatchEvent",
        serializers={
            "match_created": MatchCreatedEventSerializer,
            "deal_started": DealStartedEventSerializer,
            "action": ActionEventSerializer,
            "deal_ended": DealEndedEventSerializer,
            "match_finished": MatchFinishedEventSerializer,
            "match_restarted": MatchRestartedEventSerializer,
            "resigned": ResignedEventSerializer,
            "player_joined": PlayerJoinedEventSerializer,
            "player_left": PlayerLeftEventSerializer,
            "seat_freed": SeatFreedEventSerializer,
        },
        resource_type_field_name="type",
        many=False,
    )


class MatchEventsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    has_more = serializers.BooleanField(
        help_text="More events follow: ask again with after = the last seq you got."
    )
    events = serializers.ListField(child=match_event_field())


class MatchWriteViewSerializer(MatchViewSerializer):
    events = serializers.ListField(
        child=match_event_field(),
        help_text="The events this request appended, in seq order, as you may see them: your "
        "move and every AI seat's reply, to animate without calling `events`.",
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


class HintSerializer(serializers.Serializer):
    """The coach's advice for your current decision. Before you have looked it says look
    (free) and tells nothing about your cards."""

    version = serializers.IntegerField(help_text="The match's version: a hint never changes it.")
    series = serializers.IntegerField()
    deal_number = serializers.IntegerField()
    ai_level = ChoiceField(choices=AI_LEVELS, help_text="The AI seats the values are against.")
    values_are_exact = serializers.BooleanField(
        help_text="True: each value sums over every deal still possible given the betting so "
        "far, weighted by how likely the AI seats were to bet so; nothing is sampled."
    )
    actions = HintActionSerializer(
        many=True, help_text="Every legal action, in the order of `legal_actions`."
    )
    hand_rank = serializers.IntegerField(
        allow_null=True,
        min_value=1,
        max_value=121,
        help_text="Your hand's rank among the 121 hand classes, 1 the strongest; null before "
        "you have looked.",
    )
    showdown_win = ProbabilityField(
        allow_null=True,
        help_text="Your exact chance to beat three random hands at a showdown outright.",
    )
    showdown_tie = ProbabilityField(
        allow_null=True, help_text="Your exact chance to tie for best with them."
    )


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
    expires_at = serializers.DateTimeField(help_text="When the ticket stops working: in 60 s.")


class YourTurnNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match where your turn began.")
    deadline = serializers.DateTimeField(
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


def player_notice_field() -> PolymorphicProxySerializer:
    """What one `data:` line of the player's stream holds; its `event:` line names which."""
    return PolymorphicProxySerializer(
        component_name="PlayerNotice",
        serializers=[
            YourTurnNoticeSerializer,
            MatchStartedNoticeSerializer,
            MatchFinishedNoticeSerializer,
        ],
        resource_type_field_name=None,
        many=False,
    )
