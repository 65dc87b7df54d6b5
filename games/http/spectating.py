"""The spectating operations: the owner's choice of who may watch (and a new watch code),
and the spectator's view, events, stream and stream tickets, with a watch code and no
account (docs/spectators.md)."""

import copy

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api import valid
from edge.client_address import budget_address
from edge.schema import (
    NOT_FOUND,
    UNAUTHORIZED,
    VALIDATION_ERROR,
    problem_response,
)
from edge.serializers import Rendered, RequestBodySerializer
from games.engine import DomainError
from games.http import stream_reads
from games.http.fields import (
    SPECTATOR_MODES,
    SPECTATOR_STATUSES,
    SPECTATORS_DOC,
    STATUS_DOC,
    ChoiceField,
)
from games.http.schema import (
    AFTER_REFUSED,
    IDEMPOTENCY_KEY,
    KEY_REUSED,
    LAST_EVENT_ID,
)
from games.http.shapes import (
    MATCH_VIEW,
    EventsQuerySerializer,
    MatchEventsSerializer,
    MatchViewSerializer,
    StreamCursorSerializer,
    StreamTicketSerializer,
    match_event_field,
)
from games.http.views import EventStream, MatchWrite
from games.match.loaded import LoadedMatch
from games.spectating import commands as spectating_commands
from games.spectating import queries as spectating_queries
from players import selectors as player_selectors
from players.auth import bearer_token
from players.tokens import hash_token


class MatchSpectators(MatchWrite):
    name = "Spectators"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="Spectators")
    class InputSerializer(RequestBodySerializer):
        """Who may watch your match, and whether to draw a new watch code."""

        spectators = ChoiceField(choices=SPECTATOR_MODES, help_text=SPECTATORS_DOC)
        new_code = serializers.BooleanField(
            required=False,
            help_text="Draw a new watch code: the old one stops working at once, and every watch "
            "stream opened with it ends. A code is drawn anyway when spectators were off.",
        )

        def validate(self, data: dict) -> dict:
            return {"new_code": False, **data}

    @extend_schema(
        operation_id="matches_spectators",
        summary="Choose who may watch your match, or draw a new watch code",
        description="The owner only. `off` (nobody), `delayed` (a deal's moves once that deal "
        "has ended) or `live` (public moves as they happen). Turning spectators on, or "
        "`new_code`, draws a watch code: the answer's `watch_code` shows it, this once (the "
        "server keeps only its hash); share it as a link with the code in the fragment, "
        "`/watch.html#watch=CODE`. A new code, or `off`, ends every watch stream of the old one. "
        "Not a match event: the version does not change.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            403: problem_response("You do not own the match.", "not_owner"),
            404: NOT_FOUND,
            409: problem_response(
                "A tournament's match takes no spectators, or the same key is still in progress.",
                "spectators_not_allowed",
                "idempotency_in_progress",
            ),
            422: KEY_REUSED,
        },
        examples=[
            OpenApiExample("live", value={"spectators": "live"}, request_only=True),
            OpenApiExample(
                "a new code",
                value={"spectators": "delayed", "new_code": True},
                request_only=True,
            ),
        ],
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)

    def answer(self, data: dict, match_id) -> dict:
        return MATCH_VIEW.render(
            spectating_commands.match_spectators_set_answer(
                match_id=match_id, player=self.request.user, **data
            )
        )


class WatchCodeSerializer(RequestBodySerializer):
    """The watch code a match's owner shared."""

    watch_code = serializers.CharField(
        max_length=128, help_text="The code from the owner's `watch_code`."
    )


WATCH_CODE = OpenApiParameter(
    "Watch-Code",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="The watch code the match's owner shared. A header, never the URL: a URL "
    "reaches logs and histories.",
)
NOT_FOR_BOTS = problem_response(
    "A bot's token was sent: a bot watches no match (docs/bots.md).", "not_for_bots"
)
NO_MATCH_TO_WATCH = problem_response(
    "No match to watch with this code: unknown, drawn again since, or spectators off.",
    ("not_found", "No match to watch with this code."),
)
WATCH_LIMITS = problem_response(
    "Too many watch streams: of this match, from your address, or on this server; retry "
    "after `Retry-After`.",
    "watch_limit_match",
    "watch_limit_address",
    "watch_limit_server",
    "throttled",
)


