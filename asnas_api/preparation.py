"""What `serve` runs once at start, in a short-lived process of its own while granian starts
(asnas_api.supervisor): refuse unsafe settings, apply the migrations, and on the embedded
Postgres make crash recovery fast. `python -m asnas_api.preparation [--dev] [--embedded]`.

On an existing data directory there is usually nothing to migrate, and finding that out the
Django way (its setup, the migration graph) cost a second and a half of CPU while the workers
were starting on the same cores. So the applied migrations are compared with the files on
disk first, with the settings module alone and one query; only when a file is not applied
yet (or anything is unclear) does it set Django up and run `migrate`.
"""

import argparse
import importlib
import importlib.util
import os
import sys
from pathlib import Path

import psycopg


class UnsafeSettings(Exception):
    pass


def refuse_unsafe_settings(settings) -> None:
    """A production server must not show debug pages or sign with a guessable key."""
    if settings.DEBUG:
        raise UnsafeSettings("DEBUG is on. Turn it off, or pass --dev on a development machine.")
    key = settings.SECRET_KEY
    if len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-"):
        raise UnsafeSettings(
            "SECRET_KEY is weak (under 50 characters, or a 'django-insecure-' key). Set a "
            "strong one, leave it unset to use this installation's generated key, or pass --dev."
        )


def migration_names(app: str) -> set[str]:
    """The migrations on disk of an installed app (its module path, e.g.
    django.contrib.auth), found without importing the app: only its top package."""
    top, *rest = app.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        return set()
    directory = Path(spec.submodule_search_locations[0]).joinpath(*rest, "migrations")
    return {path.stem for path in directory.glob("*.py") if path.stem != "__init__"}


def all_applied(settings, database_url: str) -> bool:
    """Whether every migration file of every installed app is recorded as applied. An app's
    label is taken to be its last name (true of every app installed here); were it not, a
    file would look unapplied and `migrate` would run: slower, never wrong."""
    try:
        with psycopg.connect(database_url, connect_timeout=10) as connection:
            applied = set(connection.execute("SELECT app, name FROM django_migrations"))
    except psycopg.errors.UndefinedTable:
        return False  # a fresh database
    return all(
        (app.rsplit(".", 1)[-1], name) in applied
        for app in settings.INSTALLED_APPS
        for name in migration_names(app)
    )


def migrate(verbosity: int) -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=verbosity)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m asnas_api.preparation")
    parser.add_argument("--dev", action="store_true", help="allow DEBUG and a weak SECRET_KEY")
    parser.add_argument("--embedded", action="store_true", help="serve's own Postgres")
    parser.add_argument("--verbosity", type=int, default=1)
    options = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "asnas_api.settings")
    settings = importlib.import_module(os.environ["DJANGO_SETTINGS_MODULE"])
    if not options.dev:
        try:
            refuse_unsafe_settings(settings)
        except UnsafeSettings as error:
            print(f"CommandError: {error}", file=sys.stderr)
            return 1
    database_url = os.environ["DATABASE_URL"]  # serve hands its database to its children
    if not all_applied(settings, database_url):
        migrate(options.verbosity)
    if options.embedded:
        # After a crash Postgres fsyncs every file of its data directory one by one before
        # recovering (3 s here); one syncfs call does the same in a blink.
        with psycopg.connect(database_url, autocommit=True) as connection:
            connection.execute("ALTER SYSTEM SET recovery_init_sync_method = 'syncfs'")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
