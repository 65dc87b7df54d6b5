import pytest

from tests.http.clients import client, make_client  # noqa: F401 (shared fixtures)


@pytest.fixture(autouse=True)
def mapped_tables(coach_tables_mapped):
    """The AI's tables mapped, as in a server worker soon after it starts: a benchmark's read
    values a match's deals only then (a test of the time before patches `mapped`)."""
