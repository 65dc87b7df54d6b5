"""OpenAPI pieces shared by every endpoint: the error body and its examples."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from asnas_api.errors import problem
from asnas_api.problems import PROBLEMS


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
                value=problem(PROBLEMS[code].status, code, detail or PROBLEMS[code].example),
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
            ),
            response_only=True,
            status_codes=["400"],
        )
    ],
)
UNAUTHORIZED = problem_response("No token, or a token that is not valid.", "not_authenticated")
NOT_FOUND = problem_response("No such match among yours.", "not_found")


# The codes that come from the framework rather than from one view, by what an operation
# has: every operation may be throttled; a body may be unreadable, too large, of another
# type or hold a field the operation does not take; a token may be missing or not valid;
# an Idempotency-Key may be malformed.
_EVERY_OPERATION = ("throttled",)
_WITH_A_BODY = ("parse_error", "unknown_field", "request_too_large", "unsupported_media_type")
_WITH_A_TOKEN = ("not_authenticated", "authentication_failed")
_WITH_A_KEY = ("invalid_idempotency_key",)
_DESCRIPTIONS = {
    "400": "The request is malformed; `code` says how.",
    "401": "No token, or a token that is not valid.",
    "413": "The request body is larger than the server reads (ASNAS_MAX_BODY_BYTES).",
    "415": "The request body is not application/json.",
    "429": "A rate limit was hit; the body names it, and Retry-After says when to retry.",
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
    the registry."""
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
                    name, {"value": problem(entry.status, code, entry.example), "summary": code}
                )
    return result
