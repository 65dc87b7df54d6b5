"""The tables' operations: the lobby of open tables, quick play, and an invitation's table
seen before joining it."""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api import valid
from edge.schema import NOT_FOUND, UNAUTHORIZED, VALIDATION_ERROR, problem_response
from edge.serializers import QueryBooleanField, QueryNumberField, Rendered, RequestBodySerializer
from games.ai import AI_LEVELS
from games.engine import SEATS
from games.http.fields import ChoiceField, ClientSeedField
from games.http.schema import IDEMPOTENCY_KEY, KEY_REUSED
from games.http.shapes import (
    MATCH_WRITE_VIEW,
    OPEN_TABLE,
    MatchWriteViewSerializer,
    OpenTableSerializer,
)
from games.http.views import MatchWrite
from games.tables import commands as tables_commands
from games.tables import queries as tables_queries
from games.tables.filters import TableFilters


class TableList(APIView):
    class InputSerializer(serializers.Serializer):
        """Which open tables fit; each filter may be left out."""

        humans = QueryNumberField(
            min_value=2,
            max_value=SEATS,
            required=False,
            help_text="Tables of exactly this many humans.",
        )
        max_turn_seconds = QueryNumberField(
            min_value=10,
            max_value=86_400,
            required=False,
            help_text="The longest turn clock you accept: tables whose clock is at most this "
            "(a table without a clock does not fit).",
        )
        ai_level = ChoiceField(
            choices=AI_LEVELS, required=False, help_text="Tables whose AI seats play at this level."
        )
        verifiable = QueryBooleanField(
            required=False,
            help_text="Only verifiable tables (true), whose folded hands are shown to all once "
            "each series ends (docs/fairness.md), or only the others (false). Left out: both.",
        )

        bots = QueryBooleanField(
            required=False,
            help_text="Only tables whose owner allowed bots (true, docs/bots.md), or only the "
            "others (false). Left out: both.",
        )

        # The list shows whether each table is verifiable or allows bots: both unless asked.
        verifiable_unless_asked: bool | None = None
        bots_unless_asked: bool | None = None

        def validate(self, data: dict) -> dict:
            filters = TableFilters(
                humans=data.get("humans"),
                max_turn_seconds=data.get("max_turn_seconds"),
                ai_level=data.get("ai_level"),
                verifiable=data.get("verifiable", self.verifiable_unless_asked),
                bots=data.get("bots", self.bots_unless_asked),
            )
            return {"filters": filters}

    @extend_schema_serializer(component_name="Lobby")
    class OutputSerializer(serializers.Serializer):
        tables = OpenTableSerializer(
            many=True, help_text="The open tables that fit, the longest waiting first."
        )

    LOBBY = Rendered(OutputSerializer)

    @extend_schema(
        operation_id="tables_list",
        summary="The open tables waiting for humans, longest waiting first",
        description="Tables their owners created with `open: true` that still have free human "
        "seats: who sits there, the turn clock, the AI level, whether the deals are "
        "`verifiable`, who may watch, and when the AI fills the free seats (`fill_at`). Join "
        "one with POST /matches/{id}/join, no invite needed, or let POST /quick-play choose. "
        f"The {tables_queries.TABLES_LIMIT} longest waiting that fit the filters.",
        parameters=[InputSerializer],
        responses={
            200: OutputSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
        },
    )
    def get(self, request):
        query = valid(self.InputSerializer, request.query_params)
        tables = tables_queries.tables_open(filters=query["filters"])
        return Response(self.LOBBY.render({"tables": tables}))


