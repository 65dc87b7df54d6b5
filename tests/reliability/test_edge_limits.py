"""The client address can't be forged; requests without a valid token count against their
address; the schema is generated once; expired rows are purged while serving, by the turn
clock and never in a request."""

import ipaddress
import threading
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.test import RequestFactory
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from asnas_api import housekeeping
from asnas_api.clock import clock_run
from asnas_api.gate import LONGEST_PERIOD
from asnas_api.models import RateCounter
from edge.client_address import budget_address, client_address
from edge.schema import CachedSchemaView
from games.models import IdempotencyRecord
from tests.reliability.support import assert_edge_problem

pytestmark = pytest.mark.django_db


def address(forwarded: str, remote: str = "192.0.2.1") -> str:
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    return client_address(request)


def test_without_proxies_x_forwarded_for_is_ignored(settings):
    settings.ASNAS_NUM_PROXIES = 0
    assert address("203.0.113.9") == "192.0.2.1"


def test_with_n_proxies_the_nth_address_from_the_right_counts(settings):
    settings.ASNAS_NUM_PROXIES = 2
    assert address("6.6.6.6, 203.0.113.9, 10.0.0.5") == "203.0.113.9"
    assert address("10.0.0.5") == "192.0.2.1"  # fewer hops than proxies: not through them
    assert address("not-an-address, 10.0.0.5") == "192.0.2.1"


def test_with_trusted_networks_the_rightmost_untrusted_address_counts(settings):
    settings.ASNAS_TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.0/8")]
    assert address("6.6.6.6, 203.0.113.9, 10.0.0.7", remote="10.0.0.5") == "203.0.113.9"
    # A client that talks to the server directly is itself the address, whatever it forwards.
    assert address("10.0.0.7", remote="198.51.100.4") == "198.51.100.4"


def test_rotating_forwarded_addresses_do_not_escape_the_limit(rates):
    rates(player_create="2/hour")
    client = APIClient()
    answers = [
        client.post(
            "/api/v1/players", {"name": "Roya"}, format="json", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}"
        ).status_code
        for n in range(5)
    ]
    assert answers == [201, 201, 429, 429, 429]


@pytest.mark.parametrize(
    ("remote", "counted"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("not-an-address", "not-an-address"),
    ],
)
def test_a_budget_per_address_counts_an_ipv6_clients_whole_64(remote, counted):
    request = RequestFactory().get("/", REMOTE_ADDR=remote)
    assert budget_address(request) == counted


def test_hopping_within_an_ipv6_64_does_not_escape_the_limit(rates):
    """A home or host gets a whole /64 and may take any address in it, as privacy addresses
    do: each new address is not a new budget. Another /64 is another client."""
    rates(player_create="2/hour")
    answers = [
        APIClient(REMOTE_ADDR=f"2001:db8:1:2::{n:x}")
        .post("/api/v1/players", {"name": "Roya"}, format="json")
        .status_code
        for n in range(1, 5)
    ]
    assert answers == [201, 201, 429, 429]
    other = APIClient(REMOTE_ADDR="2001:db8:1:3::1")
    assert other.post("/api/v1/players", {"name": "Roya"}, format="json").status_code == 201


@pytest.mark.parametrize("proxies", [0, 1])
def test_no_header_makes_a_rate_limit_key_too_long(settings, proxies):
    settings.ASNAS_NUM_PROXIES = proxies
    response = APIClient().post(
        "/api/v1/players", {"name": "Roya"}, format="json", HTTP_X_FORWARDED_FOR="1" * 5_000
    )
    assert response.status_code == 201, response.content
    assert {len(key) for key in RateCounter.objects.values_list("key", flat=True)} <= {
        len("player_create:") + 32,
        len("ip:") + 32,
    }


