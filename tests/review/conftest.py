from tests.http.clients import client, live, make_client, new_match  # noqa: F401 (shared fixtures)
