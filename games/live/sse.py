"""How the live reads frame what they send: Server-Sent Events, and JSON as DRF writes it."""

from rest_framework.renderers import JSONRenderer

HEARTBEAT = ": keep-alive\n\n"


def as_json(data) -> str:
    """As DRF writes every other body: compact, UTF-8."""
    return JSONRenderer().render(data).decode()


def sse(event: str, data: dict, event_id: int | None = None) -> str:
    """One Server-Sent Event. JSON holds no raw newline, so `data` is one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {as_json(data)}\n\n"
