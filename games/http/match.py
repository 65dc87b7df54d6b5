"""The match's operations: create, list and read a match, its moves (act, next deal,
restart, resign, leave), joining a table, its events and its record. One view per
operation, with its input and output shapes and its schema prose beside it."""

from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from edge.api import DescribedPagination, valid
from edge.schema import NOT_FOUND, UNAUTHORIZED, VALIDATION_ERROR, problem_response
from edge.serializers import RequestBodySerializer
from games.ai import AI_LEVELS, DEFAULT_AI_LEVEL
from games.engine import SEATS, SpectatorMode
from games.engine.record import FORMAT as RECORD_FORMAT
from games.http import stream_reads
from games.http.fields import (
    ACTION_NAMES,
    FILL_AFTER_DOC,
    MATCH_STATUSES,
    MAX_FILL_AFTER,
    MAX_SEED,
    MIN_FILL_AFTER,
    MIN_TURN_SECONDS,
    SPECTATOR_MODES,
    SPECTATORS_DOC,
    ChoiceField,
    ClientSeedField,
)
from games.http.schema import (
    AFTER_REFUSED,
    IDEMPOTENCY_KEY,
    KEY_REUSED,
    move_responses,
)
from games.http.shapes import (
    MATCH_VIEW,
    MATCH_WRITE_VIEW,
    EventsQuerySerializer,
    MatchEventsSerializer,
    MatchSummarySerializer,
    MatchViewSerializer,
    MatchWriteViewSerializer,
    VersionSerializer,
)
from games.http.views import MatchWrite, found_match
from games.match import commands as match_commands
from games.match import queries as match_queries
from players.auth import credential_hash


class MatchPagination(DescribedPagination):
    counted = "How many matches there are in all."
    listed = "This page's matches, newest first."


class MatchList(GenericAPIView):
    # Named here, drf-spectacular documents the page envelope and its query parameters.
    pagination_class = MatchPagination

    @extend_schema_serializer(component_name="MatchListQuery")
    class InputSerializer(serializers.Serializer):
        status = ChoiceField(
            choices=MATCH_STATUSES, required=False, help_text="Only the matches with this status."
        )

    @extend_schema(
        operation_id="matches_list",
        summary="List your matches, newest first",
        description="Pages of 20 (`page_size` up to 100); `status` keeps only the matches in "
        "that state, e.g. `in_deal` or `deal_over` for the ones still to play. Each names its "
        "seats and yours, and once finished your place.",
        parameters=[InputSerializer],
        responses={
            200: MatchSummarySerializer(many=True),
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: problem_response(
                "The page number is not a page of the list.", ("not_found", "Invalid page.")
            ),
        },
    )
    def get(self, request):
        query = valid(MatchList.InputSerializer, request.query_params)
        matches = match_queries.match_list(player=request.user, status=query.get("status"))
        page = match_queries.match_summaries(
            rows=self.paginate_queryset(matches), player=request.user
        )
        return self.get_paginated_response(MatchSummarySerializer(page, many=True).data)


