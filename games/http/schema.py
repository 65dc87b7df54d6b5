"""The OpenAPI prose several operations share: the headers a request may send, and the
problems an idempotent write, a match's move and a stream may answer."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from edge.schema import (
    NOT_FOUND,
    UNAUTHORIZED,
    VALIDATION_ERROR,
    ProblemSerializer,
    problem_response,
)
from games.http.shapes import MatchWriteViewSerializer

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Makes a retry safe: within 24 hours, a repeat with the same key and body "
    "answers the first outcome (with the header Idempotent-Replayed: true) and changes "
    "nothing. 1 to 255 printable ASCII characters, scoped to your player.",
)


# What a write with an Idempotency-Key may answer beside its own answers.
KEY_IN_PROGRESS = problem_response(
    "A request with this key is still running.", "idempotency_in_progress"
)
KEY_REUSED = problem_response("The key was used with another request.", "idempotency_key_reused")


def move_responses(conflict: str, *conflicts: str, unprocessable: tuple[str, ...] = ()) -> dict:
    """The answers of a write to an existing match: its MatchWriteView, or the problems every
    such write may meet and the 409s (`conflicts`, described by `conflict`) and 422s of its own."""
    return {
        200: MatchWriteViewSerializer,
        400: VALIDATION_ERROR,
        401: UNAUTHORIZED,
        404: NOT_FOUND,
        409: problem_response(conflict, *conflicts, "stale_version", "idempotency_in_progress"),
        422: problem_response(
            "The rules do not allow this action now, or the key was used with another request."
            if unprocessable
            else "The key was used with another request.",
            *unprocessable,
            "idempotency_key_reused",
        ),
    }


LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    description="Resume after this seq: what a browser's EventSource sends when it "
    "reconnects. Wins over `after`.",
)
AFTER_REFUSED = OpenApiResponse(
    response=ProblemSerializer,
    description="A parameter is malformed (`errors` names it), or the resume point is past "
    "the latest event you may see (`latest` in the body is that event's seq).",
    examples=[
        *VALIDATION_ERROR.examples,
        *problem_response("", "after_out_of_range").examples,
    ],
)
STREAM_UNAUTHORIZED = problem_response(
    "No token or ticket, a token that is not valid, or a ticket used, expired or for another "
    "stream.",
    "not_authenticated",
    "invalid_ticket",
)
