"""The HTTP side of the terminal client: JSON requests to the API, its problem answers, and
the sessions saved between runs."""

import fcntl
import json
import os
import re
import urllib.error
import urllib.request
from pathlib import Path


class ApiProblem(Exception):
    """An error answer: its HTTP status and the problem body's code and detail."""

    def __init__(self, status: int, problem: dict, retry_after: int | None = None):
        super().__init__(problem.get("detail") or f"HTTP {status}")
        self.status = status
        self.code = problem.get("code")
        self.retry_after = retry_after
        """The seconds a 429 or 503 asks to wait before asking again, if it says."""


# ESC and the other C0 and C1 controls but tab and newline, and the line separators: the
# characters that steer a terminal rather than show on it.
_STEERING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def as_text(value):
    """What the server sent, each character that would steer the terminal replaced by
    U+FFFD. The API refuses such names now (edge.serializers.NameField), but a name stored
    before, or a server of another make, must not clear or retitle this screen."""
    if isinstance(value, str):
        return _STEERING.sub("\ufffd", value)
    if isinstance(value, list):
        return [as_text(item) for item in value]
    if isinstance(value, dict):
        return {key: as_text(item) for key, item in value.items()}
    return value


class Api:
    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/") + "/api/v1"
        self.token: str | None = None
        self.watch_code: str | None = None
        """A spectator's: sent as the Watch-Code header, never in a URL."""

    def __call__(self, method: str, path: str, body: dict | None = None) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.watch_code:
            headers["Watch-Code"] = self.watch_code
        data = json.dumps(body or {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.base_url + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return as_text(json.load(response))
        except urllib.error.HTTPError as error:
            try:
                problem = as_text(json.load(error))
            except ValueError:  # not the API answering, e.g. a proxy's error page
                problem = {}
            wait = error.headers.get("Retry-After", "")
            raise ApiProblem(error.code, problem, int(wait) if wait.isdigit() else None) from None


class Sessions:
    """Each server's token and unfinished match, in a JSON file that only its owner may
    read, since a token is as good as a password. Two plays may share the file (a friend
    joining from the same computer): each save holds a lock beside it while it reads and
    writes, and replaces the file whole, so neither reads a half-written file nor drops the
    other's session."""

    def __init__(self, path: Path, server: str):
        self.path = path
        self.server = server

    def _all(self) -> dict:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}

    def load(self) -> dict:
        return self._all().get(self.server, {})

    def save(self, session: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            sessions = {**self._all(), self.server: session}
            written = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            descriptor = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as state_file:
                json.dump(sessions, state_file, indent=2)
            os.replace(written, self.path)
        finally:
            os.close(lock)