class MatchCreate(MatchWrite):
    extra_rate_scopes = {"POST": ("match_create",)}
    status_code = status.HTTP_201_CREATED

    @extend_schema_serializer(component_name="MatchCreate")
    class InputSerializer(RequestBodySerializer):
        """A new match: every field may be left out."""

        ai_level = ChoiceField(
            choices=AI_LEVELS,
            default=DEFAULT_AI_LEVEL,
            help_text="How well the AI seats play; restart may change it later.",
        )
        seed = serializers.IntegerField(
            min_value=0,
            max_value=MAX_SEED,
            required=False,
            help_text="Fixes every deal (tests and development only; refused in production).",
        )

        # Not `default=1`: a field with a default is required in generated clients' types,
        # which would break every client that creates a match without it.
        humans = serializers.IntegerField(
            min_value=1,
            max_value=SEATS,
            required=False,
            help_text="How many humans play (default 1): you at seat 0, the others at seats 1 to "
            "humans - 1 in the order they join with the `invite`. Above 1, the match waits "
            "(`waiting`) until the last one joins.",
        )
        turn_seconds = serializers.IntegerField(
            min_value=MIN_TURN_SECONDS,
            max_value=86_400,
            allow_null=True,
            required=False,
            help_text="Seconds per turn, or null for no clock. Default: null alone, 60 at a table. "
            "When a present human's time runs out, the server acts for them at the AI level "
            "(docs/turn-clock.md). A bot's match alone always has a 10 s clock (docs/bots.md): "
            "any other value is 403 `not_for_bots`.",
        )

        commitment = serializers.UUIDField(
            required=False,
            help_text="The id of a commitment you drew with POST /commitments: the first series "
            "deals from its server seed, committed to before you chose your `client_seed`. "
            "Without it, the server draws a seed now (still committed to in the answer).",
        )
        client_seed = ClientSeedField(required=False)
        verifiable = serializers.BooleanField(
            required=False,
            help_text="Whether each series' server seed is revealed when it ends, so that anyone "
            "can deal every deal again, folded hands included (docs/fairness.md). Default: true "
            "alone, false at a table; joiners see it before they join.",
        )
        spectators = ChoiceField(
            choices=SPECTATOR_MODES,
            required=False,
            help_text=SPECTATORS_DOC + " Default `off`; unless off, your answer carries the "
            "`watch_code`, once.",
        )

        open = serializers.BooleanField(
            required=False,
            help_text="A table (`humans` above 1) listed in GET /tables while it waits: anyone "
            "may join it without the invite. Default false.",
        )
        bots = serializers.BooleanField(
            required=False,
            help_text="A table (`humans` above 1) that bots (docs/bots.md) may join: shown to "
            "everyone before they join, and only such a table seats a bot beside a human. "
            "Default false.",
        )
        fill_after = serializers.IntegerField(
            min_value=MIN_FILL_AFTER,
            max_value=MAX_FILL_AFTER,
            required=False,
            help_text=FILL_AFTER_DOC,
        )

        def validate_seed(self, seed: int) -> int:
            if not settings.ASNAS_ALLOW_CLIENT_SEED:
                raise serializers.ValidationError(
                    "Choosing a seed is not allowed on this server.", code="seed_not_allowed"
                )
            return seed

        def validate(self, data: dict) -> dict:
            if "seed" in data and "commitment" in data:
                raise serializers.ValidationError(
                    {"commitment": "A seeded match deals from its seed; leave the commitment out."},
                    code="invalid",
                )
            # The defaults here, not in the fields: a field with a default is required in
            # generated clients' types. The turn clock's depends on how many humans play.
            humans = data.setdefault("humans", 1)
            data.setdefault("turn_seconds", match_commands.default_turn_seconds(humans))
            data.setdefault("spectators", SpectatorMode.OFF.value)
            data.setdefault("client_seed", "")
            data.setdefault("open", False)
            data.setdefault("bots", False)
            for optional in ("seed", "commitment", "verifiable", "fill_after"):
                data.setdefault(optional, None)
            return data

    @extend_schema(
        operation_id="matches_create",
        summary="Create a match: you at seat 0, with AI seats or a table for friends",
        description="Alone (`humans` 1, the default) deal 1 starts at once, and the AI seats "
        "that act before you have acted. With `humans` above 1 the match is `waiting`: your "
        "view carries an `invite` for the others to `join` with, and deal 1 starts when the "
        "last human seat is taken. The deals are verifiable (docs/fairness.md): give the `id` "
        "of a commitment you drew and your `client_seed`, or let the server draw the seed.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            403: problem_response(
                "A bot asked for a table for humans (`humans` above 1), or for a turn clock "
                "other than a bot's 10 s.",
                "not_for_bots",
            ),
            404: problem_response("No commitment of yours has this id.", "commitment_not_found"),
            409: problem_response(
                "A request with this key is still running, or the commitment was used or expired.",
                "idempotency_in_progress",
                "commitment_used",
                "commitment_expired",
            ),
            422: problem_response(
                "`open`, `fill_after` or `bots` alone (only a table waits for others), a "
                "commitment for "
                "a match that is not verifiable, or the key was used with another request.",
                "not_a_table",
                "commitment_not_verifiable",
                "idempotency_key_reused",
            ),
        },
        examples=[
            OpenApiExample("hard AI", value={"ai_level": "hard"}, request_only=True),
            OpenApiExample(
                "a table for three",
                value={"humans": 3, "turn_seconds": 120},
                request_only=True,
            ),
            OpenApiExample(
                "an open table the AI fills after two minutes",
                value={"humans": 4, "open": True, "fill_after": 120},
                request_only=True,
            ),
        ],
    )
    def post(self, request):
        return super().post(request)

    def answer(self, data: dict) -> dict:
        return MATCH_WRITE_VIEW.render(
            match_commands.match_create_answer(owner=self.request.user, **data)
        )


