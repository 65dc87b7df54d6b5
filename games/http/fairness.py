"""The fairness operation: a commitment to a server seed, drawn before the client seed is
chosen (docs/fairness.md)."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.schema import UNAUTHORIZED
from edge.serializers import Rendered, UtcDateTimeField
from games.fairness import commands as fairness_commands
from games.http.fields import HexField


class CommitmentCreate(APIView):
    name = "Commitment List"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="Commitment")
    class OutputSerializer(serializers.Serializer):
        """A server seed drawn before you choose your client seed: create a match with its `id`
        within 10 minutes (once)."""

        id = serializers.UUIDField(help_text="Pass as `commitment` to POST /matches.")
        commitment = HexField(help_text="SHA-256 of the server seed (lowercase hex).")
        expires_at = UtcDateTimeField(help_text="When it can no longer create a match.")

    COMMITMENT = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="commitments_create",
        summary="Commit to a server seed before you choose your client seed",
        description="The server draws a 32-byte seed and answers its SHA-256 only. Create a "
        "match with `commitment` set to this `id` (within 10 minutes, once) and a "
        "`client_seed` of your choosing: its first series deals from both, and the seed is "
        "revealed when the series ends, so that you can check every deal (docs/fairness.md).",
        request=None,
        responses={201: OutputSerializer, 401: UNAUTHORIZED},
    )
    def post(self, request):
        commitment_id, commitment, expires_at = fairness_commands.commitment_create(
            player=request.user
        )
        body = {"id": commitment_id, "commitment": commitment, "expires_at": expires_at}
        return Response(self.COMMITMENT.render(body), status=status.HTTP_201_CREATED)
