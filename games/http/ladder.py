"""The bot ladder's operations (docs/bots.md): a bot's benchmark against three `hard` seats,
asked for and followed, and the bots' leaderboard by its figure."""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api import valid
from edge.schema import UNAUTHORIZED, VALIDATION_ERROR, problem_response
from edge.serializers import PointsField, Rendered, RequestBodySerializer, UtcDateTimeField
from games.engine import BenchmarkStatus
from games.http.fields import ChoiceField
from games.ladder import commands as ladder_commands
from games.ladder import queries as ladder_queries

EXACT = "exact, as a fraction in a string"
ROUNDED = "The same, rounded to 4 decimal places (for display; the string is exact)."
STATUSES = tuple(BenchmarkStatus)
ONLY_FOR_BOTS = problem_response("You are not a bot: only a bot is benchmarked.", "only_for_bots")


@extend_schema_serializer(component_name="BenchmarkEstimate")
class EstimateSerializer(serializers.Serializer):
    mean = PointsField(help_text=f"The mean per deal, {EXACT}.")
    mean_rounded = serializers.FloatField(help_text=ROUNDED)
    half_width = serializers.CharField(
        allow_null=True,
        help_text="The 95 % interval's half-width (1.96 standard errors), a decimal in a "
        "string rounded up to 4 places (a square root is no fraction); null below two deals.",
    )
    low_rounded = serializers.FloatField(
        allow_null=True, help_text="The interval's lower end, rounded to 4 places."
    )
    high_rounded = serializers.FloatField(
        allow_null=True, help_text="The interval's upper end, rounded to 4 places."
    )


class FiguresSerializer(serializers.Serializer):
    play = EstimateSerializer(
        allow_null=True,
        help_text="The figure: the bot's mean play per deal (docs/bots.md: what its own "
        "decisions added to its expected result against `hard`'s, each valued over the "
        "cards its seat could not see, so their luck is taken out); 0 is `hard`'s own "
        "level, above it better. Null before a match ended.",
    )
    result = EstimateSerializer(
        allow_null=True,
        help_text="Beside it, the bot's plain mean result per deal over the same deals, "
        "with its own interval: how much wider it is is the variance the figure takes out.",
    )
    width_ratio = serializers.FloatField(
        allow_null=True,
        help_text="The play interval's width over the result's, rounded to 3 places.",
    )


EXAMPLE_FIGURES = {
    "play": {
        "mean": "-17/40",
        "mean_rounded": -0.425,
        "half_width": "0.0601",
        "low_rounded": -0.4851,
        "high_rounded": -0.3649,
    },
    "result": {
        "mean": "-119/300",
        "mean_rounded": -0.3967,
        "half_width": "0.0612",
        "low_rounded": -0.4579,
        "high_rounded": -0.3355,
    },
    "width_ratio": 0.982,
}


@extend_schema_serializer(
    component_name="Benchmark",
    examples=[
        OpenApiExample(
            "finished",
            response_only=True,
            value={
                "id": "6b1f0c56-1d5e-4a53-9d7c-2f7a2f4b8e10",
                "status": "finished",
                "deals": 1200,
                "deals_counted": 1200,
                "matches_dealt": 100,
                "current_match": None,
                **EXAMPLE_FIGURES,
                "ranked": True,
                "deals_per_second": 41.3,
                "created_at": "2026-12-06T08:00:00Z",
                "finished_at": "2026-12-06T08:00:29Z",
            },
        )
    ],
)
class BenchmarkSerializer(FiguresSerializer):
    id = serializers.UUIDField(help_text="The benchmark's id.")
    status = ChoiceField(
        choices=STATUSES,
        help_text="; ".join(f"`{word}`: {word.__doc__}" for word in BenchmarkStatus) + ".",
    )
    deals = serializers.IntegerField(help_text="The deals asked for.")
    deals_counted = serializers.IntegerField(
        help_text="The deals in the figure: those of the matches that ended. A match in play "
        "counts once it ends (and reveals its seed): no figure depends on a card you may not "
        "see yet."
    )
    matches_dealt = serializers.IntegerField(help_text="How many of its matches were dealt.")
    current_match = serializers.UUIDField(
        allow_null=True,
        help_text="The match to play now (GET /matches/{id}); when it has ended, the next read "
        "of the benchmark deals the next one. Null once the benchmark is over.",
    )
    ranked = serializers.BooleanField(
        help_text="Whether this figure can stand on the bots' leaderboard: the benchmark "
        "finished and the play interval is narrow enough (`width` there)."
    )
    deals_per_second = serializers.FloatField(
        allow_null=True,
        help_text="Deals counted per second from the request to the finish (or now).",
    )
    created_at = UtcDateTimeField(help_text="When it was asked for.")
    finished_at = UtcDateTimeField(
        allow_null=True, help_text="When it finished, or was abandoned; null while running."
    )


