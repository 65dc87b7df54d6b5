from drf_spectacular.utils import PolymorphicProxySerializer
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


class StreamTicketCreateSerializer(RequestBodySerializer):
    match_id = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="The match whose stream the ticket opens (one you sit at); leave it out for "
        "your own stream, /players/me/stream.",
    )


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(
        help_text="Pass as `?ticket=` to the stream; good once, until `expires_at`."
    )
    expires_at = serializers.DateTimeField(help_text="When the ticket stops working: in 60 s.")


class YourTurnNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match where your turn began.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="The match's `turn_deadline`: null without a turn clock."
    )


class MatchStartedNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match whose deal 1 (of a series) started.")


class MatchFinishedNoticeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The match that finished.")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats with the highest total."
    )
    totals = serializers.ListField(child=PointsField(), help_text="Each seat's total, exactly.")


def player_notice_field() -> PolymorphicProxySerializer:
    """What one `data:` line of the player's stream holds; its `event:` line names which."""
    return PolymorphicProxySerializer(
        component_name="PlayerNotice",
        serializers=[
            YourTurnNoticeSerializer,
            MatchStartedNoticeSerializer,
            MatchFinishedNoticeSerializer,
        ],
        resource_type_field_name=None,
        many=False,
    )
