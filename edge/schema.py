"""OpenAPI pieces shared by every endpoint (the error body and its examples), and the view
that serves the schema."""

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
from rest_framework import serializers

from edge.problems import PROBLEMS, problem

EXAMPLE_REQUEST_ID = "5f0c2b8e9d7a4c1b8e3f6a2d9c4b7e10"


class FieldErrorSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="Dotted path of the bad field in the request.")
    code = serializers.CharField()
    message = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    """Every error response: RFC 9457 problem details with a stable `code`."""

    type = serializers.CharField(default="about:blank")
    title = serializers.CharField(help_text="The HTTP status phrase.")
    status = serializers.IntegerField()
    code = serializers.CharField(help_text="Stable and machine-readable, e.g. not_your_turn.")
    detail = serializers.CharField(help_text="For people.")
    errors = FieldErrorSerializer(many=True, required=False, help_text="Validation errors only.")
    latest = serializers.IntegerField(
        required=False,
        help_text="`after_out_of_range` only: the seq of the match's latest event, the "
        "furthest a client can resume after.",
    )
    request_id = serializers.CharField(
        help_text="This request's id, also in the X-Request-ID header and the access log."
    )


def problem_response(description: str, *codes: str | tuple[str, str]) -> OpenApiResponse:
    """An error response with one example per code, each with the registry's status and
    example detail; a (code, detail) pair gives a detail of its own."""
    pairs = [(code, None) if isinstance(code, str) else code for code in codes]
    return OpenApiResponse(
        response=ProblemSerializer,
        description=description,
        examples=[
            OpenApiExample(
                code,
                value=problem(
                    PROBLEMS[code].status,
                    code,
                    detail or PROBLEMS[code].example,
                    **dict(PROBLEMS[code].fields),
                    request_id=EXAMPLE_REQUEST_ID,
                ),
                response_only=True,
                status_codes=[str(PROBLEMS[code].status)],
            )
            for code, detail in pairs
        ],
    )


VALIDATION_ERROR = OpenApiResponse(
    response=ProblemSerializer,
    description="The request is malformed or a field is invalid; `errors` names each field.",
    examples=[
        OpenApiExample(
            "validation_error",
            value=problem(
                400,
                "validation_error",
                PROBLEMS["validation_error"].example,
                errors=[
                    {
                        "field": "action",
                        "code": "invalid_choice",
                        "message": '"dance" is not a valid choice; allowed: look, call, '
                        "hold, raise, fold.",
                    }
                ],
                request_id=EXAMPLE_REQUEST_ID,
            ),
            response_only=True,
            status_codes=["400"],
        )
    ],
)
UNAUTHORIZED = problem_response("No token, or a token that is not valid.", "not_authenticated")
NOT_FOUND = problem_response("No such match among yours.", "not_found")


# The codes that come from the framework rather than from one view, by what an operation
# has: every operation may meet a bad Host or a request refused before any view, be
# throttled, hit a bug or find the database down; a body may be unreadable, too large, of another
# type or hold a field the operation does not take; a token may be missing or not valid;
# an Idempotency-Key may be malformed.
_EVERY_OPERATION = (
    "invalid_host",
    "bad_request",
    "throttled",
    "server_error",
    "database_unavailable",
)
_WITH_A_BODY = ("parse_error", "unknown_field", "request_too_large", "unsupported_media_type")
_WITH_A_TOKEN = ("not_authenticated", "authentication_failed")
_WITH_A_KEY = ("invalid_idempotency_key",)
_DESCRIPTIONS = {
    "400": "The request is malformed; `code` says how.",
    "401": "No token, or a token that is not valid.",
    "413": "The request body is larger than the server reads (ASNAS_MAX_BODY_BYTES).",
    "415": "The request body is not application/json.",
    "429": "A rate limit was hit; the body names it, and Retry-After says when to retry.",
    "500": "A bug: the body shows no internals; quote its request_id when reporting it.",
    "503": "The database is unavailable for now; retry after Retry-After.",
}


def framework_codes(operation: dict) -> tuple[str, ...]:
    """The framework's error codes that `operation` (an OpenAPI operation) can answer."""
    codes = _EVERY_OPERATION
    if "requestBody" in operation:
        codes += _WITH_A_BODY
    if operation.get("security") and operation["security"] != [{}]:
        codes += _WITH_A_TOKEN
    if any(parameter["name"] == "Idempotency-Key" for parameter in operation.get("parameters", [])):
        codes += _WITH_A_KEY
    return codes