class Matches(MatchCreate, MatchList):
    # /matches: the list (GET) and the create (POST) share the path, so one view routes both.
    name = "Match List"  # what OPTIONS names it, as before


class MatchRetrieve(APIView):
    name = "Match Instance"  # what OPTIONS names it, as before

    @extend_schema(
        operation_id="matches_retrieve",
        summary="The match as you may see it",
        description="Only what your seat may see: your cards once you have looked (or the deal is "
        "over), other seats' hands only in a showdown's result, never a folded hand. No "
        "`events` here: only a write's answer carries them.",
        responses={200: MatchViewSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request, match_id):
        match = found_match(match_id=match_id, player=request.user)
        return Response(MATCH_VIEW.render(match_queries.match_view(match=match)))


class MatchMove(MatchWrite):
    # A move at a match the player sits at, one of match_commands.MOVES: its body is the
    # move's options (and the version the player saw).
    move: match_commands.Move

    def answer(self, data: dict, match_id) -> dict:
        answer = match_commands.match_move_answer(
            move=self.move, match_id=match_id, player=self.request.user, **data
        )
        return MATCH_WRITE_VIEW.render(answer)


class MatchAct(MatchMove):
    name = "Act"  # what OPTIONS names it, as before
    move = "act"

    @extend_schema_serializer(component_name="Action")
    class InputSerializer(VersionSerializer):
        """Your action, one of `legal_actions`."""

        action = ChoiceField(choices=ACTION_NAMES, help_text="One of the view's `legal_actions`.")

    @extend_schema(
        operation_id="matches_act",
        summary="Act at your seat; the AI seats then act until your next turn",
        description="`action` is one of `legal_actions`. A look shows your cards and keeps "
        "your turn; any other action ends it, and the AI seats play on until it is your turn "
        "again or the deal is over. The answer's `events` are your action and every AI reply.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The match is not in a state for this action.",
            "not_your_turn",
            "deal_over",
            "match_finished",
            "match_not_started",
            "not_seated",
            unprocessable=("illegal_action", "already_looked"),
        ),
        examples=[
            OpenApiExample("look", value={"action": "look"}, request_only=True),
            OpenApiExample(
                "raise", value={"action": "raise", "expected_version": 7}, request_only=True
            ),
        ],
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)


class MatchNextDeal(MatchMove):
    name = "Next deal"  # what OPTIONS names it, as before
    move = "next_deal"
    InputSerializer = VersionSerializer

    @extend_schema(
        operation_id="matches_next_deal",
        summary="Start the next deal once the current one is over",
        description="Allowed when `status` is `deal_over`. The deal passes to the next "
        "dealer, and the AI seats that act before you have acted in the answer's `events`.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The current deal is still on, or the match is finished.",
            "deal_in_progress",
            "match_finished",
            "match_not_started",
            "not_seated",
        ),
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)


