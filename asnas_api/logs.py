"""Log formats beyond the access log's JSON lines (asnas_api.middleware)."""

import logging


class OneLine(logging.Formatter):
    """A record as one line: its logger, its message and the request id, never a traceback.

    For Django's security log (django.security.*): a bad Host, a body too large, a CSRF
    failure; and for its request log's 4xx (a page of the admin that does not exist). Anyone
    can send those, each is answered with a 4xx, and the traceback, always the same, would
    only fill the log, 1.3 to 4 kB a request."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{record.name}: {record.getMessage()}"
        request_id = getattr(getattr(record, "request", None), "request_id", None)
        if request_id is not None:
            line += f" request_id={request_id}"
        # The message may quote the request; no line break in it may start a line of its own.
        return line.replace("\r", "\\r").replace("\n", "\\n")


class BelowError(logging.Filter):
    """Django's request log writes a 4xx as a warning and a 5xx as an error: this passes the
    4xx, for one line each, and leaves the 5xx, a bug, to a handler that keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.ERROR
