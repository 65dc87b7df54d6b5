"""ASGI entry point, served by granian (see docs/deployment.md).

The probes are answered here, before Django; everything else goes to Django."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")

django_application = get_asgi_application()

from asnas_api.health import PROBES  # noqa: E402 (needs the settings configured above)


async def application(scope, receive, send):
    probe = PROBES.get(scope["path"]) if scope["type"] == "http" else None
    handler = probe or django_application
    await handler(scope, receive, send)
