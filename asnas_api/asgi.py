"""ASGI entry point, served by granian (see docs/deployment.md).

The probes are answered here, before Django; everything else goes to Django, with the time its
request was whole in the scope, so that its deadline runs from there and not from when
Django's one thread per worker gets to it (asnas_api.deadline)."""

import os
import time

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")

django_application = get_asgi_application()

from asnas_api.deadline import ARRIVED  # noqa: E402 (needs the settings configured above)
from asnas_api.health import PROBES  # noqa: E402


async def application(scope, receive, send):
    if scope["type"] != "http":
        return await django_application(scope, receive, send)
    probe = PROBES.get(scope["path"])
    if probe is not None:
        return await probe(scope, receive, send)
    scope = {**scope}  # Django's request keeps this very dict as its `scope`

    async def receive_and_stamp():
        message = await receive()
        if message["type"] == "http.request" and not message.get("more_body"):
            scope.setdefault(ARRIVED, time.monotonic())
        return message

    await django_application(scope, receive_and_stamp, send)
