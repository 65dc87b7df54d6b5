"""Following a match live: a thread long-polls the match's events and hands them to the game
loop, waking it through a pipe that a screen can wait on beside the keyboard."""

import os
import queue
import threading
import time

from terminal.api import Api, ApiProblem

# Seconds the server holds a long-poll open when nothing happens (it allows up to 30).
WAIT_SECONDS = 25
# A server that answers at once with nothing new (one without long-poll, or a proxy that
# cuts it short) is asked again after this long, not in a tight loop.
MIN_POLL_SECONDS = 1.0


class Follower:
    """The events of one match after `after` from `path` (its events, as this player or a
    spectator may see them), delivered while the game loop waits for keys. `wake` is a file
    descriptor that turns readable when there is news; `news()` takes it. Stops by itself
    after an error, which `news()` then raises."""

    def __init__(self, api: Api, path: str, after: int):
        self.wake, self._signal = os.pipe()
        self._api = api
        self._path = path
        self._after = after
        self._news: queue.SimpleQueue[list[dict] | Exception] = queue.SimpleQueue()
        self._stopped = threading.Event()
        # A daemon: a long-poll in flight must not keep the program alive after you leave.
        threading.Thread(target=self._run, name="follower", daemon=True).start()

    def news(self) -> list[dict]:
        """The events that arrived since the last call, oldest first; never blocks."""
        events = []
        while not self._news.empty():
            os.read(self.wake, 1)
            item = self._news.get()
            if isinstance(item, Exception):
                raise item
            events += item
        return events

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        while not self._stopped.is_set():
            asked = time.monotonic()
            try:
                page = self._api("GET", f"{self._path}?after={self._after}&wait={WAIT_SECONDS}")
            except (ApiProblem, OSError) as error:
                if not self._stopped.is_set():
                    self._deliver(error)
                return
            if page["events"]:
                self._after = page["events"][-1]["seq"]
                self._deliver(page["events"])
            else:
                self._stopped.wait(MIN_POLL_SECONDS - (time.monotonic() - asked))

    def _deliver(self, item: list[dict] | Exception) -> None:
        self._news.put(item)
        os.write(self._signal, b".")
