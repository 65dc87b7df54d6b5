"""games.http.examples' script played through the HTTP API: the Table the schema's examples are
checked against."""

from games.http.examples import EXAMPLE_AI_LEVEL, EXAMPLE_SEED


class ApiTable:
    """Each method one API request of the test client's player; each answer's JSON body."""

    def __init__(self, client) -> None:
        self.client = client

    def _answer(self, method: str, url: str, body: dict | None = None, status: int = 200) -> dict:
        response = getattr(self.client, method)(f"/api/v1/{url}", body, format="json")
        assert response.status_code == status, response.json()
        return response.json()

    def create(self) -> tuple[str, dict]:
        body = {"seed": EXAMPLE_SEED, "ai_level": EXAMPLE_AI_LEVEL}
        view = self._answer("post", "matches", body, status=201)
        return view["id"], view

    def act(self, match: str, action: str) -> dict:
        return self._answer("post", f"matches/{match}/actions", {"action": action})

    def next_deal(self, match: str) -> dict:
        return self._answer("post", f"matches/{match}/next-deal")

    def restart(self, match: str) -> dict:
        return self._answer("post", f"matches/{match}/restart")

    def resign(self, match: str) -> dict:
        return self._answer("post", f"matches/{match}/resign")

    def retrieve(self, match: str) -> dict:
        return self._answer("get", f"matches/{match}")

    def events(self, match: str) -> dict:
        return self._answer("get", f"matches/{match}/events")

    def list(self) -> dict:
        return self._answer("get", "matches")
