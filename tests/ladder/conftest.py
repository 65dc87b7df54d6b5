from tests.http.clients import client, make_client  # noqa: F401 (shared fixtures)
