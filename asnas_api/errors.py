"""The one place where errors become HTTP responses.

Every error body has one shape, modelled on RFC 9457 problem details:
`{"type", "title", "status", "code", "detail"}`, plus `errors` (one entry per bad
field) for validation errors. `code` is stable and machine-readable.
"""

import sys

from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from asnas_api import metrics
from asnas_api.gate import refuse_unauthenticated
from edge.database import DATABASE_FAILURES
from edge.problems import PROBLEMS, problem
from games.engine import DomainError

# Down, hung past the request's deadline (asnas_api.deadline), or a timeout: the request may be
# retried; the pool replaces broken connections by itself.
DATABASE_UNAVAILABLE = "The database is unavailable; try again shortly."


def _flatten(detail, path: str = "") -> list[dict]:
    if isinstance(detail, dict):
        return [
            item
            for key, value in detail.items()
            for item in _flatten(value, f"{path}.{key}" if path else str(key))
        ]
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail) for item in detail):
            return [
                {"field": path or "non_field_errors", "code": item.code, "message": str(item)}
                for item in detail
            ]
        return [
            item
            for index, value in enumerate(detail)
            for item in _flatten(value, f"{path}.{index}")
        ]
    return [{"field": path or "non_field_errors", "code": detail.code, "message": str(detail)}]


def exception_handler(exc, context):
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # DRF checks the token before the rate limits: the gate counts these if it did not yet.
        try:
            refuse_unauthenticated(context["request"])
        except exceptions.Throttled as throttled:
            exc = throttled
    if isinstance(exc, DATABASE_FAILURES):
        metrics.DATABASE_ERRORS.inc()
        exc = DomainError("database_unavailable", DATABASE_UNAVAILABLE)
    if isinstance(exc, DomainError):
        entry = PROBLEMS[exc.code]  # a code missing from the registry is a bug: a 500
        headers = {"Retry-After": str(entry.retry_after)} if entry.retry_after else None
        body = problem(entry.status, exc.code, exc.detail, **exc.fields)
        return Response(body, status=entry.status, headers=headers)
    # DRF's own handler turns Http404, PermissionDenied and APIExceptions into responses
    # with the right status and headers (WWW-Authenticate, Retry-After); only the body changes.
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        first = errors[0]
        if all(error["code"] == "unknown_field" for error in errors):
            # A typo in a field name has its own code: a client may want to tell it apart.
            code, detail = (
                "unknown_field",
                "; ".join(f"{error['field']}: {error['message']}" for error in errors),
            )
        elif first["field"] == "non_field_errors":
            code, detail = "validation_error", first["message"]
        else:
            code, detail = "validation_error", f"{first['field']}: {first['message']}"
        response.data = problem(response.status_code, code, detail, errors=errors)
    elif isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        response.data = problem(response.status_code, code, str(exc.detail))
    else:
        response.data = problem(
            response.status_code,
            "not_found" if response.status_code == 404 else "permission_denied",
            str(response.data.get("detail", "")),
        )
    return response


def bad_request(request, exception):
    """Django's 400 for a request refused before any view: a Host not in ALLOWED_HOSTS, a
    body over DATA_UPLOAD_MAX_MEMORY_SIZE."""
    if not request.path.startswith("/api/"):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        body = problem(413, "request_too_large", "The request body is too large.")
    elif isinstance(exception, DisallowedHost):
        body = problem(400, "invalid_host", "The Host header names no host this server serves.")
    else:
        body = problem(400, "bad_request", "The request is malformed.")
    return JsonResponse(body, status=body["status"])


def database_unavailable(request) -> HttpResponse:
    """A database failure outside DRF's views (a middleware, the session or auth middleware,
    the admin): 503 with Retry-After like the API's, not a 500; a plain page outside /api/."""
    metrics.DATABASE_ERRORS.inc()
    headers = {"Retry-After": str(PROBLEMS["database_unavailable"].retry_after)}
    if request.path.startswith("/api/"):
        body = problem(503, "database_unavailable", DATABASE_UNAVAILABLE)
        return JsonResponse(body, status=503, headers=headers)
    return HttpResponse(
        f"<!doctype html><title>Service unavailable</title><h1>Service unavailable</h1>"
        f"<p>{DATABASE_UNAVAILABLE}</p>",
        status=503,
        headers=headers,
    )


def server_error(request):
    """A bug: the traceback goes to the log, never into the answer. Django calls this while
    handling the exception, so a database failure is told apart here."""
    if isinstance(sys.exc_info()[1], DATABASE_FAILURES):
        return database_unavailable(request)
    if not request.path.startswith("/api/"):
        return defaults.server_error(request)
    detail = "The server failed to answer; the error was logged under this request_id."
    return JsonResponse(problem(500, "server_error", detail), status=500)


def _slash_twin(path: str) -> str | None:
    """The real route that differs from `path` only by a trailing slash, if there is one."""
    other = path.removesuffix("/") if path.endswith("/") else f"{path}/"
    try:
        resolve(other)
    except Resolver404:
        return None
    return other


def not_found(request, exception):
    """Django's 404 for a URL that no route matches (an unknown path, a match id that is not
    a UUID): under /api/ it is the API's problem body, like every other error there."""
    if request.path.startswith("/api/"):
        detail = "No such resource."
        other = _slash_twin(request.path)
        if other is not None:
            detail = f"No such resource; did you mean {other}? Only the trailing slash differs."
        return JsonResponse(problem(404, "not_found", detail), status=404)
    return defaults.page_not_found(request, exception)
