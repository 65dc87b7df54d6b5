"""The one place where errors become HTTP responses.

Every error body has one shape, modelled on RFC 9457 problem details:
`{"type", "title", "status", "code", "detail"}`, plus `errors` (one entry per bad
field) for validation errors. `code` is stable and machine-readable.
"""

from http import HTTPStatus

from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from asnas_api import metrics
from games.engine import RuleError


class ApiError(Exception):
    """A refusal raised by a service, with its HTTP status and stable code."""

    def __init__(self, status: int, code: str, detail: str, headers: dict | None = None):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers


# Rule errors about what the seat tried to do are 422; the rest say the match is not in a
# state for the request, which is a conflict.
_UNPROCESSABLE_RULES = {"illegal_action", "already_looked", "invalid_seat"}


def problem(status: int, code: str, detail: str, **extra) -> dict:
    return {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }


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
    if isinstance(exc, RuleError):
        status = 422 if exc.code in _UNPROCESSABLE_RULES else 409
        exc = ApiError(status, exc.code, exc.detail)
    if isinstance(exc, OperationalError | InterfaceError):
        # Down, hung past the request's deadline (asnas_api.deadline), or a timeout: the
        # request may be retried; the pool replaces broken connections by itself.
        metrics.DATABASE_ERRORS.inc()
        exc = ApiError(
            503,
            "database_unavailable",
            "The database is unavailable; try again shortly.",
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, ApiError):
        return Response(
            problem(exc.status, exc.code, exc.detail), status=exc.status, headers=exc.headers
        )
    # DRF's own handler turns Http404, PermissionDenied and APIExceptions into responses
    # with the right status and headers (WWW-Authenticate, Retry-After); only the body changes.
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        first = errors[0]
        detail = (
            first["message"]
            if first["field"] == "non_field_errors"
            else f"{first['field']}: {first['message']}"
        )
        response.data = problem(response.status_code, "validation_error", detail, errors=errors)
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


def not_found(request, exception):
    """Django's 404 for a URL that no route matches (an unknown path, a match id that is not
    a UUID): under /api/ it is the API's problem body, like every other error there."""
    if request.path.startswith("/api/"):
        return JsonResponse(problem(404, "not_found", "No such resource."), status=404)
    return defaults.page_not_found(request, exception)