class QuickPlay(MatchWrite):
    name = "Quick Play List"  # what OPTIONS names it, as before
    extra_rate_scopes = {"POST": ("match_create",)}

    @extend_schema_serializer(component_name="QuickPlay")
    class InputSerializer(RequestBodySerializer, TableList.InputSerializer):
        """What table you would sit at; `{}` takes any that is not verifiable."""

        verifiable = serializers.BooleanField(
            required=False,
            help_text="Sit at a verifiable table, or open one: every folded hand there is shown to "
            "all once each series ends (docs/fairness.md). Default false: a table that is not.",
        )

        bots = serializers.BooleanField(
            required=False,
            help_text="Sit at a table whose owner allowed bots (docs/bots.md), or open one "
            "that allows them. Default false: you meet no bot. A bot's quick play looks only "
            "at tables that allow bots, and opens none.",
        )

        client_seed = ClientSeedField(
            required=False,
            help_text="Your part of the dealing's randomness, at a verifiable table or the one "
            "quick play opens (docs/fairness.md).",
        )

        # Only a verifiable table shows folded hands, only a table allowing bots seats one:
        # nobody sits at either unasked.
        verifiable_unless_asked = False
        bots_unless_asked = False

        def validate(self, data: dict) -> dict:
            return {**super().validate(data), "client_seed": data.get("client_seed", "")}

    @extend_schema(
        operation_id="quick_play",
        summary="Sit at the open table that waited longest, or open one",
        description="Among the open tables that fit the filters and that you do not sit at "
        "already, you take a seat at the one that has waited longest, as a join would (when "
        "you take the last seat, deal 1 starts). When none fits, a table is opened for you "
        "(you at seat 0): `humans` seats (2 if not named), the AI at `ai_level` (default "
        "`hard`), a turn clock of 60 s or your `max_turn_seconds` if shorter, listed in GET "
        "/tables, and filled by the AI after 60 s. A verifiable table, where every folded hand "
        "is shown to all once its series ends (docs/fairness.md), fits only with `verifiable: "
        "true` (and the table opened is one then); a table that allows bots only with `bots: "
        "true`, likewise. Two quick plays that find no table at the "
        "same moment do not both open one: the second sits at the table the first opened. "
        "The answer is your view of the match, with its events.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            409: problem_response(
                "A request with this key is still running, or you are a bot and no open table "
                "that allows bots fits.",
                "idempotency_in_progress",
                "no_table_for_bots",
            ),
            422: KEY_REUSED,
        },
        examples=[
            OpenApiExample("any table", value={}, request_only=True),
            OpenApiExample(
                "four humans, quick turns",
                value={"humans": 4, "max_turn_seconds": 30},
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        return super().post(request)

    def answer(self, data: dict) -> dict:
        return MATCH_WRITE_VIEW.render(
            tables_commands.match_quick_play_answer(player=self.request.user, **data)
        )


class MatchInvitation(APIView):
    name = "Invitation"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="Invitation")
    class InputSerializer(RequestBodySerializer):
        """A table's invite, to see the table before joining it."""

        invite = serializers.CharField(
            max_length=128,
            required=False,
            help_text="The table's invite code, as its owner shared it; not needed at an open "
            "table.",
        )

        def validate(self, data: dict) -> dict:
            return {"invite": "", **data}

    @extend_schema(
        operation_id="matches_invitation",
        summary="See the table an invite is for, without joining it",
        description="With the `invite` its owner shared (in the body: an invite never travels "
        "in a URL), the table as GET /tables shows an open one: its owner, the seats and "
        "which are free, the turn clock, the AI level, whether its deals are `verifiable`, "
        "who may watch, and when the AI fills the free seats. Nothing changes: join it with "
        "POST /matches/{id}/join. Refused as that join would be: a wrong invite is 404, as "
        "for a match that does not exist; a table that has started is 409 `match_full`, one "
        "its owner left 409 `match_abandoned`, and one you sit at 409 `already_seated`.",
        request=InputSerializer,
        responses={
            200: OpenTableSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "The table is no longer yours to join: it has started, its owner left it, or "
                "you sit there already.",
                "match_full",
                "match_abandoned",
                "already_seated",
            ),
        },
    )
    def post(self, request, match_id):
        data = valid(self.InputSerializer, request.data)
        table = tables_queries.table_invitation(match_id=match_id, player=request.user, **data)
        return Response(OPEN_TABLE.render(table))
