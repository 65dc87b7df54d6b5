"""`manage.py play` run as a person runs it, its input typed ahead through a pipe."""

import subprocess
import sys
from pathlib import Path

from tests.servers import BASE_DIR


def play_command(*args: str) -> list[str]:
    return [sys.executable, "manage.py", "play", *args]


def play(server_env, *args: str, keys: str) -> str:
    """What play printed, given `keys` as its whole input; it must succeed."""
    result = _run(server_env, args, keys)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def play_refused(server_env, *args: str) -> str:
    """The error play exits with, given no input."""
    result = _run(server_env, args, "")
    assert result.returncode != 0, result.stdout
    return result.stderr


def _run(server_env, args, keys: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        play_command(*args),
        cwd=BASE_DIR,
        env={**server_env, "COLUMNS": "100"},
        input=keys,
        capture_output=True,
        text=True,
        timeout=120,
    )


def start_play(
    server_env, *args: str, keys: str, output: Path, more_keys: bool = False
) -> subprocess.Popen:
    """play running in the background, with `keys` typed ahead, printing to `output` (a file,
    which never blocks it as a pipe left unread would). With `more_keys`, its input stays
    open for more keys (`process.stdin`) instead of ending after `keys`."""
    with output.open("w") as printed:
        process = subprocess.Popen(
            play_command(*args),
            cwd=BASE_DIR,
            env={**server_env, "COLUMNS": "100"},
            stdin=subprocess.PIPE,
            stdout=printed,
            stderr=subprocess.STDOUT,
            text=True,
        )
    process.stdin.write(keys)
    if more_keys:
        process.stdin.flush()
    else:
        process.stdin.close()
    return process
