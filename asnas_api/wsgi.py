"""WSGI entry point; `manage.py serve` runs it under gunicorn."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")

application = get_wsgi_application()
