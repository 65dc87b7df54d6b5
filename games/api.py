"""The match API: the matches, the player's stream and stream tickets, a viewset each on the
router. Views only translate: validate input, call one service or selector, serialize the
output. Errors are mapped in asnas_api.errors."""

from collections.abc import Callable

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from edge.api import DescribedPagination, RateScopedViewSet, valid
from edge.client_address import budget_address
from edge.schema import (
    NOT_FOUND,
    UNAUTHORIZED,
    VALIDATION_ERROR,
    ProblemSerializer,
    problem_response,
)
from games import idempotency
from games.coaching import commands as coaching_commands
from games.coaching.commands import GivenHint
from games.engine import DomainError
from games.fairness import commands as fairness_commands
from games.live import streams
from games.match import commands as match_commands
from games.match import queries as match_queries
from games.match.store import LoadedMatch
from games.serializers import (
    COMMITMENT,
    LOBBY,
    MATCH_VIEW,
    MATCH_WRITE_VIEW,
    OPEN_TABLE,
    WATCH_VIEW,
    ActionSerializer,
    CommitmentSerializer,
    EventsQuerySerializer,
    HintSerializer,
    InvitationSerializer,
    JoinSerializer,
    LobbySerializer,
    MatchCreateSerializer,
    MatchEventsSerializer,
    MatchListQuerySerializer,
    MatchRecordSerializer,
    MatchSummarySerializer,
    MatchViewSerializer,
    MatchWriteViewSerializer,
    OpenTableSerializer,
    QuickPlaySerializer,
    RestartSerializer,
    SpectatorsSerializer,
    StreamQuerySerializer,
    StreamTicketCreateSerializer,
    StreamTicketSerializer,
    TableFiltersSerializer,
    VersionSerializer,
    WatchCodeSerializer,
    WatchStreamQuerySerializer,
    WatchViewSerializer,
    match_event_field,
    player_notice_field,
)
from games.spectating import commands as spectating_commands
from games.spectating import queries as spectating_queries
from games.tables import commands as tables_commands
from games.tables import queries as tables_queries
from games.tables.store import TableFilters
from players.auth import StreamTicketAuthentication, credential_hash

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Makes a retry safe: within 24 hours, a repeat with the same key and body "
    "answers the first outcome (with the header Idempotent-Replayed: true) and changes "
    "nothing. 1 to 255 printable ASCII characters, scoped to your player.",
)


# What a write with an Idempotency-Key may answer beside its own answers.
KEY_IN_PROGRESS = problem_response(
    "A request with this key is still running.", "idempotency_in_progress"
)
KEY_REUSED = problem_response("The key was used with another request.", "idempotency_key_reused")


def move_responses(conflict: str, *conflicts: str, unprocessable: tuple[str, ...] = ()) -> dict:
    """The answers of a write to an existing match: its MatchWriteView, or the problems every
    such write may meet and the 409s (`conflicts`, described by `conflict`) and 422s of its own."""
    return {
        200: MatchWriteViewSerializer,
        400: VALIDATION_ERROR,
        401: UNAUTHORIZED,
        404: NOT_FOUND,
        409: problem_response(conflict, *conflicts, "stale_version", "idempotency_in_progress"),
        422: problem_response(
            "The rules do not allow this action now, or the key was used with another request."
            if unprocessable
            else "The key was used with another request.",
            *unprocessable,
            "idempotency_key_reused",
        ),
    }


LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    description="Resume after this seq: what a browser's EventSource sends when it "
    "reconnects. Wins over `after`.",
)
AFTER_REFUSED = OpenApiResponse(
    response=ProblemSerializer,
    description="A parameter is malformed (`errors` names it), or the resume point is past "
    "the latest event you may see (`latest` in the body is that event's seq).",
    examples=[
        *VALIDATION_ERROR.examples,
        *problem_response("", "after_out_of_range").examples,
    ],
)
# A ticket, else the bearer token as everywhere (asnas_api.gate, named by the settings).
STREAM_AUTHENTICATION = [StreamTicketAuthentication, *api_settings.DEFAULT_AUTHENTICATION_CLASSES]
STREAM_UNAUTHORIZED = problem_response(
    "No token or ticket, a token that is not valid, or a ticket used, expired or for another "
    "stream.",
    "not_authenticated",
    "invalid_ticket",
)


