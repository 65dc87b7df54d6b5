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


# Answers that any operation (429), or any operation with a body (413, 415), may give.
_EVERY_OPERATION = {"429": "Too many requests; retry after the number of seconds in Retry-After."}
_WITH_A_BODY = {
    "413": "The request body is larger than the server reads (ASNAS_MAX_BODY_BYTES).",
    "415": "The request body is not application/json.",
}


def add_common_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the error answers that come from the framework
    rather than from one view, each with the Problem body."""
    for path, operations in result["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for operation in operations.values():
            answers = {**_EVERY_OPERATION, **(_WITH_A_BODY if "requestBody" in operation else {})}
            for status, description in answers.items():
                operation["responses"].setdefault(
                    status,
                    {
                        "description": description,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}
                        },
                    },
                )
    return result
