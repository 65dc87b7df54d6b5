"""The puzzles operations (docs/puzzles.md): the next puzzle near your puzzle rating, and the
grading of your choice by each action's exact value."""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.schema import UNAUTHORIZED, VALIDATION_ERROR, problem_response
from edge.serializers import PointsField, RequestBodySerializer
from games.engine import RANKS, SEATS
from games.http.fields import ACTION_NAMES, ChoiceField
from games.puzzles import commands as puzzle_commands
from games.puzzles import queries as puzzle_queries
from games.puzzles.positions import THEMES

POSITION_DOC = "A seat told by its place after yours: 0 is you, 1 acts after you, and so on."
RATING_DOC = "A puzzle rating: OpenSkill's mu - 3 sigma (0 at the start), rounded to 2 places."
POSITION_EXAMPLE = {
    "hand": ["As", "As", "Shah", "Bibi", "Couli"],
    "pot": 6,
    "high_stake": 2,
    "dealer": 3,
    "seats": [
        {"position": 0, "stake": 1, "folded": False, "looked": True},
        {"position": 1, "stake": 2, "folded": False, "looked": False},
        {"position": 2, "stake": 2, "folded": False, "looked": True},
        {"position": 3, "stake": 1, "folded": True, "looked": False},
    ],
    "moves": [
        {"position": 0, "action": "look"},
        {"position": 1, "action": "raise"},
        {"position": 2, "action": "call"},
        {"position": 3, "action": "fold"},
    ],
}


class PuzzleSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=POSITION_DOC)
    stake = serializers.IntegerField(help_text="What the seat had staked.")
    folded = serializers.BooleanField(help_text="Whether the seat had folded.")
    looked = serializers.BooleanField(help_text="Whether the seat had looked at its cards.")


class PuzzleMoveSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=SEATS - 1, help_text=POSITION_DOC)
    action = ChoiceField(choices=ACTION_NAMES, help_text="What it did.")


class PuzzlePositionSerializer(serializers.Serializer):
    hand = serializers.ListField(
        child=ChoiceField(choices=RANKS),
        allow_null=True,
        help_text="Your five cards, if you had looked; null before.",
    )
    pot = serializers.IntegerField(help_text="The pot.")
    high_stake = serializers.IntegerField(help_text="The high stake to match.")
    dealer = serializers.IntegerField(help_text="The dealer's place. " + POSITION_DOC)
    seats = PuzzleSeatSerializer(many=True, help_text="The four seats, from yours on.")
    moves = PuzzleMoveSerializer(many=True, help_text="The deal's moves before your decision.")


@extend_schema_serializer(component_name="Puzzle")
class PuzzleSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="The puzzle's id: its own, naming no match.")
    position = PuzzlePositionSerializer(help_text="The position as its seat saw it.")
    actions = serializers.ListField(
        child=ChoiceField(choices=ACTION_NAMES), help_text="The legal actions."
    )
    rating = serializers.FloatField(help_text="The puzzle's rating. " + RATING_DOC)
    your_rating = serializers.FloatField(help_text="Your puzzle rating. " + RATING_DOC)


class PuzzleValueSerializer(serializers.Serializer):
    action = ChoiceField(choices=ACTION_NAMES, help_text="A legal action.")
    value = PointsField(help_text="Its exact value, as the review gives it (docs/review.md).")
    value_rounded = serializers.FloatField(help_text="The same, rounded to 2 places.")
    best = serializers.BooleanField(help_text="Whether it is the best action.")


@extend_schema_serializer(component_name="PuzzleGrade")
class PuzzleGradeSerializer(serializers.Serializer):
    puzzle = serializers.UUIDField(help_text="The puzzle's id.")
    action = ChoiceField(choices=ACTION_NAMES, help_text="Your choice.")
    solved = serializers.BooleanField(help_text="Whether your choice is the best action.")
    best = ChoiceField(choices=ACTION_NAMES, help_text="The best action.")
    lost = PointsField(help_text="The best action's value minus your choice's, exactly.")
    lost_rounded = serializers.FloatField(help_text="The same, rounded to 2 places.")
    values = PuzzleValueSerializer(many=True, help_text="Each legal action's value.")
    themes = serializers.ListField(
        child=ChoiceField(choices=THEMES), help_text="What the position is about."
    )
    rating_before = serializers.FloatField(help_text="Your puzzle rating before. " + RATING_DOC)
    rating = serializers.FloatField(help_text="Your puzzle rating after. " + RATING_DOC)
    puzzle_rating = serializers.FloatField(help_text="The puzzle's after. " + RATING_DOC)


class PuzzleNext(APIView):
    name = "Next puzzle"

    @extend_schema(
        operation_id="puzzles_next",
        summary="A puzzle near your puzzle rating",
        description="The untried puzzle whose rating is nearest yours, never from a match you "
        "played: a decision of a finished match where one action is clearly best, as its seat "
        "saw it, naming nobody (docs/puzzles.md). One read.",
        responses={
            200: PuzzleSerializer,
            401: UNAUTHORIZED,
            404: problem_response("No puzzle is left for you.", "no_puzzle_left"),
        },
        examples=[
            OpenApiExample(
                "A puzzle",
                value={
                    "id": "6c1f0f5e-4d59-4a36-9a51-0c1f7e2b9d40",
                    "position": POSITION_EXAMPLE,
                    "actions": ["call", "raise", "fold"],
                    "rating": 1.5,
                    "your_rating": 0.0,
                },
                response_only=True,
            )
        ],
    )
    def get(self, request):
        return Response(puzzle_queries.puzzle_next(player=request.user))


class PuzzleTry(APIView):
    name = "Try puzzle"

    @extend_schema_serializer(component_name="PuzzleChoice")
    class InputSerializer(RequestBodySerializer):
        """Your choice at the puzzle."""

        action = ChoiceField(choices=ACTION_NAMES, help_text="Your choice: one of `actions`.")

    @extend_schema(
        operation_id="puzzles_try",
        summary="Grade your choice at a puzzle by its value",
        description="Solved if your choice is the best action. Answers each action's exact "
        "value and the themes; your puzzle rating and the puzzle's move as after a game "
        "between you. Each puzzle is tried once.",
        request=InputSerializer,
        responses={
            200: PuzzleGradeSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: problem_response("No such puzzle for you.", "not_found"),
            409: problem_response("You tried this puzzle before.", "puzzle_tried"),
            422: problem_response("Not a legal action here.", "puzzle_action_illegal"),
        },
        examples=[
            OpenApiExample("call", value={"action": "call"}, request_only=True),
            OpenApiExample(
                "Solved",
                value={
                    "puzzle": "6c1f0f5e-4d59-4a36-9a51-0c1f7e2b9d40",
                    "action": "call",
                    "solved": True,
                    "best": "call",
                    "lost": "0",
                    "lost_rounded": 0.0,
                    "values": [
                        {"action": "call", "value": "7/6", "value_rounded": 1.17, "best": True},
                        {"action": "raise", "value": "1/2", "value_rounded": 0.5, "best": False},
                        {"action": "fold", "value": "-1", "value_rounded": -1.0, "best": False},
                    ],
                    "themes": [],
                    "rating_before": 0.0,
                    "rating": 1.21,
                    "puzzle_rating": -0.4,
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request, puzzle_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        answer = puzzle_commands.puzzle_try(
            player=request.user, puzzle_id=puzzle_id, action=data.validated_data["action"]
        )
        return Response(answer)
