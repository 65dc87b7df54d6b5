"""The coaching room's cache: what keeps the coach's computations from crowding out everyone
else's requests in a worker: a cache of its answers shared by every match the worker
serves, and a cap on how many it computes at once (docs/ai.md, "Hints under load").

Both live in the process. A worker runs Python in one interpreter, so two hints computed at
once only share its one core between them and slow every other request in it: past
ASNAS_HINTS_AT_ONCE the rest are refused with 503 `hints_busy` and Retry-After, and a hint
found in the cache costs nothing and is never refused."""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from django.conf import settings

from games.ai.coach import Hint
from games.engine import DomainError


class AdviceCache:
    """The coach's answers by `advice_key`, the least recently used dropped past
    ASNAS_HINT_CACHE_SIZE entries (read at every store, so a test may change it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, Hint] = OrderedDict()

    def get(self, key: Hashable) -> Hint | None:
        with self._lock:
            advice = self._entries.get(key)
            if advice is not None:
                self._entries.move_to_end(key)
            return advice

    def put(self, key: Hashable, advice: Hint) -> None:
        with self._lock:
            self._entries[key] = advice
            self._entries.move_to_end(key)
            while len(self._entries) > max(0, settings.ASNAS_HINT_CACHE_SIZE):
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


ADVICE = AdviceCache()

_computing_lock = threading.Lock()
_computing = 0


@contextmanager
def computing_slot() -> Iterator[None]:
    """Holds one of the worker's ASNAS_HINTS_AT_ONCE places for a computation, or raises
    `hints_busy` at once when they are all taken: a wait would hold the request's thread and
    database connection for as long as the hints ahead of it take."""
    global _computing
    with _computing_lock:
        if _computing >= settings.ASNAS_HINTS_AT_ONCE:
            raise DomainError(
                "hints_busy",
                f"This server is computing {_computing} hint(s), as many as it does at once;"
                " retry shortly.",
            )
        _computing += 1
    try:
        yield
    finally:
        with _computing_lock:
            _computing -= 1


def cached_advice(key: Hashable, compute: Callable[[], Hint]) -> Hint:
    """The advice for `key`: from the cache, or computed in a slot and stored."""
    advice = ADVICE.get(key)
    if advice is None:
        with computing_slot():
            advice = compute()
        ADVICE.put(key, advice)
    return advice
