from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from asnas_api.schema import UNAUTHORIZED, VALIDATION_ERROR
from players import selectors, services
from players.serializers import (
    PlayerCreatedSerializer,
    PlayerCreateRequestSerializer,
    PlayerProfileSerializer,
)


class PlayerCreateApi(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]
    extra_rate_scopes = {"POST": ("player_create",)}

    @extend_schema(
        operation_id="players_create",
        summary="Register a player and get its bearer token (shown only once)",
        request=PlayerCreateRequestSerializer,
        responses={201: PlayerCreatedSerializer, 400: VALIDATION_ERROR},
        examples=[OpenApiExample("Roya", value={"name": "Roya"}, request_only=True)],
        auth=[],
    )
    def post(self, request):
        serializer = PlayerCreateRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player, token = services.player_create(name=serializer.validated_data["name"])
        return Response(
            PlayerCreatedSerializer({"id": player.id, "name": player.name, "token": token}).data,
            status=status.HTTP_201_CREATED,
        )


class PlayerMeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="players_me",
        summary="Your profile and stats",
        responses={200: PlayerProfileSerializer, 401: UNAUTHORIZED},
    )
    def get(self, request):
        player = request.user
        profile = {
            "id": player.id,
            "name": player.name,
            "created_at": player.created_at,
            "stats": selectors.player_stats(player=player),
        }
        return Response(PlayerProfileSerializer(profile).data)
