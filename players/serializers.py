from rest_framework import serializers

from edge.serializers import PointsField, RequestBodySerializer


class PlayerCreateSerializer(RequestBodySerializer):
    """A new player."""

    name = serializers.CharField(max_length=64, trim_whitespace=True)


class PlayerCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'. Shown once.")


class TokenIssuedSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="A new bearer token: send as 'Authorization: Bearer <token>'. Shown once."
    )


class PlayerStatsSerializer(serializers.Serializer):
    matches_played = serializers.IntegerField()
    matches_finished = serializers.IntegerField()
    matches_won = serializers.IntegerField(
        help_text="Finished with the highest total (ties count)."
    )
    points_total = PointsField(help_text="Your totals summed over your matches, exactly.")


class PlayerProfileSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    stats = PlayerStatsSerializer()
