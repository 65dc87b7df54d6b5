"""OpenAPI pieces shared by every endpoint (the error body and its examples), and the view
that serves the schema."""

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
from rest_framework import serializers

from asnas_api.errors import problem
from asnas_api.problems import PROBLEMS

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
                        "message": '"dance" is not a valid choice.',
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


# Answers that any operation (429), or any operation with a body (413, 415), may give.
_EVERY_OPERATION = {"429": "Too many requests; retry after the number of seconds in Retry-After."}
_WITH_A_BODY = {
    "413": "The request body is larger than the server reads (ASNAS_MAX_BODY_BYTES).",
    "415": "The request body is not application/json.",
}


def add_common_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the error answers that come from the framework
    rather than from one view, each with the Problem body; every error is
    application/problem+json."""
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
            for status, response in operation["responses"].items():
                if int(status) >= 400 and "application/json" in response.get("content", {}):
                    content = response["content"]
                    content["application/problem+json"] = content.pop("application/json")
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
