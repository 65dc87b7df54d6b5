"""manage.py bot --engine "COMMAND": the bot bridge of examples/bot_bridge.py, as it is.

The bridge needs nothing of the server's code, so a bot's author runs the example itself with
any Python; this command runs the same file (its main, with the same arguments) for those
who have this checkout (docs/bots.md)."""

import runpy
import sys

from django.conf import settings
from django.core.management.base import BaseCommand

BRIDGE = settings.BASE_DIR / "examples" / "bot_bridge.py"


class Command(BaseCommand):
    help = (
        'Play a bot account\'s matches for a program ("engine") that speaks the line protocol '
        "asnas-bot/1 of docs/bots.md; the arguments are examples/bot_bridge.py's (--help)."
    )

    def run_from_argv(self, argv: list[str]) -> None:
        # The bridge's own parser reads the arguments, so both ways to run it take the same.
        bridge = runpy.run_path(str(BRIDGE))
        sys.exit(bridge["main"](argv[2:]))
