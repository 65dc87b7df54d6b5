"""OpenAPI pieces shared by every endpoint (the error body and its examples), and the view
that serves the schema."""

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.extensions import OpenApiSerializerExtension
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
        help_text="`after_out_of_range` only: the seq of the latest event you may see (a "
        "player: the match's latest), the furthest a client can resume after.",
    )
    request_id = serializers.CharField(
        help_text="This request's id, also in the X-Request-ID header and the access log."
    )


class RequestBodySchema(OpenApiSerializerExtension):
    """A request body refuses every field it does not know (RequestBodySerializer), so its
    schema allows no other: a client checking a body against it learns what the server
    says."""

    target_class = "edge.serializers.RequestBodySerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        return {**schema, "additionalProperties": False}


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
_WITH_A_TOKEN = ("not_authenticated", "invalid_token")
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


# What the edge's own components' fields mean (the apps give theirs as help_text).
FIELD_DOCS = {
    "FieldError.code": "Stable and machine-readable, e.g. invalid_choice, unknown_field.",
    "FieldError.message": "For people.",
    "Problem.type": "Always about:blank: `code` tells the problems apart.",
    "Problem.status": "The HTTP status, repeated.",
}


def describe_fields(result, generator, request, public):
    """drf-spectacular postprocessing hook: the edge's components' fields get the
    descriptions FIELD_DOCS gives them."""
    for component, schema in result["components"]["schemas"].items():
        for name, field in schema.get("properties", {}).items():
            text = FIELD_DOCS.get(f"{component}.{name}")
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