class EventStreamViewSet(viewsets.GenericViewSet):
    # A browser's EventSource asks for text/event-stream only; the errors it may get before
    # the stream starts are JSON problem bodies all the same, so never answer 406.
    stream_actions = {"stream"}

    def perform_content_negotiation(self, request, force=False):
        force = force or self.action in self.stream_actions
        return super().perform_content_negotiation(request, force=force)


class MatchPagination(DescribedPagination):
    counted = "How many matches there are in all."
    listed = "This page's matches, newest first."


class MatchWriteViewSet(RateScopedViewSet, EventStreamViewSet):
    # What every write to a match shares: a validated body, an optional Idempotency-Key
    # (a repeat answers the first outcome and changes nothing), and the answer, the match
    # as its player may see it (by default with the events the write appended).
    # `expected_version` travels in the body to the service.

    def write(
        self,
        request,
        body_serializer,
        service: Callable[[dict], LoadedMatch],
        *,
        status_code: int = status.HTTP_200_OK,
        answer: Callable[[LoadedMatch], dict] = lambda match: MATCH_WRITE_VIEW.render(
            match_queries.match_write_view(match=match)
        ),
    ) -> Response:
        data = valid(body_serializer, request.data)

        drawn: list[str | None] = [None]

        def call() -> tuple[int, dict]:
            body = answer(service(data))
            # A watch code is stored only hashed, so the stored reply leaves it out.
            drawn[0], body["watch_code"] = body["watch_code"], None
            return status_code, body

        key = request.headers.get("Idempotency-Key")
        if key is None:
            code, body = call()
            return Response({**body, "watch_code": drawn[0]}, status=code)
        code, body, replayed = idempotency.idempotent_call(
            player=request.user,
            key=idempotency.validate_key(key),
            fingerprint=idempotency.fingerprint(request.method, request.path, request.data),
            call=call,
        )
        if replayed:
            return Response(body, status=code, headers={"Idempotent-Replayed": "true"})
        return Response({**body, "watch_code": drawn[0]}, status=code)


