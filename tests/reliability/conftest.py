from tests.api.conftest import client, make_client, new_match  # noqa: F401 (shared fixtures)
