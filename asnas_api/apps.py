from django.apps import AppConfig
from django.conf import settings
from django.db.backends.signals import connection_created

from asnas_api import pooler


class AsnasApiConfig(AppConfig):
    name = "asnas_api"

    def ready(self):
        if settings.ASNAS_DB_POOLER == "transaction":
            connection_created.connect(pooler.install)
