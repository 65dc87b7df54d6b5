"""GET /api/v1/: where a newcomer lands first, so it points at everything else."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView


class ApiIndexSerializer(serializers.Serializer):
    players = serializers.CharField(help_text="POST here to register and get a token.")
    me = serializers.CharField(help_text="Your profile and stats, and your tokens under it.")
    matches = serializers.CharField(help_text="Your matches: list them, or POST to create one.")
    leaderboard = serializers.CharField(
        help_text="The players with 5 rated matches or more, by displayed rating."
    )
    docs = serializers.CharField(help_text="This API's reference, Swagger UI.")
    redoc = serializers.CharField(help_text="The same reference in Redoc.")
    schema = serializers.CharField(help_text="The OpenAPI 3 schema.")


class ApiIndex(APIView):
    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="api_index",
        summary="The API's resources and where its docs are",
        description="Paths of the top-level resources and of the documentation; no token needed.",
        responses={200: ApiIndexSerializer},
        auth=[],
    )
    def get(self, request):
        index = {
            "players": reverse("player-list"),
            "me": reverse("player-me"),
            "matches": reverse("match-list"),
            "leaderboard": reverse("leaderboard-list"),
            "docs": reverse("swagger-ui"),
            "redoc": reverse("redoc"),
            "schema": reverse("schema"),
        }
        return Response(ApiIndexSerializer(index).data)
