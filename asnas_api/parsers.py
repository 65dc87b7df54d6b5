import io

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


class LimitedJSONParser(JSONParser):
    """JSON bodies up to settings.ASNAS_MAX_BODY_BYTES. DRF reads the body as a stream,
    which Django's DATA_UPLOAD_MAX_MEMORY_SIZE does not cover."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.ASNAS_MAX_BODY_BYTES
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        return super().parse(io.BytesIO(body), media_type, parser_context)
