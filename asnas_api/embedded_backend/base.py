"""Django's PostgreSQL backend on the embedded Postgres of DATA_DIR (settings without
DATABASE_URL): the first connection of the process starts the server, or attaches to the one
running, through asnas_api.embedded_db's one entry point; importing the settings starts
nothing."""

import dj_database_url
from django.db.backends.postgresql import base

from asnas_api import embedded_db


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        if not self.settings_dict["OPTIONS"].get("host"):
            where = dj_database_url.parse(embedded_db.attach_default())
            # Where the server listens: its unix socket, its user. The database's name stays
            # the settings' own (the tests' `test_` copy renames it).
            self.settings_dict["USER"] = where["USER"]
            self.settings_dict["OPTIONS"]["host"] = where["OPTIONS"]["host"]
        return super().get_connection_params()
