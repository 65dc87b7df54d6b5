"""The player API: one viewset on the router. Registering is the one public action; every
other one needs a token."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from edge.api import RateScopedViewSet, valid
from edge.schema import NOT_FOUND, UNAUTHORIZED, VALIDATION_ERROR
from games import streams
from games.api import STREAM_AUTHENTICATION, STREAM_UNAUTHORIZED, EventStreamViewSet
from players import selectors, services
from players.serializers import (
    PlayerCreatedSerializer,
    PlayerCreateSerializer,
    PlayerProfileSerializer,
    StreamTicketCreateSerializer,
    StreamTicketSerializer,
    TokenIssuedSerializer,
    player_notice_field,
)


class PlayerViewSet(RateScopedViewSet, EventStreamViewSet):
    public_actions = {"create"}
    action_rate_scopes = {"create": ("player_create",)}

    def initialize_request(self, request, *args, **kwargs):
        # DRF picks the authenticators here, before it sets self.action from the same map.
        self.is_public = self.action_map.get(request.method.lower()) in self.public_actions
        return super().initialize_request(request, *args, **kwargs)

    def get_authenticators(self):
        return [] if self.is_public else super().get_authenticators()

    def get_permissions(self):
        return [AllowAny()] if self.action in self.public_actions else super().get_permissions()

    @extend_schema(
        operation_id="players_create",
        summary="Register a player and get its bearer token (shown only once)",
        description="No token needed. The server keeps only the token's hash: store it, since "
        "it cannot be shown again. Limited per client address (ASNAS_RATE_PLAYER_CREATE).",
        request=PlayerCreateSerializer,
        responses={201: PlayerCreatedSerializer, 400: VALIDATION_ERROR},
        examples=[OpenApiExample("Roya", value={"name": "Roya"}, request_only=True)],
        auth=[],
    )
    def create(self, request):
        data = valid(PlayerCreateSerializer, request.data)
        player, token = services.player_create(name=data["name"])
        return Response(
            PlayerCreatedSerializer({"id": player.id, "name": player.name, "token": token}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="players_me",
        summary="Your profile and stats",
        description="Stats leave out seeded matches, whose deals were known in advance.",
        responses={200: PlayerProfileSerializer, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["get"])
    def me(self, request):
        player = request.user
        profile = {
            "id": player.id,
            "name": player.name,
            "created_at": player.created_at,
            "stats": selectors.player_stats(player=player),
        }
        return Response(PlayerProfileSerializer(profile).data)

    @extend_schema(
        operation_id="players_tokens_issue",
        summary="Issue another token, for another device",
        description="Authenticated with one of your tokens; every token you hold keeps working "
        "until it is rotated or revoked. Keep at least one: a lost last token cannot be "
        "recovered, since the server keeps only hashes.",
        request=None,
        responses={201: TokenIssuedSerializer, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["post"], url_path="me/tokens")
    def tokens_issue(self, request):
        token = services.token_issue(player=request.user)
        return Response(
            TokenIssuedSerializer({"token": token}).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        operation_id="players_tokens_rotate",
        summary="Replace the token in use with a new one",
        description="The token that authenticated this request stops working at once; use the "
        "one in the answer from now on. Your other tokens are untouched.",
        request=None,
        responses={200: TokenIssuedSerializer, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["post"], url_path="me/tokens/rotate")
    def tokens_rotate(self, request):
        token = services.token_rotate(player=request.user, token=request.auth)
        return Response(TokenIssuedSerializer({"token": token}).data)

    @extend_schema(
        operation_id="players_tokens_revoke_current",
        summary="Revoke the token in use",
        description="The token that authenticated this request stops working at once, as on a "
        "logout. If it was your last token, nothing can give you access to this player again.",
        request=None,
        responses={204: None, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["delete"], url_path="me/tokens/current")
    def tokens_revoke_current(self, request):
        services.token_revoke(player=request.user, token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="players_stream",
        summary="Your notices live: whose turn it is, in every match you sit at",
        description="`text/event-stream`, with `event:` naming each notice: `your_turn` "
        "`{match_id, deadline}` when a turn of yours begins (first one for each unfinished "
        "match where it is your turn as the stream opens), `match_started` `{match_id}` when "
        "deal 1 of a series starts, `match_finished` `{match_id, winners, totals}`. A comment "
        "line at least every 15 s. Authenticate with the bearer token, or a `ticket` from "
        "POST /stream-tickets issued without `match_id`.",
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
    @action(
        detail=False,
        methods=["get"],
        url_path="me/stream",
        authentication_classes=STREAM_AUTHENTICATION,
    )
    def stream(self, request):
        return streams.event_stream_response(streams.player_stream(player=request.user))


class StreamTicketViewSet(RateScopedViewSet):
    @extend_schema(
        operation_id="stream_tickets_create",
        summary="A ticket to open a stream where no header can be sent",
        description="Browsers' EventSource cannot send `Authorization`, and a token must never "
        "be in a URL: this single-use ticket, good for 60 s, opens the stream of `match_id` "
        "(`/matches/{id}/stream?ticket=...`), or without `match_id` your own "
        "(`/players/me/stream?ticket=...`). Any server of the service redeems it.",
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
        ticket, expires_at = services.stream_ticket_create(
            player=request.user, match_id=data.get("match_id")
        )
        body = StreamTicketSerializer({"ticket": ticket, "expires_at": expires_at}).data
        return Response(body, status=status.HTTP_201_CREATED)
