"""The shapes several operations share: the match view and its seats, deal results and
events, the write's answer, the body of a move that needs only a version, the open table, the
events page and its queries, the stream ticket; and the `oneOf` of the events with its
drf-spectacular extension. An operation's own shapes are nested in its view."""

from drf_spectacular.serializers import PolymorphicProxySerializerExtension
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from edge.serializers import (
    PointsField,
    QueryNumberField,
    Rendered,
    RequestBodySerializer,
    UtcDateTimeField,
)
from games.ai import AI_LEVELS
from games.engine import (
    CATEGORIES,
    DEAL_NUMBER,
    EVENT_TYPES,
    MATCH_DEALS,
    RANKS,
    SEATS,
    SERIES,
    EventType,
)
from games.engine.events import COMMITMENT_DOC, NEXT_COMMITMENT_DOC, SCHEME_DOC
from games.http.fields import (
    ACTION_NAMES,
    ACTORS,
    AI_LEVEL_DOC,
    CREATED_DOC,
    DEAL_OUTCOMES,
    FOLDED_DOC,
    ID_DOC,
    MATCH_STATUSES,
    MAX_VERSION,
    MAX_WAIT_SECONDS,
    SEAT_DOC,
    SEAT_KIND_DOC,
    SEAT_KINDS,
    SEATS_DOC,
    SEEDED_DOC,
    SPECTATOR_MODES,
    SPECTATORS_DOC,
    STAKE_DOC,
    STATUS_DOC,
    UPDATED_DOC,
    ChoiceField,
    HexField,
)


class VersionSerializer(RequestBodySerializer):
    """A move that needs nothing but, if you like, the version you saw; `{}` will do."""

    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        help_text="The version you last saw; a different current version answers 409 "
        "stale_version and changes nothing.",
    )

    def validate(self, data: dict) -> dict:
        data.setdefault("expected_version", None)  # no check of the version
        return data


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


class StreamCursorSerializer(serializers.Serializer):
    """Where a stream starts: what a match's stream and a watch stream share."""

    after = QueryNumberField(
        min_value=0,
        max_value=MAX_VERSION,
        default=0,
        help_text="Send the events with seq > after; the Last-Event-ID header wins over it.",
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
        choices=SEAT_KINDS, help_text=SEAT_KIND_DOC + " Stays `human` or `bot` after they left."
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
    tournament = serializers.UUIDField(
        allow_null=True,
        help_text="The tournament this match is its owner's entry in (GET /tournaments/{id}); "
        "null for any other match.",
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
    bots = serializers.BooleanField(
        help_text="Whether the owner allowed bots (docs/bots.md) at this table; false alone."
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


class MatchSummarySeatSerializer(serializers.Serializer):
    name = serializers.CharField(
        allow_null=True, help_text="Who sits there; null at a human seat nobody has taken yet."
    )
    kind = serializers.ChoiceField(
        choices=SEAT_KINDS, help_text="Stays `human` after its human left."
    )


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
    seats = MatchSummarySeatSerializer(
        many=True, help_text="Who sits at each seat, in seat order: your opponents' names."
    )
    your_seat = serializers.IntegerField(
        min_value=0, max_value=SEATS - 1, help_text="Your seat at this match."
    )
    your_place = serializers.IntegerField(
        min_value=1,
        max_value=SEATS,
        allow_null=True,
        help_text="Once the match is finished, your place as ratings place it "
        "(docs/ratings.md): 1 + the seats that stayed with a strictly higher total, so tied "
        "seats share a place; a seat whose human left or resigned comes last. Null before.",
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


class OpenTableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    name = serializers.CharField(
        allow_null=True, help_text="Who sits there; null at a free human seat."
    )
    kind = serializers.ChoiceField(
        choices=SEAT_KINDS, help_text=SEAT_KIND_DOC + " A free seat is `human`."
    )
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
    bots = serializers.BooleanField(
        help_text="Whether the owner allowed bots (docs/bots.md) to join: only then may a "
        "bot take a free seat."
    )
    created_at = UtcDateTimeField(help_text="When it was opened: the list's order, oldest first.")


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(
        help_text="Pass as `?ticket=` to the stream; good once, until `expires_at`."
    )
    expires_at = UtcDateTimeField(help_text="When the ticket stops working: in 60 s.")


MATCH_VIEW = Rendered(MatchViewSerializer)
MATCH_WRITE_VIEW = Rendered(MatchWriteViewSerializer)
OPEN_TABLE = Rendered(OpenTableSerializer)
