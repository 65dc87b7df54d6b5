"""WSGI entry point, for WSGI servers; `manage.py serve` runs the ASGI one (asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")

application = get_wsgi_application()
