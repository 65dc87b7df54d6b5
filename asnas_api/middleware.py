"""The request edge, before any view: request ids, the access log, problem bodies for every
error under /api/ and whole request bodies."""

import io
import json
import logging
import re
import time
import uuid
from http import HTTPStatus

from django.conf import settings
from django.db import connection
from django.http import HttpResponse, JsonResponse

from asnas_api.errors import database_unavailable
from edge.client_address import client_address
from edge.database import DATABASE_FAILURES
from edge.problems import problem

access_log = logging.getLogger("asnas_api.access")
logger = logging.getLogger(__name__)

PROBLEM_TYPE = "application/problem+json"
# An incoming X-Request-ID (from a proxy or the client) is kept if it is this plain.
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# Codes for errors made below the API's views, by status.
_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "request_too_large",
    500: "server_error",
}


def is_api(request) -> bool:
    return request.path.startswith("/api/")


def as_problem(response, request_id: str):
    """The same error as a problem body carrying its request id, with its headers kept
    (Allow, Retry-After, WWW-Authenticate, Idempotent-Replayed); any other body (Django's
    HTML pages, a debug traceback) is replaced, never shown."""
    body = None
    if not response.streaming and "json" in response.get("Content-Type", ""):
        try:
            body = json.loads(response.content)
        except ValueError:
            body = None
    status = response.status_code
    if not isinstance(body, dict) or "code" not in body:
        body = problem(
            status,
            _CODES.get(status, "_".join(HTTPStatus(status).phrase.lower().split())),
            HTTPStatus(status).description or HTTPStatus(status).phrase,
        )
    body["request_id"] = request_id
    if response.streaming:
        response = HttpResponse(status=status)
    # Compact, as DRF writes every other body; ASCII-escaped, so no echoed input can fail
    # to encode.
    response.content = json.dumps(body, separators=(",", ":")).encode()
    response["Content-Type"] = PROBLEM_TYPE
    response["Content-Length"] = str(len(response.content))
    return response


class RequestEdgeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        incoming = request.META.get("HTTP_X_REQUEST_ID", "")
        request.request_id = incoming if _SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        response = self.get_response(request)
        if response.status_code >= 400 and is_api(request):
            response = as_problem(response, request.request_id)
        response["X-Request-ID"] = request.request_id
        match = request.resolver_match
        access_log.info(
            json.dumps(
                {
                    "method": request.method,
                    "path": request.path,
                    "route": match.route if match else None,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    "request_id": request.request_id,
                    "client": client_address(request),
                }
            )
        )
        return response

    def process_exception(self, request, exception):
        # A view's exception, which under ASGI Django hands to handler500 in another thread,
        # where server_error cannot see it; middleware's own reach server_error directly.
        if isinstance(exception, DATABASE_FAILURES):
            return database_unavailable(request)
        return None


class StreamedResponseMiddleware:
    """A streamed answer (an event stream, a long-poll) outlives its request, by hours for a
    stream: the connection its thread took from the pool goes back before the body streams,
    or every open stream would hold one (docs/streams.md). Outside every middleware that may
    touch the database."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # Inside an outer transaction (a test's) the connection is not this request's to give;
        # a static file streams too, but may have taken none.
        if response.streaming and not connection.in_atomic_block:
            if connection.connection is not None:
                connection.close()
            # Nothing of the request is left in its thread: the server may give the thread
            # to other requests while the body streams (asnas_api.asgi).
            response.holds_no_connection = True
        return response


def too_large(limit: int) -> JsonResponse:
    detail = f"The request body is larger than {limit} bytes."
    return JsonResponse(problem(413, "request_too_large", detail), status=413)


class RequestBodyMiddleware:
    """Every body is read in full up to the limit, or refused with 413.

    A body sent without Content-Length (Transfer-Encoding: chunked) is one that Django
    under WSGI, and DRF under any server, would take as empty: it is read here, up to the
    limit, and handed on with its length."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = (
            settings.ASNAS_MAX_BODY_BYTES
            if is_api(request)
            else settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        )
        declared = request.META.get("CONTENT_LENGTH")
        if declared:
            if declared.isdigit() and int(declared) > limit:
                return too_large(limit)
        elif "HTTP_TRANSFER_ENCODING" in request.META:
            environ = getattr(request, "environ", None)  # WSGI; under ASGI the body is read
            raw = environ["wsgi.input"] if environ is not None else request._stream
            body = raw.read(limit + 1)
            if len(body) > limit:
                return too_large(limit)
            request._stream = io.BytesIO(body)
            request.META["CONTENT_LENGTH"] = str(len(body))
        return self.get_response(request)
