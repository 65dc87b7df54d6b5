"""Log formats beyond the access log's JSON lines (asnas_api.middleware)."""

import logging


class OneLine(logging.Formatter):
    """A record as one line: its logger, its message and the request id, never a traceback.

    For Django's security log (django.security.*): a bad Host, a body too large, a CSRF
    failure. Anyone can send those, each is answered with a 4xx, and the traceback, always the
    same, would only fill the log, about 1.3 kB a request."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{record.name}: {record.getMessage()}"
        request_id = getattr(getattr(record, "request", None), "request_id", None)
        if request_id is not None:
            line += f" request_id={request_id}"
        # The message may quote the request; no line break in it may start a line of its own.
        return line.replace("\r", "\\r").replace("\n", "\\n")
