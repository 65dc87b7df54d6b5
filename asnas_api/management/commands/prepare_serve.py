from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection


def refuse_unsafe_settings() -> None:
    """A production server must not show debug pages or sign with a guessable key."""
    if settings.DEBUG:
        raise CommandError("DEBUG is on. Turn it off, or pass --dev on a development machine.")
    key = settings.SECRET_KEY
    if len(key) < 50 or len(set(key)) < 5 or key.startswith("django-insecure-"):
        raise CommandError(
            "SECRET_KEY is weak (under 50 characters, or a 'django-insecure-' key). Set a "
            "strong one, leave it unset to use this installation's generated key, or pass --dev."
        )


class Command(BaseCommand):
    help = (
        "What `serve` runs once at start, in a short-lived process of its own (serve itself "
        "imports no Django): refuse unsafe settings, apply the migrations."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dev", action="store_true")
        parser.add_argument("--embedded", action="store_true", help="serve's own Postgres")

    def handle(self, *args, dev, embedded, verbosity, **options):
        if not dev:
            refuse_unsafe_settings()
        call_command("migrate", interactive=False, verbosity=verbosity)
        if embedded:
            with connection.cursor() as cursor:
                # After a crash Postgres fsyncs every file of its data directory one by one
                # before recovering (3 s here); one syncfs call does the same in a blink.
                cursor.execute("ALTER SYSTEM SET recovery_init_sync_method = 'syncfs'")
