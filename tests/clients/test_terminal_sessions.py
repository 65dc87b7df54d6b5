"""terminal.api.Sessions: the state file that plays on one computer share (a friend who joins
from the same terminal keeps their own session in it beside the owner's)."""

import json
import multiprocessing
import stat
from pathlib import Path

from terminal.api import Sessions

SAVES = 150


def _save_and_load(path: str, server: str, failures) -> None:
    """Saves its own session again and again, reading the file between saves, as a play
    does at each match it starts or ends."""
    sessions = Sessions(Path(path), server=server)
    for round_ in range(SAVES):
        try:
            sessions.save({"token": server, "round": round_})
            sessions.load()
        except ValueError as error:  # a file read half written
            failures.put(f"{server}: {error}")
            return


def test_plays_saving_at_once_neither_read_a_half_written_file_nor_drop_each_other(tmp_path):
    path = tmp_path / "play.json"
    servers = [f"http://127.0.0.1:8000 match-{n}" for n in range(4)]
    context = multiprocessing.get_context("fork")
    failures = context.Queue()
    plays = [
        context.Process(target=_save_and_load, args=(str(path), server, failures))
        for server in servers
    ]
    for process in plays:
        process.start()
    for process in plays:
        process.join(timeout=120)
    assert [process.exitcode for process in plays] == [0] * len(plays)
    assert failures.empty(), failures.get()
    saved = json.loads(path.read_text())
    assert {server: saved.get(server) for server in servers} == {
        server: {"token": server, "round": SAVES - 1} for server in servers
    }
    # A token is as good as a password: only its owner may read the file.
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["play.json", "play.json.lock"]