BENCHMARK = Rendered(BenchmarkSerializer)


class BotBenchmark(APIView):
    # /bots/me/benchmark: ask for one (POST) and follow it (GET) share the path.
    name = "Bot Benchmark"

    @extend_schema_serializer(component_name="BenchmarkCreate")
    class InputSerializer(RequestBodySerializer):
        """How many deals: a multiple of 12 from 120 to 12,000."""

        deals = serializers.IntegerField(
            help_text="A multiple of 12 from 120 to 12,000, else 422 `invalid_benchmark_size`."
        )

    @extend_schema(
        operation_id="bots_benchmark_create",
        summary="Benchmark your bot against three hard seats",
        description="The server deals `deals` deals, in matches of 12 against three `hard` AI "
        "seats, one match after another, each from a seed of its own that it reveals as it "
        "ends; they count against no match-creation limit, have a 10 s turn clock, and cannot "
        "be restarted or given up. Play `current_match` as any match, then read the benchmark "
        "for the next. A benchmark still running is abandoned (it is on no board). The figure "
        "is your mean play per deal (docs/bots.md) with its 95 % interval, beside your plain "
        "mean result (docs/bots.md).",
        request=InputSerializer,
        responses={
            201: BenchmarkSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            403: ONLY_FOR_BOTS,
            422: problem_response(
                "The number of deals is not a multiple of 12 from 120 to 12,000.",
                "invalid_benchmark_size",
            ),
        },
        examples=[OpenApiExample("1,200 deals", value={"deals": 1200}, request_only=True)],
    )
    def post(self, request):
        data = valid(self.InputSerializer, request.data)
        body = ladder_commands.benchmark_start_answer(player=request.user, deals=data["deals"])
        return Response(BENCHMARK.render(body), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="bots_benchmark_retrieve",
        summary="Your bot's newest benchmark: its progress and figure",
        description="If its match in play has ended, its deals are added to the figure and "
        "the next match is dealt (`current_match`), or the benchmark finishes.",
        responses={
            200: BenchmarkSerializer,
            401: UNAUTHORIZED,
            403: ONLY_FOR_BOTS,
            404: problem_response("You have not asked for a benchmark yet.", "not_found"),
            503: problem_response(
                "The match that ended is counted once this server's AI tables are ready, or "
                "the database is unavailable; retry after Retry-After.",
                "benchmark_pending",
                "database_unavailable",
            ),
        },
    )
    def get(self, request):
        body = ladder_commands.benchmark_read_answer(player=request.user)
        return Response(BENCHMARK.render(body))


class BotLeaderboard(APIView):
    name = "Bot Leaderboard"

    @extend_schema_serializer(component_name="BotLeaderboard")
    class OutputSerializer(serializers.Serializer):
        class BotStandingSerializer(FiguresSerializer):
            rank = serializers.IntegerField(min_value=1, help_text="1 for the best mean play.")
            name = serializers.CharField(help_text="The bot's name.")
            deals = serializers.IntegerField(help_text="The deals of its figure.")
            finished_at = UtcDateTimeField(help_text="When that benchmark finished.")

        width = serializers.CharField(
            help_text="The widest play interval (its whole width, points a deal) a bot's "
            "figure may have to stand here."
        )
        bots = BotStandingSerializer(
            many=True,
            help_text="The best 100 bots by the mean play of their latest finished benchmark.",
        )

    BOARD = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="bots_leaderboard",
        summary="The bots' leaderboard: by mean play against hard, luck removed",
        description="Each bot's latest finished benchmark, best mean play first, if its "
        "play interval is at most `width` wide; apart from the humans' leaderboard, which "
        "no bot is on. Any player may read it.",
        responses={200: OutputSerializer, 401: UNAUTHORIZED},
        examples=[
            OpenApiExample(
                "one bot",
                response_only=True,
                value={
                    "width": "0.2",
                    "bots": [
                        {
                            "rank": 1,
                            "name": "Shirbot",
                            "deals": 1200,
                            **EXAMPLE_FIGURES,
                            "finished_at": "2026-12-06T08:00:29Z",
                        }
                    ],
                },
            )
        ],
    )
    def get(self, request):
        return Response(self.BOARD.render(ladder_queries.bot_leaderboard()))
