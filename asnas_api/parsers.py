import io
import re

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

# Deeper JSON is refused before it is parsed: no request of the API nests more than three
# levels, and Python's parser would hit its recursion limit at about 1,000.
MAX_JSON_DEPTH = 64

# A JSON string (escapes included) or one bracket; brackets inside strings do not nest.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


def json_depth(text: str) -> int:
    depth = deepest = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif bracket in "]}":
            depth -= 1
    return deepest


def has_lone_surrogate(value) -> bool:
    """JSON's \\ud800 escapes decode to lone surrogates, which no UTF-8 text (nor the
    database, nor an error message echoing them) can hold."""
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(
            has_lone_surrogate(key) or has_lone_surrogate(item) for key, item in value.items()
        )
    if isinstance(value, list):
        return any(has_lone_surrogate(item) for item in value)
    return False


class LimitedJSONParser(JSONParser):
    """JSON bodies up to settings.ASNAS_MAX_BODY_BYTES, nested at most MAX_JSON_DEPTH deep,
    with text that is valid Unicode. DRF reads the body as a stream, which Django's
    DATA_UPLOAD_MAX_MEMORY_SIZE does not cover."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.ASNAS_MAX_BODY_BYTES
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        text = body.decode("utf-8", errors="replace")
        if json_depth(text) > MAX_JSON_DEPTH:
            raise exceptions.ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH}.")
        data = super().parse(io.BytesIO(body), media_type, parser_context)
        if has_lone_surrogate(data):
            raise exceptions.ParseError("JSON parse error - a string holds a lone surrogate.")
        return data
