from rest_framework import serializers

from edge.serializers import (
    NAME_RULE,
    NameField,
    PointsField,
    RequestBodySerializer,
    UtcDateTimeField,
)


class PlayerCreateSerializer(RequestBodySerializer):
    """A new player."""

    name = NameField(
        max_length=64,
        help_text=f"Your name at the table, 1 to 64 characters, {NAME_RULE}; spaces at the "
        "ends are trimmed.",
    )
    # Not `default=False`: a field with a default is required in generated clients' types.
    bot = serializers.BooleanField(
        required=False,
        help_text="Whether this player is a bot (a program playing, docs/bots.md), for good: "
        "labelled one wherever it sits or ranks, and seated with humans only where they "
        "allowed bots. False by default.",
    )


class PlayerRenameSerializer(RequestBodySerializer):
    """A new name for the player."""

    name = NameField(
        max_length=64,
        help_text=f"Your new name at the table, 1 to 64 characters, {NAME_RULE}; spaces at "
        "the ends are trimmed.",
    )

    # Sent with PATCH, yet never partial: the name is the one field, and a rename without it
    # is refused. drf-spectacular marks a PATCH body's fields optional by setting `partial`.
    @property
    def partial(self) -> bool:
        return False

    @partial.setter
    def partial(self, value: bool) -> None:
        pass


class PlayerCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="A UUID.")
    name = serializers.CharField(help_text="The player's name, as shown at the table.")
    token = serializers.CharField(help_text="Send as 'Authorization: Bearer <token>'. Shown once.")
    bot = serializers.BooleanField(help_text="Whether the player is a bot, for good.")


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


class RatingFiguresSerializer(serializers.Serializer):
    mu = serializers.FloatField(help_text="OpenSkill's mean skill estimate; a new player's is 25.")
    sigma = serializers.FloatField(
        help_text="The uncertainty of mu; a new player's is 25/3, and it shrinks as they play."
    )
    displayed = serializers.FloatField(
        help_text="mu - 3 sigma, the figure shown and ranked by: 0 for a new player."
    )


class RatingChangeSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(help_text="The rated match.")
    series = serializers.IntegerField(help_text="Its series: each finished series is rated.")
    finished_at = UtcDateTimeField(help_text="When it finished (UTC, ISO 8601).")
    place = serializers.IntegerField(
        help_text="1 to 4 by the exact final totals, 1 best; tied seats share a place, and a "
        "seat that resigned or left before the end comes last. For a tournament's match, the "
        "place in its standings among its human entrants (docs/ratings.md)."
    )
    before = RatingFiguresSerializer(help_text="Your rating before the match.")
    after = RatingFiguresSerializer(help_text="Your rating after it.")


class PlayerRatingSerializer(RatingFiguresSerializer):
    matches = serializers.IntegerField(help_text="How many of your matches were rated.")
    provisional = serializers.BooleanField(
        help_text="Whether the rating is still provisional: fewer rated matches than "
        "`leaderboard_from`. Show mu, marked so, until then; displayed after."
    )
    leaderboard_from = serializers.IntegerField(
        help_text="How many rated matches put a player on the leaderboard and end the "
        "provisional rating."
    )
    history = RatingChangeSerializer(
        many=True, help_text="Your latest 50 rated matches, newest first."
    )


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the best displayed rating.")
    name = serializers.CharField(help_text="The player's name, as shown at the table.")
    you = serializers.BooleanField(help_text="Whether this is you.")
    mu = serializers.FloatField(help_text="OpenSkill's mean skill estimate.")
    sigma = serializers.FloatField(help_text="The uncertainty of mu.")
    displayed = serializers.FloatField(help_text="mu - 3 sigma: the order of the board.")
    matches = serializers.IntegerField(help_text="How many of their matches were rated.")


class PlayerProfileSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="A UUID.")
    name = serializers.CharField(help_text="The player's name, as shown at the table.")
    bot = serializers.BooleanField(
        help_text="Whether you are a bot (docs/bots.md): set at registration or by "
        "`POST /api/v1/players/me/bot` before your first match, for good."
    )
    created_at = UtcDateTimeField(help_text="When it was created (UTC, ISO 8601).")
    stats = PlayerStatsSerializer(help_text="Your results over your unseeded matches.")
    rating = PlayerRatingSerializer(
        help_text="Your OpenSkill rating (docs/ratings.md), anchored to the AI levels: the "
        "starting one until your first rated match."
    )
