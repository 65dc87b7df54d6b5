"""ASGI entry point, served by granian (see docs/deployment.md).

The probes are answered here, before Django; everything else goes to Django, with the time its
request was whole in the scope, so that its deadline runs from there and not from when
Django's one thread per worker gets to it (asnas_api.deadline).

Django's own ASGIHandler would do the same work with a new thread per request and five hops
between it and the event loop; measured beside it in one run (by hand, not by the bench,
which cannot swap handlers), it cost about 1 ms more of server CPU on every request and
doubled the floor of a bare DRF GET, so this entry stays."""

# Imported first, before the second or more of imports and setup below: a worker told to
# stop while it starts stops at once, and one that serves ends its streams first.
import asnas_api.worker  # noqa: F401

# isort: split
import asyncio
import contextlib
import gc
import os
import threading
import time
import uuid
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextvars import ContextVar

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler, with each request's sync work done in one hop to the request's
    thread: the start signal, the middleware chain (built for sync, as under WSGI) with the
    view, and, for a whole (not streamed) answer, its close, which gives the database
    connection back before the bytes go out. Every middleware here is sync (Django's own run
    their hooks in a thread of their own when async), so Django's own handler would go to the
    thread for the signal, for the chain, back to the event loop for the view's handler, to the
    thread again for the view, and once more for the close: each hop is a wake-up of the
    thread and of the event loop, which cost more CPU than the view.

    A streamed answer (an event stream, a long-poll, a static file) is sent as Django sends
    it, watching for the client going away, and closed in a hop of its own at its end."""

    def __init__(self):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            await unreadable_body(scope, send)
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            if not response.streaming:
                try:
                    await self.send_response(response, send)
                except asyncio.CancelledError:
                    pass  # the client went away while it was sent
                return
            if getattr(response, "holds_no_connection", False):
                # A stream (or a long-poll) whose thread gave its connections back: it streams
                # on the event loop, for hours maybe, and needs its thread again only to close.
                thread = _request_thread.get(None)
                if thread is not None:
                    thread.release()
            await self._stream(response, receive, send)
        finally:
            body_file.close()

    def _respond(self, scope, body_file) -> HttpResponseBase:
        """The request's answer, in its thread; a whole one already closed."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response

    async def _stream(self, response, receive, send) -> None:
        """Django's own sending of a streamed answer: cut short when the client goes away."""

        async def send_all():
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass

        tasks = [
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(send_all()),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                with contextlib.suppress(RequestAborted):
                    task.result()
            else:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await sync_to_async(response.close, thread_sensitive=True)()


django.setup(set_prefix=False)
django_application = OneHopASGIHandler()

from asnas_api.clock import clock_in_this_worker  # noqa: E402 (needs the settings above)
from asnas_api.deadline import ARRIVED  # noqa: E402
from asnas_api.health import PROBES, PROBLEM_TYPE, not_prepared, send_json  # noqa: E402
from asnas_api.worker import CLOCK_IN_WORKERS, PREPARED_FILE  # noqa: E402
from edge.problems import problem  # noqa: E402
from games.ai.coach import warm  # noqa: E402


def warm_and_freeze() -> None:
    """The coach's tables are mapped here (built first if no process did yet), as the worker
    starts and while it already answers, rather than inside the first hint's request
    deadline. Then everything the worker made so far (Django, the URLs, the AI's tables:
    objects that live as long as it) is moved out of the garbage
    collector's sight: each full collection walked them all, 100 to 150 ms of the CPU of
    whichever request it fell in, and now 2 to 30 ms (docs/streams.md)."""
    warm()
    gc.collect()
    gc.freeze()


class Preparation:
    """Under serve, whether its preparation of the database (migrations, in a process of its
    own, started with granian so that both start-ups overlap) is done: until then every
    request but /healthz is answered 503 with Retry-After. One stat call per request until the
    file is seen, none after."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.done = path is None

    def __call__(self) -> bool:
        if not self.done:
            self.done = os.path.exists(self.path)
        return self.done


prepared = Preparation(os.environ.get(PREPARED_FILE))
threading.Thread(target=warm_and_freeze, name="coach-warm-up", daemon=True).start()
if os.environ.get(CLOCK_IN_WORKERS):
    clock_in_this_worker(prepared=prepared)

# Django runs each request's sync code in a thread-sensitive context that, left to itself,
# starts a thread for the request and stops it afterwards. A request here takes an idle
# one-thread executor instead and gives it back: threads, and with them the thread-bound
# database connection wrappers, live on. There are as many as requests ran at once in
# their views: a streamed answer gives its thread back as its body starts (above), so open
# streams and long-polls hold none. Past IDLE_THREADS_KEPT idle ones, a thread given back
# ends, so that a burst of requests does not leave its threads behind for good.
IDLE_THREADS_KEPT = 16  # the pool's connections: more requests at once wait for one anyway
_idle_executors: list[ThreadPoolExecutor] = []


def _idle_executor() -> ThreadPoolExecutor:
    return (
        _idle_executors.pop()
        if _idle_executors
        else ThreadPoolExecutor(max_workers=1, thread_name_prefix="django")
    )


def _give_back(executor: ThreadPoolExecutor) -> None:
    if len(_idle_executors) < IDLE_THREADS_KEPT:
        _idle_executors.append(executor)
    else:
        executor.shutdown(wait=False)


class RequestThread(Executor):
    """The one thread a request's sync code runs in, from its start signal to its view's
    answer and on to its close. A streamed answer releases it as its body starts; its close,
    which needs no thread of its own (its connections went back already), then borrows an
    idle one for that call."""

    def __init__(self) -> None:
        self._held: ThreadPoolExecutor | None = _idle_executor()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        if self._held is not None:
            return self._held.submit(fn, *args, **kwargs)
        borrowed = _idle_executor()
        future = borrowed.submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: _give_back(borrowed))
        return future

    def release(self) -> None:
        if self._held is not None:
            _give_back(self._held)
            self._held = None


_request_thread: ContextVar[RequestThread] = ContextVar("request_thread")


async def unreadable_body(scope, send) -> None:
    """granian tells a body it cannot decode (a chunk size that is not hex) as the client's
    going away, though the client still waits: answered nothing, it would get granian's bare
    500. Nothing tells the two apart, so both get the 400; a client gone never reads it."""
    request_id = uuid.uuid4().hex
    body = problem(400, "bad_request", "The request body could not be read.", request_id=request_id)
    with contextlib.suppress(Exception):  # the client may indeed be gone
        await send_json(send, 400, body, ((b"x-request-id", request_id.encode()),), PROBLEM_TYPE)


async def in_a_reused_thread(scope, receive, send) -> None:
    thread = RequestThread()
    token = _request_thread.set(thread)
    try:
        async with ThreadSensitiveContext(executor=thread):
            await django_application(scope, receive, send)
    finally:
        thread.release()
        _request_thread.reset(token)


async def application(scope, receive, send):
    if scope["type"] != "http":
        return await django_application(scope, receive, send)
    if not prepared() and scope["path"] != "/healthz":
        return await not_prepared(scope, receive, send)
    probe = PROBES.get(scope["path"])
    if probe is not None:
        return await probe(scope, receive, send)
    scope = {**scope}  # Django's request keeps this very dict as its `scope`

    async def receive_and_stamp():
        message = await receive()
        if message["type"] == "http.request" and not message.get("more_body"):
            scope.setdefault(ARRIVED, time.monotonic())
        return message

    await in_a_reused_thread(scope, receive_and_stamp, send)
