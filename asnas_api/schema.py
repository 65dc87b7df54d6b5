"""OpenAPI pieces shared by every endpoint: the error body and its examples."""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from asnas_api.errors import problem


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


def problem_response(description: str, *codes: tuple[int, str, str]) -> OpenApiResponse:
    """An error response whose examples are (status, code, detail) triples."""
    return OpenApiResponse(
        response=ProblemSerializer,
        description=description,
        examples=[
            OpenApiExample(
                code,
                value=problem(status, code, detail),
                response_only=True,
                status_codes=[str(status)],
            )
            for status, code, detail in codes
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
                'action: "dance" is not a valid choice.',
                errors=[
                    {
                        "field": "action",
                        "code": "invalid_choice",
                        "message": '"dance" is not a valid choice.',
                    }
                ],
            ),
            response_only=True,
            status_codes=["400"],
        )
    ],
)
UNAUTHORIZED = problem_response(
    "No token, or a token that is not valid.",
    (401, "not_authenticated", "Authentication credentials were not provided."),
)
NOT_FOUND = problem_response("No such match among yours.", (404, "not_found", "No such match."))


THROTTLED = problem_response(
    "Too many requests; retry after the number of seconds in Retry-After.",
    (429, "throttled", "Request was throttled. Expected available in 12 seconds."),
)


def add_throttled_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: every API operation may answer 429."""
    throttled = {
        "description": THROTTLED.description,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Problem"}},
        },
    }
    for path, operations in result["paths"].items():
        if path.startswith("/api/v1/"):
            for operation in operations.values():
                operation["responses"].setdefault("429", throttled)
    return result
