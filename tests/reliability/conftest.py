import pytest

from tests.http.clients import client, make_client, new_match  # noqa: F401 (shared fixtures)

GENEROUS = "1000/min"


@pytest.fixture
def rates(settings, still_gate_clock):
    """Set the limits for one test; every scope not named stays generous. The limits' clock
    stands still meanwhile (tests/conftest.py)."""

    def set_rates(**limits):
        table = {
            scope: GENEROUS
            for scope in ("token", "ip", "player_create", "match_create", "hint", "hint_address")
            + ("bot_token", "bot_match_create")
        }
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**table, **limits},
        }

    return set_rates