class Watching(APIView):
    # Spectators have no account: the watch code (in a body or a header, never a URL) or a
    # watch ticket is what lets them in. Rate limits count their address.
    authentication_classes = []
    permission_classes = [AllowAny]

    def initial(self, request, *args, **kwargs):
        # A bot's token is refused here (docs/bots.md): a program watching the table it
        # plays at would see it through two pairs of eyes. Nothing else reads a token here,
        # and a request without one costs no statement more.
        super().initial(request, *args, **kwargs)
        token = bearer_token(request)
        if token is not None and player_selectors.token_is_a_bots(token_hash=hash_token(token)):
            raise DomainError("not_for_bots", "A bot watches no match: send its token elsewhere.")


def _watched(watch_code: str | None) -> LoadedMatch:
    code = valid(WatchCodeSerializer, {"watch_code": watch_code})["watch_code"]
    match = spectating_queries.watch_get_by_code(watch_code=code)
    if match is None:
        raise DomainError("not_found", "No match to watch with this code.")
    return match


def _fields_of(serializer: type[serializers.Serializer], names: tuple[str, ...]) -> dict:
    """Copies of `serializer`'s fields by name: a field is defined once, for every view."""
    return {name: copy.deepcopy(serializer._declared_fields[name]) for name in names}


def _watch_view_serializer() -> type[serializers.Serializer]:
    """The spectator's view: the player's view's fields, defined once, and a few of its own."""
    return type(
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


class Watch(Watching):
    name = "Watch List"  # what OPTIONS names it, as before
    OutputSerializer = _watch_view_serializer()
    WATCH_VIEW = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="watch",
        summary="Watch a match: the spectator's view",
        description="No account needed: the `watch_code` its owner shared. Seats, names, "
        "stakes, totals and public moves; no hand but those a showdown showed, once their "
        "deal has ended. `delayed`: the match as the last deal that ended left it, with "
        "nothing of the deal still being played (docs/spectators.md).",
        request=WatchCodeSerializer,
        responses={
            200: OutputSerializer,
            400: VALIDATION_ERROR,
            403: NOT_FOR_BOTS,
            404: NO_MATCH_TO_WATCH,
        },
        auth=[],
    )
    def post(self, request):
        match = _watched(valid(WatchCodeSerializer, request.data)["watch_code"])
        return Response(self.WATCH_VIEW.render(spectating_queries.watch_view(match=match)))


class WatchEvents(Watching):
    name = "Events"  # what OPTIONS names it, as before

    @extend_schema(
        operation_id="watch_events",
        summary="The watched match's events after seq `after`, as spectators may see them",
        description="As a player's `events`, with the `Watch-Code` header: each event's public "
        "fields, hands only as a showdown showed them. `delayed`: no event of the deal still "
        "being played, its deal_started included; they all come once it has ended, and "
        "`version` is the last event you may see. `wait` long-polls as for players. An "
        "`after` past the last event you may see is 400 `after_out_of_range`, with that "
        "event's seq as `latest`.",
        parameters=[EventsQuerySerializer, WATCH_CODE],
        responses={
            200: MatchEventsSerializer,
            400: AFTER_REFUSED,
            403: NOT_FOR_BOTS,
            404: NO_MATCH_TO_WATCH,
        },
        auth=[],
    )
    def get(self, request):
        query = valid(EventsQuerySerializer, request.query_params)
        match = _watched(request.headers.get("Watch-Code"))
        after = spectating_queries.watch_cursor(match=match, after=query["after"])
        page = spectating_queries.watch_events(match=match, after=after)
        if page["events"] or not query["wait"]:
            return Response(page)
        waiting = stream_reads.watch_long_poll(
            match=match, after=after, wait=query["wait"], horizon=page["version"]
        )
        return StreamingHttpResponse(waiting, content_type="application/json")


