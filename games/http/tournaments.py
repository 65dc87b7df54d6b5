"""The tournaments' operations (docs/tournaments.md): create one, list them, see one, enter
it, and its standings once it closed."""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api import valid
from edge.schema import NOT_FOUND, UNAUTHORIZED, VALIDATION_ERROR, problem_response
from edge.serializers import (
    NAME_RULE,
    NameField,
    PointsField,
    Rendered,
    RequestBodySerializer,
    UtcDateTimeField,
)
from games.engine import TournamentPhase
from games.http.fields import ChoiceField, HexField
from games.http.schema import IDEMPOTENCY_KEY, KEY_REUSED
from games.http.shapes import (
    MATCH_WRITE_VIEW,
    MatchWriteViewSerializer,
    SkillSerializer,
    match_event_field,
)
from games.http.views import MatchWrite
from games.tournaments import commands as tournaments_commands
from games.tournaments import queries as tournaments_queries

PHASES = tuple(TournamentPhase)
EXACT = "exact, as a fraction in a string"


class TournamentTermsSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="The tournament's id.")
    name = serializers.CharField(help_text="The tournament's name.")
    creator = serializers.CharField(help_text="The name of the player who created it.")
    ai_level = ChoiceField(
        choices=tournaments_commands.TOURNAMENT_LEVELS, help_text="The three AI seats' level."
    )
    entry_opens_at = UtcDateTimeField(help_text="When entries open.")
    entry_closes_at = UtcDateTimeField(help_text="When entries close.")
    deadline = UtcDateTimeField(
        help_text="The play deadline: the tournament closes then, every match still in play "
        "stops, and the seed is revealed."
    )
    cap = serializers.IntegerField(allow_null=True, help_text="The most entrants; null: no cap.")
    turn_seconds = serializers.IntegerField(help_text="Each match's turn clock, in seconds.")
    pools = serializers.IntegerField(
        help_text="How many deal pools: each entrant is dealt one, drawn at entry, and scored "
        "within it (docs/tournaments.md)."
    )
    bots = serializers.BooleanField(
        help_text="Whether the organizer allowed bots (docs/bots.md) to enter."
    )
    phase = ChoiceField(
        choices=PHASES,
        help_text="Where the tournament stands: "
        + "; ".join(f"`{phase}`, {phase.__doc__}" for phase in TournamentPhase)
        + ".",
    )
    commitment = HexField(
        help_text="SHA-256 of the seed every entrant's match is dealt from, public from the "
        "tournament's creation (docs/tournaments.md)."
    )
    server_seed = HexField(
        allow_null=True, help_text="The seed (hex), once the tournament closed; null before."
    )
    closed_at = UtcDateTimeField(allow_null=True, help_text="When it closed; null before.")
    entrants = serializers.IntegerField(help_text="How many have entered.")


@extend_schema_serializer(component_name="TournamentEntry")
class EntrySerializer(serializers.Serializer):
    class TournamentEntryDealSerializer(serializers.Serializer):
        deal_number = serializers.IntegerField(min_value=1, max_value=12, help_text="1 to 12.")
        result = PointsField(help_text=f"Your points on the deal, {EXACT}.")

    match = serializers.UUIDField(help_text="Your match in the tournament (GET /matches/{id}).")
    deals = TournamentEntryDealSerializer(
        many=True, help_text="Your result on each deal ended so far."
    )
    total = PointsField(help_text=f"Your points so far, {EXACT}.")


@extend_schema_serializer(component_name="Tournament")
class TournamentSerializer(TournamentTermsSerializer):
    your_entry = EntrySerializer(
        allow_null=True,
        help_text="Your own match and results; null if you have not entered. Nobody sees "
        "another entrant's before the close.",
    )


TOURNAMENT = Rendered(TournamentSerializer)
EXAMPLE_TERMS = {
    "name": "Sunday duplicate",
    "ai_level": "hard",
    "entry_opens_at": "2026-12-06T18:00:00Z",
    "entry_closes_at": "2026-12-06T20:00:00Z",
    "deadline": "2026-12-06T22:00:00Z",
    "cap": 64,
}