class MatchRestart(MatchMove):
    name = "Restart"  # what OPTIONS names it, as before
    move = "restart"

    @extend_schema_serializer(component_name="Restart")
    class InputSerializer(VersionSerializer):
        """A new series, at the same AI level unless you name another."""

        ai_level = ChoiceField(
            choices=AI_LEVELS,
            required=False,
            help_text="The AI seats' level from the new series on; unchanged if left out.",
        )
        client_seed = ClientSeedField(
            required=False,
            help_text="Your client seed for the new series, mixed with the server seed that "
            "`fairness.next_commitment` committed to (docs/fairness.md).",
        )

        def validate(self, data: dict) -> dict:
            data = super().validate(data)
            data.setdefault("ai_level", None)  # the same level as before
            data.setdefault("client_seed", "")
            return data

    @extend_schema(
        operation_id="matches_restart",
        summary="Start a new 12-deal series with every total at zero",
        description="Alone, allowed at any time; an unfinished deal is abandoned and counts "
        "for nobody. At a shared table only the owner may restart, once the match is finished "
        "(and nobody once the owner left): it would erase the others' game. The match's "
        "history stays in its events.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The version is stale, a shared table may not be restarted now, or the match is "
            "a tournament's or a bot benchmark's, one series.",
            "restart_not_allowed",
        ),
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)


class MatchResign(MatchMove):
    name = "Resign"  # what OPTIONS names it, as before
    move = "resign"
    InputSerializer = VersionSerializer

    @extend_schema(
        operation_id="matches_resign",
        summary="Give the match up: it ends at once",
        description="The match is finished at once with the totals as they stand; a deal in "
        "progress is abandoned and counts for nobody. The answer's events are `resigned` and "
        "`match_finished`, whose winners are the leaders among the AI seats: you are never "
        "among them. `restart` starts a new series afterwards, as after any finished match. At "
        "a shared table, resigning is leaving (see `leave`).",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "The match is already finished or abandoned, the version is stale, or it is a "
            "bot benchmark's match, played to its last deal.",
            "match_finished",
            "not_seated",
            "match_abandoned",
            "give_up_not_allowed",
        ),
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)


class MatchLeave(MatchMove):
    name = "Leave"  # what OPTIONS names it, as before
    move = "leave"
    InputSerializer = VersionSerializer

    @extend_schema(
        operation_id="matches_leave",
        summary="Leave the match: before deal 1 your seat is freed, after it the AI plays it",
        description="At a table still `waiting`, a guest's leave records `seat_freed`: the "
        "seat is open again for anyone's join, yours too, and you no longer sit there (the "
        "match is then 404 to you); the owner's leave closes the table (`player_left` with "
        "`abandoned`), and nobody can join it. Once deal 1 has started, it records "
        "`player_left`: the AI plays your seat, and you can still read the match but no "
        "longer act. When the last human leaves an unfinished match, it ends `abandoned`: "
        "nobody plays it any more and it has no winners. A finished match is 409 "
        "`match_finished` and records nothing.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses=move_responses(
            "You left already, the match is finished or abandoned, the version is stale, or "
            "it is a bot benchmark's match, played to its last deal.",
            "not_seated",
            "match_finished",
            "match_abandoned",
            "give_up_not_allowed",
        ),
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)


class MatchJoin(MatchWrite):
    name = "Join"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="Join")
    class InputSerializer(RequestBodySerializer):
        """A table's invite, to take its next open seat; an open table needs none."""

        invite = serializers.CharField(
            max_length=128,
            required=False,
            help_text="The table's invite code, as its owner's MatchView shows it; not needed "
            "at an open table (GET /tables lists them).",
        )
        client_seed = ClientSeedField(required=False)

        def validate(self, data: dict) -> dict:
            return {"invite": "", "client_seed": "", **data}

    @extend_schema(
        operation_id="matches_join",
        summary="Take the next open seat of a table",
        description="With the `invite` its owner shares (none at an open table: GET /tables "
        "lists them), you sit at the next open human seat "
        "(the lowest one a guest left before deal 1, else the next one never taken) and the "
        "answer is your view (`your_seat` set) with a `player_joined` event. When you take the "
        "last seat, deal 1 starts, and the AI seats that act before a human have acted. A "
        "table its owner left before deal 1 is 409 `match_abandoned`. A wrong invite is 404, "
        "as for a match that does not exist. A bot joins only a table whose owner allowed "
        "bots (`bots`; else 409 `bots_not_allowed`).",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchWriteViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "Every seat is taken, you sit there already, the table was closed or abandoned, "
                "or you are a bot and the owner did not allow bots.",
                "match_full",
                "already_seated",
                "match_abandoned",
                "bots_not_allowed",
                "idempotency_in_progress",
            ),
            422: KEY_REUSED,
        },
    )
    def post(self, request, match_id):
        return super().post(request, match_id=match_id)

    def answer(self, data: dict, match_id) -> dict:
        return MATCH_WRITE_VIEW.render(
            match_commands.match_join_answer(match_id=match_id, player=self.request.user, **data)
        )


