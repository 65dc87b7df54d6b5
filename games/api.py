"""The match API. Views only translate: validate input, call one service or selector,
serialize the output. Errors are mapped in asnas_api.errors."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from asnas_api.schema import NOT_FOUND, UNAUTHORIZED, VALIDATION_ERROR, problem_response
from games import idempotency, selectors, services
from games.engine import DomainError
from games.serializers import (
    ActionRequestSerializer,
    EventsQuerySerializer,
    MatchCreateRequestSerializer,
    MatchEventsSerializer,
    MatchSummarySerializer,
    MatchViewSerializer,
    VersionRequestSerializer,
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Makes a retry safe: within 24 hours, a repeat with the same key and body "
    "answers the first outcome (with the header Idempotent-Replayed: true) and changes "
    "nothing. 1 to 255 printable ASCII characters, scoped to your player.",
)


class MatchPagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


def _match_view(match) -> dict:
    # Already shaped as MatchViewSerializer would output it; that serializer is the schema.
    return selectors.match_view(match=match)


def _write_response(request, write, *, status_code: int = status.HTTP_200_OK) -> Response:
    """Run a service `write` that returns a match, and answer with its MatchView. With an
    Idempotency-Key, a repeat of the same request answers the first outcome instead."""

    def call() -> tuple[int, dict]:
        return status_code, _match_view(write())

    key = request.headers.get("Idempotency-Key")
    if key is None:
        code, body = call()
        return Response(body, status=code)
    code, body, replayed = idempotency.idempotent_call(
        player=request.user,
        key=idempotency.validate_key(key),
        fingerprint=idempotency.fingerprint(request.method, request.path, request.data),
        call=call,
    )
    return Response(
        body, status=code, headers={"Idempotent-Replayed": "true"} if replayed else None
    )


def _found(match_id, player):
    match = selectors.match_get(match_id=match_id, player=player)
    if match is None:
        raise DomainError("not_found", "No such match.")
    return match


class MatchListCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    extra_rate_scopes = {"POST": ("match_create",)}
    # Named here, drf-spectacular documents the page envelope and its query parameters.
    pagination_class = MatchPagination

    @extend_schema(
        operation_id="matches_list",
        summary="List your matches, newest first",
        responses={
            200: MatchSummarySerializer(many=True),
            401: UNAUTHORIZED,
            404: problem_response(
                "The page number is not a page of the list.", ("not_found", "Invalid page.")
            ),
        },
    )
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.match_list(player=request.user), request, self)
        return paginator.get_paginated_response(MatchSummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="matches_create",
        summary="Create a match: you at seat 0 against three AI seats",
        description="Deal 1 starts at once; the AI seats that act before you have acted.",
        request=MatchCreateRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: MatchViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            409: problem_response(
                "A request with this key is still running.", "idempotency_in_progress"
            ),
            422: problem_response(
                "The key was used with another request.", "idempotency_key_reused"
            ),
        },
        examples=[OpenApiExample("hard AI", value={"ai_level": "hard"}, request_only=True)],
    )
    def post(self, request):
        data = _valid(MatchCreateRequestSerializer, request.data)
        return _write_response(
            request,
            lambda: services.match_create(
                owner=request.user, ai_level=data["ai_level"], seed=data.get("seed")
            ),
            status_code=status.HTTP_201_CREATED,
        )


class MatchDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_retrieve",
        summary="The match as you may see it",
        responses={200: MatchViewSerializer, 401: UNAUTHORIZED, 404: NOT_FOUND},
    )
    def get(self, request, match_id):
        return Response(_match_view(_found(match_id, request.user)))


class MatchActionApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_act",
        summary="Act at your seat; the AI seats then act until your next turn",
        request=ActionRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "The match is not in a state for this action.",
                "not_your_turn",
                "deal_over",
                "match_finished",
                "stale_version",
                "idempotency_in_progress",
            ),
            422: problem_response(
                "The rules do not allow this action now, or the key was used with another request.",
                "illegal_action",
                "already_looked",
                "idempotency_key_reused",
            ),
        },
        examples=[
            OpenApiExample("look", value={"action": "look"}, request_only=True),
            OpenApiExample(
                "raise", value={"action": "raise", "expected_version": 7}, request_only=True
            ),
        ],
    )
    def post(self, request, match_id):
        data = _valid(ActionRequestSerializer, request.data)
        return _write_response(
            request,
            lambda: services.match_act(
                match_id=match_id,
                player=request.user,
                action=data["action"],
                expected_version=data.get("expected_version"),
            ),
        )


class MatchNextDealApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_next_deal",
        summary="Start the next deal once the current one is over",
        request=VersionRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "The current deal is still on, or the match is finished.",
                "deal_in_progress",
                "match_finished",
                "stale_version",
                "idempotency_in_progress",
            ),
            422: problem_response(
                "The key was used with another request.", "idempotency_key_reused"
            ),
        },
    )
    def post(self, request, match_id):
        data = _valid(VersionRequestSerializer, request.data)
        return _write_response(
            request,
            lambda: services.match_next_deal(
                match_id=match_id,
                player=request.user,
                expected_version=data.get("expected_version"),
            ),
        )


class MatchRestartApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_restart",
        summary="Start a new 12-deal series with every total at zero",
        description="Allowed at any time; an unfinished deal is abandoned and counts for nobody. "
        "The match's history stays in its events.",
        request=VersionRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            200: MatchViewSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
            409: problem_response(
                "The version is stale.", "stale_version", "idempotency_in_progress"
            ),
            422: problem_response(
                "The key was used with another request.", "idempotency_key_reused"
            ),
        },
    )
    def post(self, request, match_id):
        data = _valid(VersionRequestSerializer, request.data)
        return _write_response(
            request,
            lambda: services.match_restart(
                match_id=match_id,
                player=request.user,
                expected_version=data.get("expected_version"),
            ),
        )


class MatchEventsApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="matches_events",
        summary="The match's events after seq `after`, as you may see them",
        parameters=[EventsQuerySerializer],
        responses={
            200: MatchEventsSerializer,
            400: VALIDATION_ERROR,
            401: UNAUTHORIZED,
            404: NOT_FOUND,
        },
    )
    def get(self, request, match_id):
        query = _valid(EventsQuerySerializer, request.query_params)
        match = _found(match_id, request.user)
        return Response(selectors.match_events(match=match, after=query["after"]))


def _valid(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
