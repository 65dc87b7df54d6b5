"""The review operation: every decision of a seat, each legal action's exact value, the points
lost, a class and an accuracy, per deal and per match (docs/review.md, "The review over the
API"). The body is worked out and stored after the write that ends each deal; a read shapes
what is stored."""

import json
from pathlib import Path

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.schema import NOT_FOUND, UNAUTHORIZED, problem_response
from edge.serializers import PointsField
from games.ai import AI_LEVELS
from games.ai.review import BASIS_OF_LEVEL, GRADES, HUMAN
from games.engine import DEAL_NUMBER, RANKS, SEATS, SERIES
from games.http.fields import (
    ACTION_NAMES,
    ACTORS,
    AI_LEVEL_DOC,
    FOLDED_DOC,
    ID_DOC,
    MATCH_STATUSES,
    SEAT_DOC,
    STAKE_DOC,
    ChoiceField,
)
from games.review import queries as review_queries

REVIEW_EXAMPLE = json.loads((Path(__file__).parent / "review_example.json").read_text())
"""One deal's review (seat 0 of `manage.py review_counts`'s match of seed 5 at `normal`, its
deal 2), as docs/review.md shows it: a whole match's would be twelve times as long."""
GRADE_NAMES = tuple(name for name, _ in GRADES)
BASES = (*dict.fromkeys(BASIS_OF_LEVEL.values()), HUMAN)
TABLES = ("hard", "normal", "easy")
ROUNDED_POINTS_DOC = "The same, rounded to 2 decimal places (for display; the string is exact)."
ROUNDED_ACCURACY_DOC = "The same, rounded to 1 decimal place (for display; the string is exact)."
LOST_DOC = (
    "The points lost, exactly: the sum over the classed decisions of the best action's value "
    "minus the chosen one's."
)
ACCURACY_DOC = (
    "The accuracy, 0 to 100 and 100 only for best play: the mean over the classed decisions "
    "of 100 x (1/4) / (1/4 + points lost), exactly; null with no classed decision."
)
COUNTS_DOC = "How many classed decisions fell in each class."


class ReviewCountsSerializer(serializers.Serializer):
    best = serializers.IntegerField(min_value=0, help_text="Decisions that lost nothing.")
    good = serializers.IntegerField(min_value=0, help_text="Lost more than 0, at most 0.05.")
    inaccuracy = serializers.IntegerField(
        min_value=0, help_text="Lost more than 0.05, at most 0.15."
    )
    mistake = serializers.IntegerField(min_value=0, help_text="Lost more than 0.15, at most 0.4.")
    blunder = serializers.IntegerField(min_value=0, help_text="Lost more than 0.4.")


class ReviewValueSerializer(serializers.Serializer):
    action = ChoiceField(choices=ACTION_NAMES, help_text="A legal action at the decision.")
    value = PointsField(
        help_text="The seat's expected score for the deal if it takes this action and then "
        "plays as `hard` would, against the tables of `opponents`, exactly. Before the seat "
        "looked: the mean over the hands it could hold, weighted by their chance given the "
        "betting; `look` is worth the mean of the best action once the hand is known."
    )
    value_rounded = serializers.FloatField(help_text=ROUNDED_POINTS_DOC)
    best = serializers.BooleanField(help_text="Whether no legal action is worth more.")


class ReviewSeatStateSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    stake = serializers.IntegerField(help_text=STAKE_DOC)
    folded = serializers.BooleanField(help_text=FOLDED_DOC)
    looked = serializers.BooleanField(help_text="Whether this seat had looked at its cards.")


class ReviewMoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    action = ChoiceField(choices=ACTION_NAMES, help_text="What the seat did.")
    by = ChoiceField(choices=ACTORS, help_text="Who acted for the seat.")


class ReviewPositionSerializer(serializers.Serializer):
    """The position exactly as the reviewed seat saw it when it decided."""

    hand = serializers.ListField(
        child=serializers.ChoiceField(choices=RANKS),
        allow_null=True,
        help_text="The seat's five cards if it had looked (its player or the clock for them), "
        "else null.",
    )
    pot = serializers.IntegerField(help_text="The pot: every seat's stake so far.")
    high_stake = serializers.IntegerField(
        help_text="The highest stake so far: what a call matches."
    )
    seats = ReviewSeatStateSerializer(many=True, help_text="The four seats, in seat order.")
    moves = ReviewMoveSerializer(
        many=True, help_text="The deal's moves before this decision, in order, looks included."
    )


class ReviewDecisionSerializer(serializers.Serializer):
    action = ChoiceField(choices=ACTION_NAMES, help_text="The action chosen.")
    by = ChoiceField(
        choices=ACTORS,
        help_text="Who chose it: `player` (classed), `clock` (for a present human whose time "
        "ran out: values, no class), `ai` (after the human left: neither values nor class).",
    )
    looked = serializers.BooleanField(
        help_text="Whether the seat knew its hand: before, the values are over the hands it "
        "could hold."
    )
    grade = ChoiceField(
        choices=GRADE_NAMES,
        allow_null=True,
        help_text="The decision's class by the points it lost (docs/review.md); null unless "
        "`by` is `player`.",
    )
    lost = PointsField(
        allow_null=True,
        help_text="The best action's value minus the chosen one's, exactly; null for `ai`.",
    )
    lost_rounded = serializers.FloatField(allow_null=True, help_text=ROUNDED_POINTS_DOC)
    values = ReviewValueSerializer(
        many=True,
        help_text="Every legal action's value, in the order the API lists actions; empty for `ai`.",
    )
    position = ReviewPositionSerializer(
        help_text="The position exactly as the seat saw it when it decided, so that a client "
        "can lay the table out again without another request."
    )


class ReviewOpponentSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    table = ChoiceField(choices=TABLES, help_text="The strategy the values take this seat to play.")
    basis = ChoiceField(
        choices=BASES,
        help_text="What the values are exact against at this seat: `exact` (an AI at `hard`, "
        "which plays that very table), `model` (an AI at `normal`: its stored model), "
        "`model_looks_averaged` (an AI at `easy`: its stored model, looks averaged), "
        "`blueprint` (an AI at `expert`: its blueprint `hard`), `human_as_hard` (another "
        "human, taken to play `hard`).",
    )


class ReviewDealSerializer(serializers.Serializer):
    series = serializers.IntegerField(help_text=SERIES.doc)
    deal_number = serializers.IntegerField(help_text=DEAL_NUMBER.doc)
    dealer = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    opponents = ReviewOpponentSerializer(
        many=True, help_text="The three other seats as the values take them."
    )
    lost = PointsField(help_text=LOST_DOC)
    lost_rounded = serializers.FloatField(help_text=ROUNDED_POINTS_DOC)
    accuracy = PointsField(allow_null=True, help_text=ACCURACY_DOC)
    accuracy_rounded = serializers.FloatField(allow_null=True, help_text=ROUNDED_ACCURACY_DOC)
    counts = ReviewCountsSerializer(help_text=COUNTS_DOC)
    decisions = ReviewDecisionSerializer(
        many=True,
        help_text="Every action of the seat in the deal, in order (none if the deal "
        "ended before its turn).",
    )


class ReviewSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    lost = PointsField(help_text=LOST_DOC)
    lost_rounded = serializers.FloatField(help_text=ROUNDED_POINTS_DOC)
    accuracy = PointsField(
        allow_null=True,
        help_text=ACCURACY_DOC + " Over every classed decision of the deals, not the deals' mean.",
    )
    accuracy_rounded = serializers.FloatField(allow_null=True, help_text=ROUNDED_ACCURACY_DOC)
    counts = ReviewCountsSerializer(help_text=COUNTS_DOC)
    bases = serializers.ListField(
        child=ChoiceField(choices=BASES),
        help_text="Every basis the values of these deals rest on (see `opponents`).",
    )
    deals = ReviewDealSerializer(many=True, help_text="The reviewed deals, in the order played.")


@extend_schema_serializer(component_name="Review")
class ReviewSerializer(serializers.Serializer):
    """A review of a match's decisions: yours always, another seat's only where you may see
    every hand it held."""

    id = serializers.UUIDField(help_text=ID_DOC)
    status = ChoiceField(choices=MATCH_STATUSES, help_text="The match's status when read.")
    ai_level = ChoiceField(choices=AI_LEVELS, help_text=AI_LEVEL_DOC)
    your_seat = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=SEAT_DOC)
    seats = ReviewSeatSerializer(
        many=True,
        help_text="The reviewed seats: yours first, then, in seat order, the other humans' "
        "where you may see every hand they held (a verifiable series once it ended).",
    )

    def to_representation(self, instance) -> dict:
        # The fields above are the schema; the body is stored already shaped (games.review).
        return instance


class MatchReview(APIView):
    name = "Review"  # what OPTIONS names it

    @extend_schema(
        operation_id="matches_review",
        summary="The review of your decisions: each action's exact value, points lost, accuracy",
        description="For every decision of your seat in the deals that ended: each legal "
        "action's exact expected value (playing on as `hard` would, against the AI seats' "
        "strategies; before you looked, over the hands you could hold), the points your "
        "choice lost, its class, and the position as you saw it; per deal and per match, the "
        "points lost and an accuracy from 0 to 100 (docs/review.md). Against the AI, each "
        "deal's review as soon as it is worked out after the deal ends; at a table of several "
        "humans, once the match is over. Another human's decisions only where you may see "
        "every hand they held (a verifiable series once it ended). Reads only what is stored: "
        "while a deal's review is being worked out, 503 `review_pending` with Retry-After.",
        responses={
            200: ReviewSerializer,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "A table of several humans whose match is not over yet.", "review_not_yet"
            ),
            503: problem_response(
                "A deal's review is still being worked out, or the database is unavailable; "
                "retry after Retry-After.",
                "review_pending",
                "database_unavailable",
            ),
        },
        examples=[OpenApiExample("One deal's review", value=REVIEW_EXAMPLE, response_only=True)],
    )
    def get(self, request, match_id):
        return Response(review_queries.review_answer(match_id=match_id, player=request.user))
