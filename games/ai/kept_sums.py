"""The coach's sums against opponents of different tables (a table of several humans, whose
reviews need them), kept in the cache directory beside the coach's tables: worked out once on
the machine rather than in every server worker, and again after every restart. Standard
library only."""

import contextlib
import fcntl
import json
import os
import zlib
from pathlib import Path

from . import coach_tables
from .coach_tables import cache_dir, inputs_hash

MAGIC = b"asnas-coach-mixed/1\n"


def mixed_path(key: tuple, q: int) -> Path:
    """Where `position_sums` against the opponents' tables `key` (one per position, None at
    q's own) is kept: beside the tables' file, named by the same inputs."""
    seats = "-".join(table or "own" for table in key)
    return cache_dir() / f"mixed-{inputs_hash()}-{seats}-{q}.bin"


def kept_position_sums(key: tuple, q: int, rows) -> list:
    """`coach_tables.position_sums(rows, q)` for the opponents' tables `key`, read from the
    cache directory where a process of this machine worked it out before, else worked out and
    kept there: about 2.3 s of CPU each against 0.07 s to read, which every server worker, and every
    worker again after a restart, paid in its first review of a table of several humans. One
    process works a file out at a time (a lock); the others wait for it, then read it. A
    cache directory that cannot be written leaves the sums to this process alone."""
    path = mixed_path(key, q)
    header = json.dumps({"inputs": inputs_hash(), "key": list(key), "position": q}).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_name(path.name + ".lock"), "w")
    except OSError:
        return coach_tables.position_sums(rows, q)
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        slots = _read_kept(path, header)
        if slots is None:
            slots = coach_tables.position_sums(rows, q)
            with contextlib.suppress(OSError):
                _keep(path, header, slots)
    return slots


def _read_kept(path: Path, header: bytes) -> list | None:
    """The kept sums, or None where there are none, or none that are whole and of these
    inputs (a damaged file is worked out again and replaced)."""
    start = MAGIC + header + b"\n"
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not data.startswith(start):
        return None
    try:
        return json.loads(zlib.decompress(data[len(start) :]))
    except (zlib.error, ValueError):
        return None


def _keep(path: Path, header: bytes, slots: list) -> None:
    body = zlib.compress(json.dumps(slots, separators=(",", ":")).encode(), 1)
    written = path.with_name(f".{path.name}.{os.getpid()}")
    written.write_bytes(MAGIC + header + b"\n" + body)
    os.replace(written, path)  # a reader sees the whole file or none
    for stale in path.parent.glob("mixed-*"):
        if not stale.name.startswith(f"mixed-{inputs_hash()}-"):
            stale.unlink(missing_ok=True)  # worked out from inputs that changed since
