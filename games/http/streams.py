"""The streams' operations: a match's stream, the player's own stream of notices, and the
tickets that open a stream where no header can be sent (docs/streams.md)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api import valid
from edge.schema import NOT_FOUND, UNAUTHORIZED, VALIDATION_ERROR
from edge.serializers import RequestBodySerializer
from games.http import stream_reads
from games.http.notices import player_notice_field
from games.http.schema import AFTER_REFUSED, LAST_EVENT_ID, STREAM_UNAUTHORIZED
from games.http.shapes import StreamCursorSerializer, StreamTicketSerializer, match_event_field
from games.http.views import STREAM_AUTHENTICATION, EventStream, found_match
from games.match import commands as match_commands
from games.match import queries as match_queries
from players.auth import credential_hash


class MatchStream(EventStream):
    name = "Stream"  # what OPTIONS names it, as before
    authentication_classes = STREAM_AUTHENTICATION

    @extend_schema_serializer(component_name="StreamQuery")
    class InputSerializer(StreamCursorSerializer):
        ticket = serializers.CharField(
            required=False,
            help_text="A single-use ticket from POST /stream-tickets, for clients that cannot "
            "send an Authorization header (a browser's EventSource). Never put a token here.",
        )

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
        parameters=[InputSerializer, LAST_EVENT_ID],
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
    def get(self, request, match_id):
        query = dict(request.query_params.items())
        if "Last-Event-ID" in request.headers:
            query["after"] = request.headers["Last-Event-ID"]
        after = valid(self.InputSerializer, query)["after"]
        match = found_match(match_id=match_id, player=request.user)
        after = match_queries.match_cursor(match=match, after=after)
        opened = stream_reads.match_stream(
            match=match, after=after, token_hash=credential_hash(request.auth)
        )
        return stream_reads.event_stream_response(opened)


class PlayerStream(EventStream):
    name = "Player Stream List"  # what OPTIONS names it, as before
    # The player's own stream lives with the matches it reports on; its path is the player's.
    authentication_classes = STREAM_AUTHENTICATION

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
    def get(self, request):
        opened = stream_reads.player_stream(
            player=request.user, token_hash=credential_hash(request.auth)
        )
        return stream_reads.event_stream_response(opened)


class StreamTicketCreate(APIView):
    name = "Stream Ticket List"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="StreamTicketCreate")
    class InputSerializer(RequestBodySerializer):
        match_id = serializers.UUIDField(
            required=False,
            allow_null=True,
            help_text="The match whose stream the ticket opens (one you sit at); leave it out for "
            "your own stream, /players/me/stream.",
        )

    @extend_schema(
        operation_id="stream_tickets_create",
        summary="A ticket to open a stream where no header can be sent",
        description="Browsers' EventSource cannot send `Authorization`, and a token must never "
        "be in a URL: this single-use ticket, good for 60 s, opens the stream of `match_id` "
        "(`/matches/{id}/stream?ticket=...`), or without `match_id` your own "
        "(`/players/me/stream?ticket=...`), while the token that issued it works. Any server "
        "of the service redeems it.",
        request=InputSerializer,
        responses={
            201: StreamTicketSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def post(self, request):
        data = valid(self.InputSerializer, request.data)
        ticket, expires_at = match_commands.stream_ticket_create(
            player=request.user, token=request.auth, match_id=data.get("match_id")
        )
        body = StreamTicketSerializer({"ticket": ticket, "expires_at": expires_at}).data
        return Response(body, status=status.HTTP_201_CREATED)