def add_common_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the error answers that come from the framework
    rather than from one view, each with the Problem body and an example per code, from
    the registry; every error is application/problem+json."""
    for path, operations in result["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for operation in operations.values():
            for code in framework_codes(operation):
                entry = PROBLEMS[code]
                status = str(entry.status)
                answer = operation["responses"].setdefault(
                    status,
                    {
                        "description": _DESCRIPTIONS[status],
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}
                        },
                    },
                )
                examples = answer["content"]["application/json"].setdefault("examples", {})
                # drf-spectacular's own naming, so a code a view documents is not repeated.
                name = "".join(word.capitalize() for word in code.split("_"))
                examples.setdefault(
                    name,
                    {
                        "value": problem(
                            entry.status, code, entry.example, request_id=EXAMPLE_REQUEST_ID
                        ),
                        "summary": code,
                    },
                )
            for status, response in operation["responses"].items():
                if int(status) >= 400 and "application/json" in response.get("content", {}):
                    content = response["content"]
                    content["application/problem+json"] = content.pop("application/json")
    return result


# The response headers, as components/headers: each once, referred to where it occurs.
RESPONSE_HEADERS = {
    "X-Request-ID": {
        "description": "This request's id (the client's own if it sent a valid one), also in "
        "every problem body as `request_id` and in the access log.",
        "schema": {"type": "string"},
    },
    "RateLimit-Policy": {
        "description": "The rate limits this request counted against (IETF httpapi "
        "ratelimit-headers): one item per named policy, its quota `q` in a window of `w` "
        'seconds, e.g. `"ip";q=2400;w=60, "token";q=1200;w=60`.',
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": "What is left of each policy in RateLimit-Policy: `r` requests remaining, "
        '`t` seconds until its window resets, e.g. `"ip";r=2399;t=42, "token";r=1199;t=42`.',
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {"type": "integer"},
    },
    "Idempotent-Replayed": {
        "description": "`true` when this answer is the stored outcome of an earlier request "
        "with the same Idempotency-Key, replayed without changing anything.",
        "schema": {"type": "string", "enum": ["true"]},
    },
}


def declare_response_headers(result, generator, request, public):
    """drf-spectacular postprocessing hook: the headers the middleware and the views add,
    declared on each response that can carry them: X-Request-ID and the RateLimit pair on
    every answer of the API, Retry-After on 429s and wherever a code of the registry asks a
    retry, Idempotent-Replayed on the success of a write that takes an Idempotency-Key."""
    result["components"]["headers"] = RESPONSE_HEADERS
    for path, operations in result["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for operation in operations.values():
            takes_a_key = any(
                parameter["name"] == "Idempotency-Key"
                for parameter in operation.get("parameters", [])
            )
            for status, response in operation["responses"].items():
                names = ["X-Request-ID", "RateLimit-Policy", "RateLimit"]
                examples = [
                    example["value"]["code"]
                    for content in response.get("content", {}).values()
                    for example in content.get("examples", {}).values()
                    if "code" in example["value"]
                ]
                if status == "429" or any(PROBLEMS[code].retry_after for code in examples):
                    names.append("Retry-After")
                if takes_a_key and status.startswith("2"):
                    names.append("Idempotent-Replayed")
                response["headers"] = {
                    name: {"$ref": f"#/components/headers/{name}"} for name in names
                }
    return result


# What a field means where its serializer gives no help_text: one entry per field name,
# which means the same everywhere it occurs, or per "Component.field" where it does not.
FIELD_DOCS = {
    "seq": "The event's number in its match: 1, 2, 3... with no gaps; the match's version is "
    "the seq of its last event.",
    "series": "Which 12-deal series: 1, then one more on each restart.",
    "deal_number": "The deal within the series, 1 to 12.",
    "dealer": "The dealer's seat (0-3); the seat after the dealer acts first.",
    "seat": "A seat at the table, 0 to 3; you are seat 0, the AI seats are 1-3.",
    "pot": "Points staked by every seat in this deal so far.",
    "high_stake": "The highest stake of any seat in this deal: calling matches it.",
    "stake": "What this seat has put in this deal (1 to 4).",
    "folded": "Whether this seat has folded this deal.",
    "looked": "Whether this seat has looked at its cards this deal.",
    "name": "The player's name, as shown at the table.",
    "id": "A UUID.",
    "created_at": "When it was created (UTC, ISO 8601).",
    "updated_at": "When it last changed (UTC, ISO 8601).",
    "seeded": "Whether the client chose the match's seed (tests and development): seeded "
    "matches stay out of a player's stats.",
    "version": "The seq of the match's last event: send it as expected_version to act only "
    "on the match as you saw it.",
    "expected_version": "The version you last saw; a different current version answers 409 "
    "stale_version and changes nothing.",
    "category": "The hand's category, if the hand may be shown to you, else null.",
    "your_seat": "Your seat: always 0.",
    "your_category": "The category of your five cards once you may see them, else null.",
    "turn": "The seat whose turn it is, or null when no one is to act (the deal is over).",
    "legal_actions": "What you may do now, in this order; empty unless it is your turn.",
    "last_deal": "The result of the series' latest finished deal, as you may see it; null "
    "before the first one ends.",
    "seats": "The four seats, in seat order.",
    "totals": "Each seat's total points this series, in seat order, exact.",
    "stats": "Your results over your unseeded matches.",
    "matches_played": "Your unseeded matches, finished or not.",
    "matches_finished": "Your unseeded matches whose series is finished.",
    "status": "Where the match stands: `in_deal` (a deal is being played), `deal_over` "
    "(call next-deal) or `finished` (all 12 deals played, or resigned).",
    "ai_level": "How well the AI seats play: `easy`, `normal`, `hard` or `expert` (hard, "
    "shifted toward exploiting what it has seen of the other seats this match).",
    "kind": "`human` for a person, `ai` for an AI seat.",
    "outcome": "`showdown` when two or more seats were left to compare hands, `uncontested` "
    "when all but one folded.",
    "ActionEvent.action": "What the seat did.",
    "ActionRequest.action": "One of the view's `legal_actions`.",
    "MatchView.winners": "The seats with the highest total once the match is finished, else null.",
    "MatchWriteView.winners": "The seats with the highest total once the match is finished, "
    "else null.",
    "MatchSummary.winners": "The seats with the highest total once finished, else null.",
    "DealResult.winners": "The seats that won this deal and split its pot.",
    "DealEndedEvent.winners": "The seats that won this deal and split its pot.",
    "MatchFinishedEvent.winners": "The seats with the highest total: the match's winners "
    "(after a resignation, the leaders among the other seats).",
    "MatchEvents.version": "The match's version now: the seq of its last event.",
    "MatchEvents.events": "Up to 1,000 events, in seq order, as you may see them; when "
    "has_more is true, ask again with after = the last seq.",
    "FieldError.code": "Stable and machine-readable, e.g. invalid_choice, unknown_field.",
    "FieldError.message": "For people.",
    "Problem.type": "Always about:blank: `code` tells the problems apart.",
    "Problem.status": "The HTTP status, repeated.",
    "PaginatedMatchSummaryList.count": "How many matches there are in all.",
    "PaginatedMatchSummaryList.next": "The URL of the next page, or null on the last.",
    "PaginatedMatchSummaryList.previous": "The URL of the previous page, or null on the first.",
    "PaginatedMatchSummaryList.results": "This page's matches, newest first.",
    "PlayerCreateRequest.name": "Your name at the table, 1 to 64 characters; spaces at the "
    "ends are trimmed.",
}


# What a component means where no serializer docstring can say it.
COMPONENT_DOCS = {
    "MatchEvent": "One event of a match, as you may see it: its `type` says which of the "
    "members it is (match_created, deal_started, action, deal_ended, match_restarted, "
    "resigned, match_finished, player_joined, player_left, seat_freed).",
}


def describe_fields(result, generator, request, public):
    """drf-spectacular postprocessing hook: every field without a description gets the one
    FIELD_DOCS gives it, and every component COMPONENT_DOCS names its description."""
    for component, text in COMPONENT_DOCS.items():
        result["components"]["schemas"][component].setdefault("description", text)
    for component, schema in result["components"]["schemas"].items():
        for name, field in schema.get("properties", {}).items():
            text = FIELD_DOCS.get(f"{component}.{name}") or FIELD_DOCS.get(name)
            if text and not field.get("description"):
                if "$ref" in field:  # OpenAPI 3.0 ignores the siblings of a $ref
                    field["allOf"] = [{"$ref": field.pop("$ref")}]
                field["description"] = text
    return result


class CachedSchemaView(SpectacularAPIView):
    """The schema is the same for every request: it is generated and rendered once per
    process and format, then served from memory, so a flood of requests for it costs little."""

    rendered: dict[tuple, tuple[bytes, str, str]] = {}

    @extend_schema(**SCHEMA_KWARGS)
    def get(self, request, *args, **kwargs):
        lang = request.GET.get("lang")
        # Only real language codes make entries, so the cache stays bounded.
        key = (request.accepted_renderer.format, lang if lang in dict(settings.LANGUAGES) else None)
        if key not in self.rendered:
            renderer = request.accepted_renderer
            response = super().get(request, *args, **kwargs)
            content = renderer.render(
                response.data, request.accepted_media_type, self.get_renderer_context()
            )
            charset = f"; charset={renderer.charset}" if renderer.charset else ""
            self.rendered[key] = (
                content,
                renderer.media_type + charset,
                response["Content-Disposition"],
            )
        content, content_type, disposition = self.rendered[key]
        answer = HttpResponse(content, content_type=content_type)
        answer["Content-Disposition"] = disposition
        return answer