class WatchTicketCreate(Watching):
    name = "Tickets"  # what OPTIONS names it, as before

    @extend_schema(
        operation_id="watch_tickets_create",
        summary="A ticket to open the watch stream where no header can be sent",
        description="A browser's EventSource cannot send `Watch-Code`: this single-use ticket, "
        "good for 60 s, opens `/watch/stream?ticket=...`. Any server redeems it.",
        request=WatchCodeSerializer,
        responses={
            201: StreamTicketSerializer,
            400: VALIDATION_ERROR,
            403: NOT_FOR_BOTS,
            404: NO_MATCH_TO_WATCH,
        },
        auth=[],
    )
    def post(self, request):
        data = valid(WatchCodeSerializer, request.data)
        ticket, expires_at = spectating_commands.watch_ticket_create(watch_code=data["watch_code"])
        body = StreamTicketSerializer({"ticket": ticket, "expires_at": expires_at}).data
        return Response(body, status=status.HTTP_201_CREATED)


class WatchStream(Watching, EventStream):
    name = "Stream"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="WatchStreamQuery")
    class InputSerializer(StreamCursorSerializer):
        ticket = serializers.CharField(
            required=False,
            help_text="A single-use ticket from POST /watch/tickets; without one, the Watch-Code "
            "header.",
        )

    @extend_schema(
        operation_id="watch_stream",
        summary="Watch a match live: Server-Sent Events, one per event spectators may see",
        description="As a player's match stream, with the events of `watch/events`: `id:` the "
        "seq, `event:` the type, `data:` the event as spectators may see it; a comment line at "
        "least every 15 s. It ends after `match_finished`, whatever its resume point, or when "
        "the code stops working (a new code was drawn, or spectators were turned off). A "
        "resume point past the last event you may see is 400 `after_out_of_range`, with that "
        "event's seq as `latest`. Open it with a `ticket` from POST "
        "/watch/tickets, or the `Watch-Code` header. Limits per match, per address and per "
        "server process answer 429 with `Retry-After`; every player's view counts the open "
        "streams as `watchers`.",
        parameters=[
            InputSerializer,
            LAST_EVENT_ID,
            OpenApiParameter(
                "Watch-Code",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The watch code, where no `ticket` is given.",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                match_event_field(),
                description="Server-Sent Events; each `data:` line is one MatchEvent.",
            ),
            400: AFTER_REFUSED,
            401: problem_response(
                "A ticket used, expired or unknown.",
                ("invalid_ticket", "The ticket was used already, has expired, or is unknown."),
            ),
            403: NOT_FOR_BOTS,
            404: NO_MATCH_TO_WATCH,
            429: WATCH_LIMITS,
        },
        auth=[],
    )
    def get(self, request):
        query = dict(request.query_params.items())
        if "Last-Event-ID" in request.headers:
            query["after"] = request.headers["Last-Event-ID"]
        query = valid(self.InputSerializer, query)
        if "ticket" in query:
            match = _redeemed(query["ticket"])
        else:
            match = _watched(request.headers.get("Watch-Code"))
        after = spectating_queries.watch_cursor(match=match, after=query["after"])
        stream_id = spectating_commands.watch_stream_open(
            match=match, address=budget_address(request)
        )
        return stream_reads.event_stream_response(
            stream_reads.watch_stream(match=match, after=after, stream_id=stream_id)
        )


def _redeemed(ticket: str) -> LoadedMatch:
    """The match a watch ticket opens, which it may do once."""
    code_hash = spectating_commands.watch_ticket_redeem(ticket=ticket)
    if code_hash is None:
        raise DomainError(
            "invalid_ticket", "The ticket was used already, has expired, or is unknown."
        )
    match = spectating_queries.watch_get(watch_code_hash=code_hash)
    if match is None:
        raise DomainError("not_found", "No match to watch with this code.")
    return match
