"""The coaching operation: the coach's advice for the player's current decision."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.schema import NOT_FOUND, UNAUTHORIZED, problem_response
from edge.serializers import PointsField
from games.ai import AI_LEVELS
from games.coaching import commands as coaching_commands
from games.coaching.commands import GivenHint
from games.engine import DEAL_NUMBER, SERIES
from games.http.fields import ACTION_NAMES, ChoiceField, ProbabilityField


class HintActionSerializer(serializers.Serializer):
    action = ChoiceField(choices=ACTION_NAMES, help_text="One of the actions legal for you now.")
    hard_probability = ProbabilityField(
        help_text="How often the `hard` strategy takes this action here, exactly."
    )
    expected_value = PointsField(
        allow_null=True,
        help_text="Your expected score of this deal if you take this action and then play as "
        "`hard` would, against the AI seats' strategies (for `expert`, its blueprint `hard`), "
        "exactly, as a fraction in lowest terms; null before you have looked.",
    )


def _exact(value) -> str | None:
    """An exact figure as the API writes one: a fraction in lowest terms, or None."""
    return None if value is None else str(value)


class MatchHint(APIView):
    name = "Hint"  # what OPTIONS names it, as before
    extra_rate_scopes = {"GET": ("hint", "hint_address")}

    @extend_schema_serializer(component_name="Hint")
    class OutputSerializer(serializers.Serializer):
        """The coach's advice for your current decision. Before you have looked it says look
        (free) and tells nothing about your cards."""

        version = serializers.IntegerField(
            help_text="The match's version: a hint never changes it."
        )
        series = serializers.IntegerField(help_text=SERIES.doc)
        deal_number = serializers.IntegerField(help_text=DEAL_NUMBER.doc)
        ai_level = ChoiceField(choices=AI_LEVELS, help_text="The AI seats the values are against.")
        values_are_exact = serializers.BooleanField(
            source="advice.values_are_exact",
            help_text="True: each value sums over every deal still possible given the betting so "
            "far, weighted by how likely the AI seats were to bet so; nothing is sampled.",
        )
        actions = HintActionSerializer(
            source="advice.actions",
            many=True,
            help_text="Every legal action, in the order of `legal_actions`.",
        )
        hand_rank = serializers.IntegerField(
            source="advice.hand_rank",
            allow_null=True,
            min_value=1,
            max_value=121,
            help_text="Your hand's rank among the 121 hand classes, 1 the strongest; null before "
            "you have looked.",
        )
        showdown_win = ProbabilityField(
            source="advice.showdown_win",
            allow_null=True,
            help_text="Your exact chance to beat three random hands at a showdown outright.",
        )
        showdown_tie = ProbabilityField(
            source="advice.showdown_tie",
            allow_null=True,
            help_text="Your exact chance to tie for best with them.",
        )

        def to_representation(self, instance) -> dict:
            # The fields above are the schema; the body is built by hand because DRF's field by
            # field walk of every action cost a hint a fifth more server CPU (bench --baseline).
            advice = instance.advice
            return {
                "version": instance.version,
                "series": instance.series,
                "deal_number": instance.deal_number,
                "ai_level": instance.ai_level,
                "values_are_exact": advice.values_are_exact,
                "actions": [
                    {
                        "action": a.action,
                        "hard_probability": str(a.hard_probability),
                        "expected_value": _exact(a.expected_value),
                    }
                    for a in advice.actions
                ],
                "hand_rank": advice.hand_rank,
                "showdown_win": _exact(advice.showdown_win),
                "showdown_tie": _exact(advice.showdown_tie),
            }

    @extend_schema(
        operation_id="matches_hint",
        summary="The coach's advice for your current decision",
        description="For your turn: the `hard` strategy's probability of each legal action, "
        "each action's expected score against the AI seats (exact: summed over every deal "
        "still possible, not sampled), and, once you have looked, your hand's rank and its "
        "exact chance to win a showdown. Before you look it says look and tells nothing of "
        "your cards. A hint is logged for the staff but is not a match event: the match's "
        "`version` does not change. Only where every other seat is an AI seat, and never to "
        "a bot (403 `not_for_bots`). Limited per player (`hint`) "
        "and per address (`hint_address`); a server computes a few at once and answers 503 "
        "`hints_busy` past them, while an answer it has already computed (for any match: "
        "same AI table, betting and hand) costs nothing.",
        responses={
            200: OutputSerializer,
            401: UNAUTHORIZED,
            403: problem_response("You are a bot: bots play without hints.", "not_for_bots"),
            404: NOT_FOUND,
            409: problem_response(
                "It is not your turn, the deal or match is over, or another seat is a human's "
                "or a bot's.",
                "not_your_turn",
                "deal_over",
                "match_finished",
                "hints_not_allowed",
            ),
            503: problem_response(
                "The server computes as many hints as it does at once, or the database is "
                "unavailable; retry after Retry-After.",
                "hints_busy",
                "database_unavailable",
            ),
        },
    )
    def get(self, request, match_id):
        body = coaching_commands.hint_create(match_id=match_id, player=request.user, shaped=_shaped)
        return Response(body)


def _shaped(given: GivenHint) -> dict:
    return MatchHint.OutputSerializer(given).data
