"""Liveness and readiness probes: plain Django views, no auth, kept cheap."""

from django.db import Error, connection
from django.http import JsonResponse


def healthz(request):
    """The process is alive; touches no database."""
    return JsonResponse({"status": "ok"})


def readyz(request):
    """The database answers."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Error:
        return JsonResponse({"status": "unavailable"}, status=503)
    return JsonResponse({"status": "ready"})