@pytest.mark.parametrize("token", [None, "Bearer not-a-token"])
def test_requests_without_a_valid_token_count_against_the_address(rates, token):
    rates(ip="3/min")
    client = APIClient()
    if token:
        client.credentials(HTTP_AUTHORIZATION=token)
    answers = [client.get("/api/v1/players/me").status_code for _ in range(5)]
    assert answers == [401, 401, 401, 429, 429]
    assert_edge_problem(client.get("/api/v1/matches"), 429, "throttled")


def test_the_schema_is_generated_once_per_process(monkeypatch):
    CachedSchemaView.rendered.clear()
    generated = []
    original = SchemaGenerator.get_schema

    def counting(self, *args, **kwargs):
        generated.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counting)
    client = APIClient()
    first, *repeats = [client.get("/api/schema/") for _ in range(5)]
    as_json = client.get("/api/schema/?format=json")
    assert first.status_code == 200
    assert first["Content-Type"].startswith("application/vnd.oai.openapi")
    assert all(repeat.content == first.content for repeat in repeats)
    assert as_json.json()["openapi"].startswith("3.")
    assert len(generated) == 2  # once for YAML, once for JSON


def clock_passes(passes: int) -> None:
    """Run the turn clock in this thread for `passes` rounds of its loop, then stop it."""
    stop = threading.Event()
    left = iter(range(passes))
    clock_run(stop=stop, leading=lambda: next(left, None) is not None or stop.set() or False)


def test_expired_rows_stay_bounded_while_serving(settings, client):
    """Churn: every round leaves expired counters and keys behind, as a day of traffic
    would; requests keep arriving, and the purge that the turn clock runs while serving
    keeps the tables to the rows that are still live."""
    settings.ASNAS_PURGE_INTERVAL_SECONDS = 0
    settings.ASNAS_CLOCK_POLL_SECONDS = 0
    long_ago = int(time.time()) - 2 * 86_400
    sizes = []
    for round_ in range(10):
        RateCounter.objects.bulk_create(
            RateCounter(key=f"ip:churn-{round_}-{n}", window_start=long_ago, hits=1)
            for n in range(200)
        )
        IdempotencyRecord.objects.bulk_create(
            IdempotencyRecord(
                player=client.player,
                key=f"churn-{round_}-{n}",
                fingerprint="0" * 64,
                status_code=201,
                response={},
                created_at=timezone.now() - timedelta(hours=25),
            )
            for n in range(50)
        )
        assert client.get("/api/v1/players/me").status_code == 200
        clock_passes(1)
        starts = list(RateCounter.objects.values_list("window_start", flat=True))
        expired = sum(start < time.time() - LONGEST_PERIOD for start in starts)
        newest = starts.count(max(starts, default=0))
        sizes.append((expired, newest, IdempotencyRecord.objects.count()))
    # No expired counter or key, and this window's ip and token counters. The rounds may
    # cross into the next minute's window (more often on a busy machine): the last
    # window's two counters are still live then, and stay beside the new window's two.
    assert sizes == [(0, 2, 0)] * 10


def test_a_request_does_no_purge_work(settings, client):
    """However overdue the purge is, a request leaves it to the clock: no purge runs in it,
    and the expired rows are still there after it."""
    settings.ASNAS_PURGE_INTERVAL_SECONDS = 0
    RateCounter.objects.create(key="ip:expired", window_start=0, hits=1)
    with mock.patch.object(
        housekeeping, "purge_rate_counters", wraps=housekeeping.purge_rate_counters
    ) as purge:
        for _ in range(3):
            assert client.get("/api/v1/players/me").status_code == 200
    assert purge.call_count == 0
    assert RateCounter.objects.filter(key="ip:expired").exists()


@pytest.mark.parametrize(("interval", "purges"), [(3600, 1), (0, 5)])
def test_the_clock_purges_at_once_then_once_per_interval(settings, interval, purges):
    settings.ASNAS_PURGE_INTERVAL_SECONDS = interval
    settings.ASNAS_CLOCK_POLL_SECONDS = 0
    with mock.patch.object(housekeeping, "purge_rate_counters", return_value=0) as purge:
        clock_passes(5)
    assert purge.call_count == purges