class Tournaments(APIView):
    # /tournaments: the list (GET) and the create (POST) share the path, so one view routes
    # both, each with its own serializers.
    name = "Tournament List"
    extra_rate_scopes = {"POST": ("match_create",)}

    @extend_schema_serializer(component_name="TournamentCreate")
    class InputSerializer(RequestBodySerializer):
        """A new tournament: its name, the AI level, the entry window and the deadline."""

        name = NameField(max_length=80, help_text=f"1 to 80 characters, {NAME_RULE}.")
        ai_level = serializers.CharField(
            max_length=16,
            help_text="easy, normal or hard; expert is refused (422 tournament_level_refused): "
            "it adapts to earlier deals, so entrants who play alike would not meet alike play.",
        )
        entry_opens_at = UtcDateTimeField(help_text="When entries open (RFC 3339).")
        entry_closes_at = UtcDateTimeField(help_text="When entries close: after they open.")
        deadline = UtcDateTimeField(help_text="The play deadline: after entries close.")
        cap = serializers.IntegerField(
            min_value=1, max_value=100_000, required=False, help_text="The most entrants."
        )
        turn_seconds = serializers.IntegerField(
            min_value=10,
            max_value=3600,
            required=False,
            help_text="Each match's turn clock; 60 if left out.",
        )
        pools = serializers.IntegerField(
            min_value=1,
            max_value=16,
            required=False,
            help_text="Deal pools, 1 if left out: each entrant is dealt one at random and "
            "scored within it, so that an entrant told the deals by a friend who finished holds "
            "them only as likely as 1 in `pools` (docs/tournaments.md).",
        )
        bots = serializers.BooleanField(
            required=False,
            help_text="Whether bots (docs/bots.md) may enter; false if left out. Shown to all "
            "in the terms; a bot's entry where it is false is 409 `bots_not_allowed`.",
        )

    @extend_schema_serializer(component_name="TournamentListAnswer")
    class OutputSerializer(serializers.Serializer):
        tournaments = TournamentTermsSerializer(many=True, help_text="The newest 50, newest first.")

    LIST = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="tournaments_list",
        summary="The newest tournaments",
        description="Each tournament's terms, phase, commitment and number of entrants; its "
        "seed once it closed.",
        responses={200: OutputSerializer, 401: UNAUTHORIZED},
    )
    def get(self, request):
        body = {"tournaments": tournaments_queries.tournament_list()}
        return Response(self.LIST.render(body))

    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a duplicate tournament",
        description="Every entrant will play one 12-deal match, from the same seat, against "
        "three AI seats at `ai_level`, on the same deals. The seed those deals come from is "
        "drawn now: its SHA-256 (`commitment`) is in this answer, and the seed is revealed at "
        "the close (`deadline`), when every match can be checked (docs/tournaments.md).",
        request=InputSerializer,
        responses={
            201: TournamentSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            422: problem_response(
                "The terms do not hold together, or the AI level is refused.",
                "tournament_level_refused",
                "invalid_entry_window",
                "invalid_deadline",
            ),
        },
        examples=[OpenApiExample("an evening", value=EXAMPLE_TERMS, request_only=True)],
    )
    def post(self, request):
        data = valid(self.InputSerializer, request.data)
        body = tournaments_commands.tournament_create_answer(creator=request.user, **data)
        return Response(TOURNAMENT.render(body), status=status.HTTP_201_CREATED)


class TournamentRetrieve(APIView):
    name = "Tournament Instance"

    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="A tournament as you may see it",
        description="Its terms, phase, commitment and number of entrants, and your own "
        "entry: your match and your results. Nothing of any other entrant before the close.",
        responses={200: TournamentSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request, tournament_id):
        body = tournaments_commands.tournament_read_answer(
            tournament_id=tournament_id, viewer=request.user
        )
        return Response(TOURNAMENT.render(body))


class TournamentEnter(MatchWrite):
    name = "Tournament Entry"
    status_code = status.HTTP_201_CREATED
    extra_rate_scopes = {"POST": ("match_create",)}

    @extend_schema_serializer(component_name="TournamentEnter")
    class InputSerializer(RequestBodySerializer):
        """Entering takes no options: `{}`."""

    @extend_schema(
        operation_id="tournaments_enter",
        summary="Enter a tournament: your match starts at once",
        description="Once per player, within the entry window and while the cap allows. Your "
        "match is played as any (seat 0, three AI seats), with the tournament's turn clock, "
        "no hints, no spectators and no restart; its seed is revealed at the close. A bot "
        "enters only where the organizer allowed bots (`bots`). The "
        "answer is your view of the match, with its events.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "The tournament takes no entry from you now.",
                "entry_not_open",
                "entry_closed",
                "tournament_full",
                "already_entered",
                "bots_not_allowed",
                "idempotency_in_progress",
            ),
            422: KEY_REUSED,
        },
        examples=[OpenApiExample("enter", value={}, request_only=True)],
    )
    def post(self, request, tournament_id):
        return super().post(request, tournament_id=tournament_id)

    def answer(self, data: dict, tournament_id) -> dict:
        return MATCH_WRITE_VIEW.render(
            tournaments_commands.tournament_enter(
                tournament_id=tournament_id, player=self.request.user
            )
        )


