from tests.http.clients import live  # noqa: F401 (a shared fixture)