class MatchViewSet(MatchWriteViewSet):
    lookup_url_kwarg = "match_id"
    lookup_value_converter = "uuid"
    # Named here, drf-spectacular documents the page envelope and its query parameters.
    pagination_class = MatchPagination
    action_rate_scopes = {"create": ("match_create",), "hint": ("hint", "hint_address")}

    def _found(self) -> LoadedMatch:
        match = match_queries.match_get(match_id=self.kwargs["match_id"], player=self.request.user)
        if match is None:
            raise DomainError("not_found", "No such match.")
        return match

    @extend_schema(
        operation_id="matches_list",
        summary="List your matches, newest first",
        description="Pages of 20 (`page_size` up to 100); `status` keeps only the matches in "
        "that state, e.g. `in_deal` or `deal_over` for the ones still to play.",
        parameters=[MatchListQuerySerializer],
        responses={
            200: MatchSummarySerializer(many=True),
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: problem_response(
                "The page number is not a page of the list.", ("not_found", "Invalid page.")
            ),
        },
    )
    def list(self, request):
        query = valid(MatchListQuerySerializer, request.query_params)
        matches = match_queries.match_list(player=request.user, status=query.get("status"))
        page = self.paginate_queryset(matches)
        return self.get_paginated_response(MatchSummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="matches_create",
        summary="Create a match: you at seat 0, with AI seats or a table for friends",
        description="Alone (`humans` 1, the default) deal 1 starts at once, and the AI seats "
        "that act before you have acted. With `humans` above 1 the match is `waiting`: your "
        "view carries an `invite` for the others to `join` with, and deal 1 starts when the "
        "last human seat is taken. The deals are verifiable (docs/fairness.md): give the `id` "
        "of a commitment you drew and your `client_seed`, or let the server draw the seed.",
        request=MatchCreateSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: problem_response("No commitment of yours has this id.", "commitment_not_found"),
            409: problem_response(
                "A request with this key is still running, or the commitment was used or expired.",
                "idempotency_in_progress",
                "commitment_used",
                "commitment_expired",
            ),
            422: problem_response(
                "`open` or `fill_after` alone (only a table waits for others), a commitment for "
                "a match that is not verifiable, or the key was used with another request.",
                "not_a_table",
                "commitment_not_verifiable",
                "idempotency_key_reused",
            ),
        },
        examples=[
            OpenApiExample("hard AI", value={"ai_level": "hard"}, request_only=True),
            OpenApiExample(
                "a table for three",
                value={"humans": 3, "turn_seconds": 120},
                request_only=True,
            ),
            OpenApiExample(
                "an open table the AI fills after two minutes",
                value={"humans": 4, "open": True, "fill_after": 120},
                request_only=True,
            ),
        ],
    )
    def create(self, request):
        return self.write(
            request,
            MatchCreateSerializer,
            lambda data: match_commands.match_create(
                owner=request.user,
                ai_level=data["ai_level"],
                seed=data.get("seed"),
                humans=data.get("humans", 1),
                turn_seconds=data.get(
                    "turn_seconds", match_commands.default_turn_seconds(data.get("humans", 1))
                ),
                commitment=data.get("commitment"),
                client_seed=data.get("client_seed", ""),
                verifiable=data.get("verifiable"),
                spectators=data.get("spectators", spectating_commands.SPECTATORS_OFF),
                open=data.get("open", False),
                fill_after=data.get("fill_after"),
            ),
            status_code=status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="matches_retrieve",
        summary="The match as you may see it",
        description="Only what your seat may see: your cards once you have looked (or the deal is "
        "over), other seats' hands only in a showdown's result, never a folded hand. No "
        "`events` here: only a write's answer carries them.",
        responses={200: MatchViewSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def retrieve(self, request, match_id):
        return Response(MATCH_VIEW.render(match_queries.match_view(match=self._found())))

    @extend_schema(
        operation_id="matches_act",
        summary="Act at your seat; the AI seats then act until your next turn",
        description="`action` is one of `legal_actions`. A look shows your cards and keeps "
        "your turn; any other action ends it, and the AI seats play on until it is your turn "
        "again or the deal is over. The answer's `events` are your action and every AI reply.",
        request=ActionSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The match is not in a state for this action.",
            "not_your_turn",
            "deal_over",
            "match_finished",
            "match_not_started",
            "not_seated",
            unprocessable=("illegal_action", "already_looked"),
        ),
        examples=[
            OpenApiExample("look", value={"action": "look"}, request_only=True),
            OpenApiExample(
                "raise", value={"action": "raise", "expected_version": 7}, request_only=True
            ),
        ],
    )
    @action(detail=True, methods=["post"], url_path="actions")
    def act(self, request, match_id):
        return self.write(
            request,
            ActionSerializer,
            lambda data: match_commands.match_move(
                move="act",
                match_id=match_id,
                player=request.user,
                action=data["action"],
                expected_version=data.get("expected_version"),
            ),
        )

    @extend_schema(
        operation_id="matches_next_deal",
        summary="Start the next deal once the current one is over",
        description="Allowed when `status` is `deal_over`. The deal passes to the next "
        "dealer, and the AI seats that act before you have acted in the answer's `events`.",
        request=VersionSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The current deal is still on, or the match is finished.",
            "deal_in_progress",
            "match_finished",
            "match_not_started",
            "not_seated",
        ),
    )
    @action(detail=True, methods=["post"], url_path="next-deal")
    def next_deal(self, request, match_id):
        return self.write(
            request,
            VersionSerializer,
            lambda data: match_commands.match_move(
                move="next_deal",
                match_id=match_id,
                player=request.user,
                expected_version=data.get("expected_version"),
            ),
        )

    @extend_schema(
        operation_id="matches_restart",
        summary="Start a new 12-deal series with every total at zero",
        description="Alone, allowed at any time; an unfinished deal is abandoned and counts "
        "for nobody. At a shared table only the owner may restart, once the match is finished "
        "(and nobody once the owner left): it would erase the others' game. The match's "
        "history stays in its events.",
        request=RestartSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The version is stale, or a shared table may not be restarted now.",
            "restart_not_allowed",
        ),
    )
    @action(detail=True, methods=["post"])
    def restart(self, request, match_id):
        return self.write(
            request,
            RestartSerializer,
            lambda data: match_commands.match_move(
                move="restart",
                match_id=match_id,
                player=request.user,
                expected_version=data.get("expected_version"),
                ai_level=data.get("ai_level"),
                client_seed=data.get("client_seed", ""),
            ),
        )

    @extend_schema(
        operation_id="matches_resign",
        summary="Give the match up: it ends at once",
        description="The match is finished at once with the totals as they stand; a deal in "
        "progress is abandoned and counts for nobody. The answer's events are `resigned` and "
        "`match_finished`, whose winners are the leaders among the AI seats: you are never "
        "among them. `restart` starts a new series afterwards, as after any finished match. At "
        "a shared table, resigning is leaving (see `leave`).",
        request=VersionSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The match is already finished or abandoned, or the version is stale.",
            "match_finished",
            "not_seated",
            "match_abandoned",
        ),
    )
    @action(detail=True, methods=["post"])
    def resign(self, request, match_id):
        return self.write(
            request,
            VersionSerializer,
            lambda data: match_commands.match_move(
                move="resign",
                match_id=match_id,
                player=request.user,
                expected_version=data.get("expected_version"),
            ),
        )

    @extend_schema(
        operation_id="matches_join",
        summary="Take the next open seat of a table",
        description="With the `invite` its owner shares (none at an open table: GET /tables "
        "lists them), you sit at the next open human seat "
        "(the lowest one a guest left before deal 1, else the next one never taken) and the "
        "answer is your view (`your_seat` set) with a `player_joined` event. When you take the "
        "last seat, deal 1 starts, and the AI seats that act before a human have acted. A "
        "table its owner left before deal 1 is 409 `match_abandoned`. A wrong invite is 404, "
        "as for a match that does not exist.",
        request=JoinSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "Every seat is taken, you sit there already, or the table was closed or abandoned.",
                "match_full",
                "already_seated",
                "match_abandoned",
                "idempotency_in_progress",
            ),
            422: KEY_REUSED,
        },
    )
    @action(detail=True, methods=["post"])
    def join(self, request, match_id):
        return self.write(
            request,
            JoinSerializer,
            lambda data: match_commands.match_join(
                match_id=match_id,
                player=request.user,
                invite=data.get("invite", ""),
                client_seed=data.get("client_seed", ""),
            ),
        )

    @extend_schema(
        operation_id="matches_invitation",
        summary="See the table an invite is for, without joining it",
        description="With the `invite` its owner shared (in the body: an invite never travels "
        "in a URL), the table as GET /tables shows an open one: its owner, the seats and "
        "which are free, the turn clock, the AI level, whether its deals are `verifiable`, "
        "who may watch, and when the AI fills the free seats. Nothing changes: join it with "
        "POST /matches/{id}/join. Refused as that join would be: a wrong invite is 404, as "
        "for a match that does not exist; a table that has started is 409 `match_full`, one "
        "its owner left 409 `match_abandoned`, and one you sit at 409 `already_seated`.",
        request=InvitationSerializer,
        responses={
            200: OpenTableSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "The table is no longer yours to join: it has started, its owner left it, or "
                "you sit there already.",
                "match_full",
                "match_abandoned",
                "already_seated",
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def invitation(self, request, match_id):
        data = valid(InvitationSerializer, request.data)
        table = tables_queries.table_invitation(
            match_id=match_id, player=request.user, invite=data.get("invite", "")
        )
        return Response(OPEN_TABLE.render(table))

    @extend_schema(
        operation_id="matches_leave",
        summary="Leave the match: before deal 1 your seat is freed, after it the AI plays it",
        description="At a table still `waiting`, a guest's leave records `seat_freed`: the "
        "seat is open again for anyone's join, yours too, and you no longer sit there (the "
        "match is then 404 to you); the owner's leave closes the table (`player_left` with "
        "`abandoned`), and nobody can join it. Once deal 1 has started, it records "
        "`player_left`: the AI plays your seat, and you can still read the match but no "
        "longer act. When the last human leaves an unfinished match, it ends `abandoned`: "
        "nobody plays it any more and it has no winners. A finished match is 409 "
        "`match_finished` and records nothing.",
        request=VersionSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "You left already, the match is finished or abandoned, or the version is stale.",
            "not_seated",
            "match_finished",
            "match_abandoned",
        ),
    )
    @action(detail=True, methods=["post"])
    def leave(self, request, match_id):
        return self.write(
            request,
            VersionSerializer,
            lambda data: match_commands.match_move(
                move="leave",
                match_id=match_id,
                player=request.user,
                expected_version=data.get("expected_version"),
            ),
        )

    @extend_schema(
        operation_id="matches_events",
        summary="The match's events after seq `after`, as you may see them",
        description="At most 1,000 events per page, in seq order; when `has_more` is true, "
        "ask again with `after` set to the last seq you got. Events never show the deck, the "
        "seed, or a hand you may not see. With `wait` (a long-poll, up to 30 s), an answer "
        "that would have no events waits until one is written, and answers it at once, or "
        "answers with none when the time is up (at once if your token is rotated or revoked "
        "meanwhile). An `after` past the match's latest event is "
        "400 `after_out_of_range`, with that event's seq as `latest`.",
        parameters=[EventsQuerySerializer],
        responses={
            200: MatchEventsSerializer,
            400: AFTER_REFUSED,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["get"])
    def events(self, request, match_id):
        query = valid(EventsQuerySerializer, request.query_params)
        match = self._found()
        after = match_queries.match_cursor(match=match, after=query["after"])
        page = match_queries.events_page(match=match, after=after)
        if page["events"] or not query["wait"]:
            return Response(page)
        # The wait runs on the event loop after this thread has answered, holding neither a
        # thread nor a database connection; the body is sent when known.
        waiting = streams.long_poll(
            match=match,
            player=request.user,
            after=after,
            wait=query["wait"],
            token_hash=credential_hash(request.auth),
        )
        return StreamingHttpResponse(waiting, content_type="application/json")

    @extend_schema(
        operation_id="matches_record",
        summary="The match's record to keep: every deal, move and result you may see",
        description="A JSON document in the format `asnas-record/2` (docs/record.md; its JSON "
        "Schema is docs/record.schema.json): the players, how each series was dealt "
        "(commitments, client seeds, and the server seed once revealed), every deal's dealer, "
        "its moves with who made them (player, AI or clock), the hands you may see, the "
        "results with exact points, and each series' end. Where a verifiable series has ended, "
        "every hand of it, dealt again from its seeds. `manage.py import_record` plays a record "
        "again and checks every total.",
        responses={
            200: MatchRecordSerializer,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["get"])
    def record(self, request, match_id):
        return Response(match_queries.match_record(match=self._found()))

    @extend_schema(
        operation_id="matches_stream",
        summary="Follow the match live: Server-Sent Events, one per match event",
        description="`text/event-stream`: one SSE event per match event, with `id:` its `seq`, "
        "`event:` its `type` and `data:` the JSON object that `events` lists for you (so never "
        "a card you may not see). First every event after `after` (or the `Last-Event-ID` "
        "header, which wins), then each new one as it is written, with no gap and no "
        "duplicate; a comment line at least every 15 s; the stream ends after "
        "`match_finished` (or the `player_left` that abandons the match), whatever its "
        "resume point: at once when that is the latest event of a match that is over. A "
        "resume point past the latest event is 400 `after_out_of_range`, with that event's "
        "seq as `latest`. Authenticate with "
        "the bearer token, or, where no header can be sent (a browser's EventSource), with a "
        "`ticket` from POST /stream-tickets. The stream ends, sending nothing more, once that "
        "token (the one that issued the ticket) is rotated or revoked. Errors before the "
        "stream starts are problem bodies.",
        parameters=[StreamQuerySerializer, LAST_EVENT_ID],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                match_event_field(),
                description="Server-Sent Events; each `data:` line is one MatchEvent.",
            ),
            400: AFTER_REFUSED,
            401: STREAM_UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    @action(detail=True, methods=["get"], authentication_classes=STREAM_AUTHENTICATION)
    def stream(self, request, match_id):
        query = dict(request.query_params.items())
        if "Last-Event-ID" in request.headers:
            query["after"] = request.headers["Last-Event-ID"]
        after = valid(StreamQuerySerializer, query)["after"]
        match = self._found()
        after = match_queries.match_cursor(match=match, after=after)
        opened = streams.match_stream(
            match=match, after=after, token_hash=credential_hash(request.auth)
        )
        return streams.event_stream_response(opened)

    @extend_schema(
        operation_id="matches_spectators",
        summary="Choose who may watch your match, or draw a new watch code",
        description="The owner only. `off` (nobody), `delayed` (a deal's moves once that deal "
        "has ended) or `live` (public moves as they happen). Turning spectators on, or "
        "`new_code`, draws a watch code: the answer's `watch_code` shows it, this once (the "
        "server keeps only its hash); share it as a link with the code in the fragment, "
        "`/watch.html#watch=CODE`. A new code, or `off`, ends every watch stream of the old one. "
        "Not a match event: the version does not change.",
        request=SpectatorsSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            403: problem_response("You do not own the match.", "not_owner"),
            404: NOT_FOUND,
            409: KEY_IN_PROGRESS,
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
    @action(detail=True, methods=["post"])
    def spectators(self, request, match_id):
        return self.write(
            request,
            SpectatorsSerializer,
            lambda data: spectating_commands.match_spectators_set(
                match_id=match_id,
                player=request.user,
                spectators=data["spectators"],
                new_code=data.get("new_code", False),
            ),
            answer=lambda match: MATCH_VIEW.render(match_queries.match_view(match=match)),
        )

    @extend_schema(
        operation_id="matches_hint",
        summary="The coach's advice for your current decision",
        description="For your turn: the `hard` strategy's probability of each legal action, "
        "each action's expected score against the AI seats (exact: summed over every deal "
        "still possible, not sampled), and, once you have looked, your hand's rank and its "
        "exact chance to win a showdown. Before you look it says look and tells nothing of "
        "your cards. A hint is logged for the staff but is not a match event: the match's "
        "`version` does not change. Single-player matches only. Limited per player (`hint`) "
        "and per address (`hint_address`); a server computes a few at once and answers 503 "
        "`hints_busy` past them, while an answer it has already computed (for any match: "
        "same AI table, betting and hand) costs nothing.",
        responses={
            200: HintSerializer,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "It is not your turn, the deal or match is over, or the match has more than "
                "one human.",
                "not_your_turn",
                "deal_over",
                "match_finished",
                "hints_not_allowed",
            ),
            503: problem_response(
                "The server computes as many hints as it does at once, or the database is "
                "unavailable; retry after Retry-After.",
                "hints_busy",
                "database_unavailable",
            ),
        },
    )
    @action(detail=True, methods=["get"])
    def hint(self, request, match_id):
        body = coaching_commands.hint_create(
            match_id=match_id, player=request.user, shaped=_hint_body
        )
        return Response(body)


def _hint_body(given: GivenHint) -> dict:
    return HintSerializer(given).data


class PlayerStreamViewSet(EventStreamViewSet):
    # The player's own stream lives with the matches it reports on; its path is the player's.
    authentication_classes = STREAM_AUTHENTICATION
    stream_actions = {"list"}

    @extend_schema(
        operation_id="players_stream",
        summary="Your notices live: whose turn it is, in every match you sit at",
        description="`text/event-stream`, with `event:` naming each notice: `your_turn` "
        "`{match_id, deadline}` when a turn of yours begins (first one for each unfinished "
        "match where it is your turn as the stream opens), `match_started` `{match_id}` when "
        "deal 1 of a series starts, `match_finished` `{match_id, winners, totals}`. A comment "
        "line at least every 15 s; the first comes once the turns waiting now are read, and "
        "every change after it is announced. Authenticate with the bearer token, or a "
        "`ticket` from POST /stream-tickets issued without `match_id`; the stream ends once "
        "that token (the one that issued the ticket) is rotated or revoked.",
        parameters=[
            OpenApiParameter(
                "ticket",
                OpenApiTypes.STR,
                description="A single-use ticket from POST /stream-tickets, without `match_id`.",
            )
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                player_notice_field(),
                description="Server-Sent Events; each `data:` line is one PlayerNotice, named "
                "by its `event:` line.",
            ),
            401: STREAM_UNAUTHORIZED,
        },
    )
    def list(self, request):
        opened = streams.player_stream(
            player=request.user, token_hash=credential_hash(request.auth)
        )
        return streams.event_stream_response(opened)


def _filters(data: dict, *, verifiable: bool | None) -> TableFilters:
    """The filters given, and `verifiable` where that one is left out."""
    return TableFilters(
        humans=data.get("humans"),
        max_turn_seconds=data.get("max_turn_seconds"),
        ai_level=data.get("ai_level"),
        verifiable=data.get("verifiable", verifiable),
    )


class TableList(APIView):
    # A view of its own, not a viewset's `list`: its answer is an object (the Lobby), which
    # drf-spectacular would document as an array for a `list` action.

    @extend_schema(
        operation_id="tables_list",
        summary="The open tables waiting for humans, longest waiting first",
        description="Tables their owners created with `open: true` that still have free human "
        "seats: who sits there, the turn clock, the AI level, whether the deals are "
        "`verifiable`, who may watch, and when the AI fills the free seats (`fill_at`). Join "
        "one with POST /matches/{id}/join, no invite needed, or let POST /quick-play choose. "
        f"The {tables_queries.TABLES_LIMIT} longest waiting that fit the filters.",
        parameters=[TableFiltersSerializer],
        responses={
            200: LobbySerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
        },
    )
    def get(self, request):
        # The list shows whether each table is verifiable: both kinds unless asked.
        filters = _filters(valid(TableFiltersSerializer, request.query_params), verifiable=None)
        tables = tables_queries.tables_open(filters=filters)
        return Response(LOBBY.render({"tables": tables}))


class QuickPlayViewSet(MatchWriteViewSet):
    action_rate_scopes = {"create": ("match_create",)}

    @extend_schema(
        operation_id="quick_play",
        summary="Sit at the open table that waited longest, or open one",
        description="Among the open tables that fit the filters and that you do not sit at "
        "already, you take a seat at the one that has waited longest, as a join would (when "
        "you take the last seat, deal 1 starts). When none fits, a table is opened for you "
        "(you at seat 0): `humans` seats (2 if not named), the AI at `ai_level` (default "
        "`hard`), a turn clock of 60 s or your `max_turn_seconds` if shorter, listed in GET "
        "/tables, and filled by the AI after 60 s. A verifiable table, where every folded hand "
        "is shown to all once its series ends (docs/fairness.md), fits only with `verifiable: "
        "true` (and the table opened is one then). Two quick plays that find no table at the "
        "same moment do not both open one: the second sits at the table the first opened. "
        "The answer is your view of the match, with its events.",
        request=QuickPlaySerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            409: KEY_IN_PROGRESS,
            422: KEY_REUSED,
        },
        examples=[
            OpenApiExample("any table", value={}, request_only=True),
            OpenApiExample(
                "four humans, quick turns",
                value={"humans": 4, "max_turn_seconds": 30},
                request_only=True,
            ),
        ],
    )
    def create(self, request):
        return self.write(
            request,
            QuickPlaySerializer,
            lambda data: tables_commands.match_quick_play(
                player=request.user,
                # Only a verifiable table shows folded hands: nobody sits at one unasked.
                filters=_filters(data, verifiable=False),
                client_seed=data.get("client_seed", ""),
            ),
        )


class StreamTicketViewSet(RateScopedViewSet):
    @extend_schema(
        operation_id="stream_tickets_create",
        summary="A ticket to open a stream where no header can be sent",
        description="Browsers' EventSource cannot send `Authorization`, and a token must never "
        "be in a URL: this single-use ticket, good for 60 s, opens the stream of `match_id` "
        "(`/matches/{id}/stream?ticket=...`), or without `match_id` your own "
        "(`/players/me/stream?ticket=...`), while the token that issued it works. Any server "
        "of the service redeems it.",
        request=StreamTicketCreateSerializer,
        responses={
            201: StreamTicketSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def create(self, request):
        data = valid(StreamTicketCreateSerializer, request.data)
        ticket, expires_at = match_commands.stream_ticket_create(
            player=request.user, token=request.auth, match_id=data.get("match_id")
        )
        body = StreamTicketSerializer({"ticket": ticket, "expires_at": expires_at}).data
        return Response(body, status=status.HTTP_201_CREATED)


class CommitmentViewSet(RateScopedViewSet):
    @extend_schema(
        operation_id="commitments_create",
        summary="Commit to a server seed before you choose your client seed",
        description="The server draws a 32-byte seed and answers its SHA-256 only. Create a "
        "match with `commitment` set to this `id` (within 10 minutes, once) and a "
        "`client_seed` of your choosing: its first series deals from both, and the seed is "
        "revealed when the series ends, so that you can check every deal (docs/fairness.md).",
        request=None,
        responses={201: CommitmentSerializer, 401: UNAUTHORIZED},
    )
    def create(self, request):
        commitment_id, commitment, expires_at = fairness_commands.commitment_create(
            player=request.user
        )
        body = {"id": commitment_id, "commitment": commitment, "expires_at": expires_at}
        return Response(COMMITMENT.render(body), status=status.HTTP_201_CREATED)


WATCH_CODE = OpenApiParameter(
    "Watch-Code",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="The watch code the match's owner shared. A header, never the URL: a URL "
    "reaches logs and histories.",
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


class WatchViewSet(RateScopedViewSet, EventStreamViewSet):
    # Spectators have no account: the watch code (in a body or a header, never a URL) or a
    # watch ticket is what lets them in. Rate limits count their address.
    authentication_classes = []
    permission_classes = [AllowAny]

    def _watched(self, watch_code: str | None) -> LoadedMatch:
        code = valid(WatchCodeSerializer, {"watch_code": watch_code})["watch_code"]
        match = spectating_queries.watch_get_by_code(watch_code=code)
        if match is None:
            raise DomainError("not_found", "No match to watch with this code.")
        return match

    @extend_schema(
        operation_id="watch",
        summary="Watch a match: the spectator's view",
        description="No account needed: the `watch_code` its owner shared. Seats, names, "
        "stakes, totals and public moves; no hand but those a showdown showed, once their "
        "deal has ended. `delayed`: the match as the last deal that ended left it, with "
        "nothing of the deal still being played (docs/spectators.md).",
        request=WatchCodeSerializer,
        responses={200: WatchViewSerializer, 400: VALIDATION_ERROR, 404: NO_MATCH_TO_WATCH},
        auth=[],
    )
    def create(self, request):
        match = self._watched(valid(WatchCodeSerializer, request.data)["watch_code"])
        return Response(WATCH_VIEW.render(spectating_queries.watch_view(match=match)))

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
        responses={200: MatchEventsSerializer, 400: AFTER_REFUSED, 404: NO_MATCH_TO_WATCH},
        auth=[],
    )
    @action(detail=False, methods=["get"])
    def events(self, request):
        query = valid(EventsQuerySerializer, request.query_params)
        match = self._watched(request.headers.get("Watch-Code"))
        after = spectating_queries.watch_cursor(match=match, after=query["after"])
        page = spectating_queries.watch_events(match=match, after=after)
        if page["events"] or not query["wait"]:
            return Response(page)
        waiting = streams.watch_long_poll(
            match=match, after=after, wait=query["wait"], horizon=page["version"]
        )
        return StreamingHttpResponse(waiting, content_type="application/json")

    @extend_schema(
        operation_id="watch_tickets_create",
        summary="A ticket to open the watch stream where no header can be sent",
        description="A browser's EventSource cannot send `Watch-Code`: this single-use ticket, "
        "good for 60 s, opens `/watch/stream?ticket=...`. Any server redeems it.",
        request=WatchCodeSerializer,
        responses={201: StreamTicketSerializer, 400: VALIDATION_ERROR, 404: NO_MATCH_TO_WATCH},
        auth=[],
    )
    @action(detail=False, methods=["post"])
    def tickets(self, request):
        data = valid(WatchCodeSerializer, request.data)
        ticket, expires_at = spectating_commands.watch_ticket_create(watch_code=data["watch_code"])
        body = StreamTicketSerializer({"ticket": ticket, "expires_at": expires_at}).data
        return Response(body, status=status.HTTP_201_CREATED)

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
            WatchStreamQuerySerializer,
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
            404: NO_MATCH_TO_WATCH,
            429: WATCH_LIMITS,
        },
        auth=[],
    )
    @action(detail=False, methods=["get"])
    def stream(self, request):
        query = dict(request.query_params.items())
        if "Last-Event-ID" in request.headers:
            query["after"] = request.headers["Last-Event-ID"]
        query = valid(WatchStreamQuerySerializer, query)
        if "ticket" in query:
            code_hash = spectating_commands.watch_ticket_redeem(ticket=query["ticket"])
            if code_hash is None:
                raise DomainError(
                    "invalid_ticket", "The ticket was used already, has expired, or is unknown."
                )
            match = spectating_queries.watch_get(watch_code_hash=code_hash)
            if match is None:
                raise DomainError("not_found", "No match to watch with this code.")
        else:
            match = self._watched(request.headers.get("Watch-Code"))
        after = spectating_queries.watch_cursor(match=match, after=query["after"])
        stream_id = spectating_commands.watch_stream_open(
            match=match, address=budget_address(request)
        )
        return streams.event_stream_response(
            streams.watch_stream(match=match, after=after, stream_id=stream_id)
        )
