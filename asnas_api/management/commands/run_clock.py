import signal
import threading

from django.core.management.base import BaseCommand

from asnas_api.clock import clock_run

READY = "The turn clock runs."
"""Written once it is ready: what waits for it reads this line."""


class Command(BaseCommand):
    help = (
        "Run the turn clock until SIGTERM or Ctrl-C: act for humans whose turn ran out and "
        "start the next deal of clocked matches, and purge expired rows. serve runs it in its "
        "workers; run more on other machines "
        "if you like, as every move happens exactly once."
    )

    def handle(self, *args, **options):
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, lambda signum, frame: stop.set())
        self.stdout.write(READY, ending="\n")
        self.stdout.flush()
        clock_run(stop=stop)
