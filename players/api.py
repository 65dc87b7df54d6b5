"""The player API: one viewset on the router. Registering is the one public action; every
other one needs a token."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from asnas_api.schema import UNAUTHORIZED, VALIDATION_ERROR
from games.api import RateScopedViewSet, valid
from players import selectors, services
from players.serializers import (
    PlayerCreatedSerializer,
    PlayerCreateRequestSerializer,
    PlayerProfileSerializer,
)


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
        request=PlayerCreateRequestSerializer,
        responses={201: PlayerCreatedSerializer, 400: VALIDATION_ERROR},
        examples=[OpenApiExample("Roya", value={"name": "Roya"}, request_only=True)],
        auth=[],
    )
    def create(self, request):
        data = valid(PlayerCreateRequestSerializer, request.data)
        player, token = services.player_create(name=data["name"])
        return Response(
            PlayerCreatedSerializer({"id": player.id, "name": player.name, "token": token}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        operation_id="players_me",
        summary="Your profile and stats",
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
