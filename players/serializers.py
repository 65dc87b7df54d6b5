from rest_framework import serializers

from edge.serializers import PointsField, RequestBodySerializer, UtcDateTimeField


class PlayerCreateSerializer(RequestBodySerializer):
    """A new player."""

    name = serializers.CharField(
        max_length=64,
        trim_whitespace=True,
        help_text="Your name at the table, 1 to 64 characters; spaces at the ends are trimmed.",
    )


class PlayerCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="A UUID.")
    name = serializers.CharField(help_text="The player's name, as shown at the table.")
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'. Shown once.")


class TokenIssuedSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="A new bearer token: send as 'Authorization: Bearer <token>'. Shown once."
    )


class PlayerStatsSerializer(serializers.Serializer):
    matches_played = serializers.IntegerField(help_text="Your unseeded matches, finished or not.")
    matches_finished = serializers.IntegerField(
        help_text="Your unseeded matches whose series is finished."
    )
    matches_won = serializers.IntegerField(
        help_text="Finished with the highest total (ties count)."
    )
    points_total = PointsField(help_text="Your totals summed over your matches, exactly.")


class PlayerProfileSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="A UUID.")
    name = serializers.CharField(help_text="The player's name, as shown at the table.")
    created_at = UtcDateTimeField(help_text="When it was created (UTC, ISO 8601).")
    stats = PlayerStatsSerializer(help_text="Your results over your unseeded matches.")
