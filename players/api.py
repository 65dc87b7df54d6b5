"""The player API: one viewset on the router. Registering is the one public action; every
other one needs a token."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from edge.api import DescribedPagination, RateScopedViewSet, valid
from edge.schema import UNAUTHORIZED, VALIDATION_ERROR, problem_response
from players import selectors, services
from players.auth import InvalidToken
from players.serializers import (
    LeaderboardEntrySerializer,
    PlayerCreatedSerializer,
    PlayerCreateSerializer,
    PlayerProfileSerializer,
    PlayerRenameSerializer,
    TokenIssuedSerializer,
)


class BotAfterMatches(exceptions.APIException):
    """A bot declaration by a player who has sat at a match: others met them as a human."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = (
        "A player who has sat at a match stays a human: register the bot as a new player."
    )
    default_code = "bot_after_matches"


class PlayerViewSet(RateScopedViewSet):
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
        examples=[
            OpenApiExample("Roya", value={"name": "Roya"}, request_only=True),
            OpenApiExample("A bot", value={"name": "Shirbot", "bot": True}, request_only=True),
        ],
        auth=[],
    )
    def create(self, request):
        data = valid(PlayerCreateSerializer, request.data)
        player, token = services.player_create(name=data["name"], bot=data.get("bot", False))
        created = {"id": player.id, "name": player.name, "token": token, "bot": player.is_bot}
        return Response(PlayerCreatedSerializer(created).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="players_declare_bot",
        summary="Declare yourself a bot, for good, before your first match",
        description="From now on you are labelled a bot wherever you sit or rank, and are "
        "seated with humans only where they allowed bots (docs/bots.md). There is no way "
        "back. A player who has sat at any match stays a human: 409 `bot_after_matches`, "
        "nothing changed. Declaring again answers the same.",
        request=None,
        responses={
            200: PlayerProfileSerializer,
            401: UNAUTHORIZED,
            409: problem_response(
                "You have sat at a match already.",
                ("bot_after_matches", BotAfterMatches.default_detail),
            ),
        },
    )
    @action(detail=False, methods=["post"], url_path="me/bot")
    def declare_bot(self, request):
        if not services.player_declare_bot(player=request.user):
            raise BotAfterMatches
        return self.me(request)

    @extend_schema(
        operation_id="players_me",
        summary="Your profile and stats",
        description="Stats leave out seeded matches, whose deals were known in advance. The "
        "rating is OpenSkill's, anchored to the AI levels (docs/ratings.md): every finished "
        "unseeded match you played is rated when it finishes.",
        responses={200: PlayerProfileSerializer, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["get"])
    def me(self, request):
        return Response(PlayerProfileSerializer(_profile(request.user)).data)

    @extend_schema(
        operation_id="players_me_update",
        summary="Change your name",
        description="Your name at the table, shown from now on at every table you sit at "
        "(the browser table registers a new player with a default name on its first click). "
        "A blank, missing or too long name is refused with 400 `validation_error`, any "
        "other field with 400 `unknown_field`, and nothing changes.",
        request=PlayerRenameSerializer,
        responses={200: PlayerProfileSerializer, 400: VALIDATION_ERROR, 401: UNAUTHORIZED},
        examples=[OpenApiExample("Roya", value={"name": "Roya"}, request_only=True)],
    )
    @me.mapping.patch
    def me_update(self, request):
        data = valid(PlayerRenameSerializer, request.data)
        player = services.player_rename(player=request.user, name=data["name"])
        return Response(PlayerProfileSerializer(_profile(player)).data)

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
        "one in the answer from now on. Your other tokens are untouched. Of several rotations "
        "or revocations of one token at once exactly one succeeds; the others get 401 "
        "`invalid_token`.",
        request=None,
        responses={200: TokenIssuedSerializer, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["post"], url_path="me/tokens/rotate")
    def tokens_rotate(self, request):
        token = services.token_rotate(player=request.user, token=request.auth)
        if token is None:  # rotated or revoked by another request since it was checked
            raise InvalidToken
        return Response(TokenIssuedSerializer({"token": token}).data)

    @extend_schema(
        operation_id="players_tokens_revoke_current",
        summary="Revoke the token in use",
        description="The token that authenticated this request stops working at once, as on a "
        "logout. If it was your last token, nothing can give you access to this player again. "
        "Of several revocations or rotations of one token at once exactly one succeeds; the "
        "others get 401 `invalid_token`.",
        request=None,
        responses={204: None, 401: UNAUTHORIZED},
    )
    @action(detail=False, methods=["delete"], url_path="me/tokens/current")
    def tokens_revoke_current(self, request):
        if not services.token_revoke(player=request.user, token=request.auth):
            raise InvalidToken
        return Response(status=status.HTTP_204_NO_CONTENT)


def _profile(player) -> dict:
    return {
        "id": player.id,
        "name": player.name,
        "bot": player.is_bot,
        "created_at": player.created_at,
        "stats": selectors.player_stats(player=player),
        "rating": selectors.player_rating(player=player),
    }


class LeaderboardPagination(DescribedPagination):
    counted = "How many players are on the board."
    listed = "This page's players, best displayed rating first."


class LeaderboardViewSet(RateScopedViewSet):
    pagination_class = LeaderboardPagination

    @extend_schema(
        operation_id="leaderboard_list",
        summary="The leaderboard: players by displayed rating",
        description=f"The players with {selectors.LEADERBOARD_MATCHES} rated matches or more, "
        "by displayed rating (mu - 3 sigma), best first; pages of 20 (`page_size` up to 100). "
        "The AI levels are not on it: their ratings are fixed anchors (docs/ratings.md).",
        responses={
            200: LeaderboardEntrySerializer(many=True),
            401: UNAUTHORIZED,
            404: problem_response(
                "The page number is not a page of the list.", ("not_found", "Invalid page.")
            ),
        },
    )
    def list(self, request):
        page = self.paginate_queryset(selectors.leaderboard())
        first = self.paginator.page.start_index()
        entries = [
            {
                "rank": first + offset,
                "name": row.player.name,
                "you": row.player_id == request.user.pk,
                "mu": row.mu,
                "sigma": row.sigma,
                "displayed": row.displayed,
                "matches": row.matches,
            }
            for offset, row in enumerate(page)
        ]
        return self.get_paginated_response(LeaderboardEntrySerializer(entries, many=True).data)
