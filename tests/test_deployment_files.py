"""The Dockerfile and compose.yaml run the server that the slow-client and failure tests try:
`manage.py serve`, which runs granian."""

import shlex
from pathlib import Path

import yaml

from asnas_api.supervisor import granian_command

ROOT = Path(__file__).resolve().parent.parent


def test_the_image_runs_serve():
    (cmd,) = [
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD")
    ]
    argv = yaml.safe_load(cmd.removeprefix("CMD"))  # the exec form is a JSON list
    assert argv[argv.index("manage.py") + 1] == "serve", argv


def test_compose_runs_the_image_unchanged_on_its_postgres():
    api = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["api"]
    assert api["build"] == "."
    assert "command" not in api and "entrypoint" not in api
    assert api["environment"]["DATABASE_URL"].startswith("postgres://")


def test_serve_runs_granian():
    command = granian_command("127.0.0.1", 8000, 2)
    assert command[1:3] == ["-m", "granian"], shlex.join(command)
    assert "asnas_api.asgi:application" in command