class MatchEvents(APIView):
    name = "Events"  # what OPTIONS names it, as before

    @extend_schema(
        operation_id="matches_events",
        summary="The match's events after seq `after`, as you may see them",
        description="At most 1,000 events per page, in seq order; when `has_more` is true, "
        "ask again with `after` set to the last seq you got. Events never show the deck, the "
        "seed, or a hand you may not see. With `wait` (a long-poll, up to 30 s), an answer "
        "that would have no events waits until one is written, and answers it at once, or "
        "answers with none when the time is up (at once if your token is rotated or revoked "
        "meanwhile). An `after` past the match's latest event is "
        "400 `after_out_of_range`, with that event's seq as `latest`.",
        parameters=[EventsQuerySerializer],
        responses={
            200: MatchEventsSerializer,
            400: AFTER_REFUSED,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def get(self, request, match_id):
        query = valid(EventsQuerySerializer, request.query_params)
        match = found_match(match_id=match_id, player=request.user)
        after = match_queries.match_cursor(match=match, after=query["after"])
        page = match_queries.events_page(match=match, after=after)
        if page["events"] or not query["wait"]:
            return Response(page)
        # The wait runs on the event loop after this thread has answered, holding neither a
        # thread nor a database connection; the body is sent when known.
        waiting = stream_reads.long_poll(
            match=match,
            player=request.user,
            after=after,
            wait=query["wait"],
            token_hash=credential_hash(request.auth),
        )
        return StreamingHttpResponse(waiting, content_type="application/json")


class MatchRecord(APIView):
    name = "Record"  # what OPTIONS names it, as before

    @extend_schema_serializer(component_name="MatchRecord")
    class OutputSerializer(serializers.Serializer):
        """A match's record to keep (the format `games.engine.record.FORMAT`): docs/record.md
        describes it, and docs/record.schema.json is its JSON Schema."""

        format = serializers.ChoiceField(choices=[RECORD_FORMAT], help_text="The format.")
        match = serializers.DictField(
            help_text="id, created_at, ai_level, humans, seeded, status and version."
        )
        viewer_seat = serializers.IntegerField(
            allow_null=True, help_text="The seat of the reader the record is shaped for."
        )
        seats = serializers.ListField(
            child=serializers.DictField(), help_text="The four seats: seat, name and kind."
        )
        series = serializers.ListField(
            child=serializers.DictField(),
            help_text="Each series: its commitments, client seeds and revealed server seed, its "
            "deals (dealer, moves, hands you may see, result) and its end.",
        )

    @extend_schema(
        operation_id="matches_record",
        summary="The match's record to keep: every deal, move and result you may see",
        description=f"A JSON document in the format `{RECORD_FORMAT}` (docs/record.md; its JSON "
        "Schema is docs/record.schema.json): the players, how each series was dealt "
        "(commitments, client seeds, and the server seed once revealed), every deal's dealer, "
        "its moves with who made them (player, AI or clock), the hands you may see, the "
        "results with exact points, and each series' end. Where a verifiable series has ended, "
        "every hand of it, dealt again from its seeds. `manage.py import_record` plays a record "
        "again and checks every total.",
        responses={
            200: OutputSerializer,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def get(self, request, match_id):
        match = found_match(match_id=match_id, player=request.user)
        return Response(match_queries.match_record(match=match))
