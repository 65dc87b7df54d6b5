"""The check every error test shares: the problem body, and its code in the registry."""

from edge.problems import PROBLEMS


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == "about:blank"
    assert body["title"] and body["detail"]
    # Every code a client can get is in the registry, with the status it is answered with.
    assert PROBLEMS[code].status == status, code
    assert body["title"] == PROBLEMS[code].title
    return body