class TournamentStandings(APIView):
    name = "Tournament Standings"

    @extend_schema_serializer(component_name="TournamentStandings")
    class OutputSerializer(serializers.Serializer):
        class TournamentStandingSerializer(serializers.Serializer):
            class TournamentDealScoreSerializer(serializers.Serializer):
                deal_number = serializers.IntegerField(
                    min_value=1, max_value=12, help_text="1 to 12."
                )
                result = PointsField(
                    help_text=f"The entrant's points, or the field's lowest if not played; {EXACT}."
                )
                played = serializers.BooleanField(help_text="Ended before the deadline.")
                matchpoints = PointsField(
                    help_text=f"1 for each entrant who scored less, 1/2 for each tie; {EXACT}."
                )
                versus_mean = PointsField(help_text=f"The result less the field's mean; {EXACT}.")

            rank = serializers.IntegerField(
                min_value=1,
                help_text="1 for the best, by percentage over every pool; equal percentages "
                "share a place.",
            )
            name = serializers.CharField(help_text="The entrant's name.")
            bot = serializers.BooleanField(help_text="Whether the entrant is a bot.")
            match = serializers.UUIDField(help_text="The entrant's match.")
            pool = serializers.IntegerField(
                min_value=0, help_text="The deal pool the entrant was dealt and scored within."
            )
            matchpoints = PointsField(help_text=f"Total matchpoints within the pool, {EXACT}.")
            percentage = PointsField(
                help_text=f"The matchpoints as a percentage of the maximum, {EXACT}."
            )
            versus_mean = PointsField(
                help_text=f"The sum of each deal's result less the field's mean, {EXACT}."
            )
            total = PointsField(help_text=f"The raw total of the entrant's results, {EXACT}.")
            skill = SkillSerializer(
                allow_null=True,
                help_text="The entrant's sums of cards, play and table (docs/skill.md).",
            )
            deals = TournamentDealScoreSerializer(
                many=True, help_text="Each of the 12 deals' scores."
            )

        tournament = serializers.UUIDField(help_text="The tournament's id.")
        entrants = serializers.IntegerField(help_text="How many entered.")
        standings = TournamentStandingSerializer(many=True, help_text="Best first.")

    STANDINGS = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="tournaments_standings",
        summary="The standings, once the tournament closed",
        description="Matchpoints deal by deal as in duplicate bridge: on each deal, 1 for "
        "each entrant who scored less and 1/2 for each tie; a deal not played by the deadline "
        "scores as the field's lowest result on it. Before the close: 409.",
        responses={
            200: OutputSerializer,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response("The tournament has not closed yet.", "tournament_not_closed"),
        },
    )
    def get(self, request, tournament_id):
        body = tournaments_commands.tournament_standings_answer(tournament_id=tournament_id)
        return Response(self.STANDINGS.render(body))


class TournamentMatches(APIView):
    name = "Tournament Matches"

    @extend_schema_serializer(component_name="TournamentMatches")
    class OutputSerializer(serializers.Serializer):
        class TournamentPublicMatchSerializer(serializers.Serializer):
            match = serializers.UUIDField(help_text="The entrant's match.")
            name = serializers.CharField(help_text="The entrant's name.")
            pool = serializers.IntegerField(
                min_value=0,
                help_text="Its deal pool: its seed is HMAC-SHA256 of `pool:<pool>` keyed with "
                "the tournament's seed.",
            )
            events = serializers.ListField(
                child=match_event_field(),
                help_text="Every event of the match as someone at none of its seats sees it, "
                "its seed_revealed included.",
            )

        tournament = serializers.UUIDField(help_text="The tournament's id.")
        commitment = HexField(help_text="The commitment published at the tournament's creation.")
        server_seed = HexField(
            help_text="The tournament's seed (hex), which every pool's seed derives from."
        )
        matches = TournamentPublicMatchSerializer(
            many=True, help_text="Each entrant's match, in entry order."
        )

    MATCHES = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="tournaments_matches",
        summary="Every entrant's match, once the tournament closed",
        description="The public record of every match of the tournament, for anyone to check "
        "(examples/verify_tournament.py): the commitment against the seed, each deal's dealer "
        "and hands against the seed, the same deals for all, and the same AI action wherever "
        "two matches share the public history before it. It also shows how the field played "
        "each deal. Before the close: 409.",
        responses={
            200: OutputSerializer,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response("The tournament has not closed yet.", "tournament_not_closed"),
        },
    )
    def get(self, request, tournament_id):
        body = tournaments_commands.tournament_matches_answer(tournament_id=tournament_id)
        return Response(self.MATCHES.render(body))
