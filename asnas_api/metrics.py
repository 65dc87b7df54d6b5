"""Operators' view of the service: /metrics in Prometheus text format.

`manage.py serve` points PROMETHEUS_MULTIPROC_DIR at a fresh directory before any process
imports prometheus_client, so the counts of every worker (and serve's own) add up.
/metrics answers only a client on this machine, judged by the socket's address (Django's
REMOTE_ADDR under ASGI), never a forwarded header, unless ASNAS_METRICS_PUBLIC is on.
"""

import ipaddress
import os
import time

from django.conf import settings
from django.db import DatabaseError
from django.http import Http404, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from games.match.queries import match_count_in_play

REQUESTS = Counter(
    "asnas_http_requests", "Requests Django answered.", ["route", "method", "status"]
)
LATENCY = Histogram(
    "asnas_http_request_duration_seconds",
    "Time Django spent on a request.",
    ["route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
DATABASE_ERRORS = Counter(
    "asnas_database_errors", "Requests answered 503 because the database failed."
)
# Counted by serve's supervisor (asnas_api.supervisor); made here too so that every worker's
# /metrics shows it at 0 before any restart.
POSTGRES_RESTARTS = Counter(
    "asnas_embedded_postgres_restarts", "Times serve restarted its dead embedded Postgres."
)
CLOCK_MOVES = Counter(
    "asnas_clock_moves", "Moves of the turn clock: a late human's turn, or a next deal.", ["kind"]
)
CLOCK_LATENESS = Histogram(
    "asnas_clock_lateness_seconds",
    "How long after a turn's deadline the clock took it (the grace included).",
    buckets=(0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 5, 10, 60),
)


class MetricsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        # The route pattern, not the path: one series per endpoint, not per match id.
        match = request.resolver_match
        route = match.route if match else "unmatched"
        LATENCY.labels(route).observe(time.perf_counter() - started)
        REQUESTS.labels(route, request.method, response.status_code).inc()
        return response


class MatchesInPlay:
    """Read at scrape time: a count of the database, not of any one process."""

    def collect(self):
        gauge = GaugeMetricFamily("asnas_matches_in_play", "Matches not finished.")
        try:
            gauge.add_metric([], match_count_in_play())
        except DatabaseError:
            return  # no sample rather than a wrong one; the database errors count shows why
        yield gauge


def metrics_view(request):
    if not settings.ASNAS_METRICS_PUBLIC and not _is_loopback(request.META.get("REMOTE_ADDR")):
        raise Http404  # as if it were not there
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    registry.register(collector := MatchesInPlay())
    try:
        body = generate_latest(registry)
    finally:
        registry.unregister(collector)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def _is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
