"""Following the live endpoints (SSE streams, long-polls) in-process, for the tests: Django's
AsyncClient on an event loop in a thread of its own, while the test plays in its thread.
The writes commit (the tests use transactional_db), so the notices reach the listener of
that loop as they would a server's."""

import asyncio
import concurrent.futures
import json
import queue
import threading
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient

from games.live import wakeups


def parse_message(block: str) -> dict:
    """One SSE message: {"comment": text}, or its fields, with `id` an int and `data` the
    raw line (kept raw so a test can check its exact bytes) and `json` parsed."""
    fields: dict = {}
    for line in block.split("\n"):
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "":
            fields.setdefault("comment", value)
        else:
            assert name not in fields, f"field {name} twice in one message: {block!r}"
            fields[name] = value
    if "id" in fields:
        fields["id"] = int(fields["id"])
    if "data" in fields:
        fields["json"] = json.loads(fields["data"])
    return fields


async def sse_messages(response) -> AsyncIterator[dict]:
    """Each message of a streaming text/event-stream response, until the server ends it."""
    buffer = ""
    async for chunk in response.streaming_content:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            yield parse_message(block)
    assert buffer == "", f"the stream ended inside a message: {buffer!r}"


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class LiveClient:
    """An event loop in a thread, where streams are followed and long-polls wait."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine) -> concurrent.futures.Future:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def get(self, url: str, headers: dict | None = None):
        """The response of a GET, its streaming body not read yet."""
        return self.run(AsyncClient().get(url, headers=headers or {})).result(timeout=30)

    def follow(self, url: str, headers: dict, until=None) -> concurrent.futures.Future:
        """Every message of the stream at `url` until the server ends it, or up to the first
        for which `until(message)` is true."""

        async def collect() -> list[dict]:
            response = await AsyncClient().get(url, headers=headers)
            assert response.status_code == 200, response.content
            messages = []
            async for message in sse_messages(response):
                messages.append(message)
                if until is not None and until(message):
                    break
            return messages

        return self.run(collect())

    def open(self, url: str, headers: dict) -> queue.Queue:
        """The stream at `url`, message by message as they come: a queue that gets each
        message, then None when the server ends the stream."""
        messages: queue.Queue = queue.Queue()

        async def feed() -> None:
            response = await AsyncClient().get(url, headers=headers)
            assert response.status_code == 200, response.content
            async for message in sse_messages(response):
                messages.put(message)
            messages.put(None)

        self.run(feed())
        return messages

    def poll(self, url: str, headers: dict) -> concurrent.futures.Future:
        """(status, JSON body) of a GET whose body may come late: a long-poll."""

        async def answer() -> tuple[int, dict]:
            response = await AsyncClient().get(url, headers=headers)
            if not response.streaming:
                return response.status_code, response.json()
            body = b"".join([chunk async for chunk in response.streaming_content])
            return response.status_code, json.loads(body)

        return self.run(answer())

    def waiters(self) -> int:
        """How many streams and long-polls wait on this loop's listener."""

        async def count() -> int:
            return wakeups.listener().waiters()

        return self.run(count()).result(timeout=10)

    def wait_waiting(self, count: int = 1) -> None:
        """Until `count` streams or long-polls wait on this loop's listener: each has been let
        in and has read what there was, so a write after it cannot change whether it opens."""
        deadline = time.monotonic() + 10
        while self.waiters() < count:
            assert time.monotonic() < deadline, f"{self.waiters()} of {count} waiting"
            time.sleep(0.02)

    def wait_listening(self) -> None:
        """Until this loop's LISTEN connection listens: a write after it is announced by its
        notice alone (not by the read every waiter makes when the listener connects)."""

        async def listening() -> None:
            await asyncio.wait_for(wakeups.listener().listening.wait(), 10)

        self.run(listening()).result(timeout=15)

    def close(self) -> None:
        async def finish() -> None:
            # As asyncio.run ends: the tasks first, so that each stream's generators close in
            # the task that runs them, then whatever generators are left.
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.loop.shutdown_asyncgens()
            # The test client's requests ran their sync parts in asgiref's one thread: its
            # connection must go, or the test database cannot be dropped at the end.
            await sync_to_async(connections.close_all)()

        self.run(finish()).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


def next_event(messages: queue.Queue, timeout: float = 30) -> dict | None:
    """The next message of an opened stream that is not a comment (None: it ended)."""
    deadline = time.monotonic() + timeout
    while True:
        message = messages.get(timeout=max(0, deadline - time.monotonic()))
        if message is None or "comment" not in message:
            return message
