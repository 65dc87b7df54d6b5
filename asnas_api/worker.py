"""How a granian worker of `manage.py serve` stops, whenever SIGTERM or SIGINT reaches it:
from granian's master, from serve, or from whoever signals every process at once (systemd's
KillMode=control-group). asnas_api.asgi imports this module first, which sets both up.

- While it starts (Django's setup, the URLs, the AI's tables: a second or more), it dies at
  once. A forked worker inherits the master's handler, which there only flips a flag in a
  copy of the master: the signal was lost, and the worker went on to serve until it was
  killed 10 s later.
- Once it serves, it first ends every open stream and long-poll (games.live.wakeups), then lets
  granian stop: granian waits for the responses under way to end, and a stream never ends
  by itself, so it was cut at the kill instead of ending with a clean end of body.
"""

import multiprocessing
import signal

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# Set by serve (asnas_api.supervisor) in granian's environment: the workers run the turn clock
# (asnas_api.clock, one of them acting at a time); and a file that exists once serve's
# preparation of the database (its migrations) is done, before which the workers answer 503.
CLOCK_IN_WORKERS = "ASNAS_CLOCK_IN_WORKERS"
PREPARED_FILE = "ASNAS_PREPARED_FILE"


def _in_granian_worker() -> bool:
    # granian forks its workers from the master, under this process name, after setting the
    # master's handlers; nothing else (tests, WSGI servers, commands) is changed here.
    return (
        multiprocessing.current_process().name == "granian-worker"
        and multiprocessing.parent_process() is not None
    )


def stop_at_once_while_starting() -> None:
    if _in_granian_worker():
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_DFL)


def end_streams_before_stopping() -> None:
    """Wrap granian's own set-up of the worker's signals (called once the app is imported,
    when its event loop is about to run), so that a stop signal closes the streams first."""
    if not _in_granian_worker():
        return
    from granian import _signals

    set_loop_signals = _signals.set_loop_signals

    def set_loop_signals_ending_streams(loop):
        worker_signal = set_loop_signals(loop)

        def stop(signum: int) -> None:
            from games.live import wakeups

            wakeups.close_every_waiter()
            worker_signal.set()  # granian's own handler: stop accepting, finish, exit

        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, stop, signum)
        return worker_signal

    _signals.set_loop_signals = set_loop_signals_ending_streams


stop_at_once_while_starting()
end_streams_before_stopping()
