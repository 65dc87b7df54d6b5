"""The terminal's HTTP side (terminal/api.py): what the server sends reaches the screen as
text, never as commands to the terminal. No server: urlopen answers as a server of another
make, or one holding names stored before the API refused them, might."""

import io
import json

from terminal import api as terminal_api
from terminal.api import Api
from terminal.screens import terminal_console
from terminal.table import TableState
from tests.clients.test_terminal_table import table_view

CLEAR_AND_RETITLE = "Mal\x1b[2Jlory\x1b]0;pwned\x07\x9b31m"


class Answer(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_name_that_would_steer_the_terminal_shows_as_text(monkeypatch):
    view = table_view()
    view["seats"][0]["name"] = CLEAR_AND_RETITLE
    view["seats"][2]["name"] = "Eve\tand\nAdam"
    body = json.dumps(view).encode()
    monkeypatch.setattr(terminal_api.urllib.request, "urlopen", lambda *a, **k: Answer(body))
    read = Api("http://server.invalid")("GET", "/matches/m")
    assert read["seats"][0]["name"] == "Mal\ufffd[2Jlory\ufffd]0;pwned\ufffd\ufffd31m"
    assert read["seats"][2]["name"] == "Eve\tand\nAdam"  # tab and newline only lay text out
    console = terminal_console(file=io.StringIO(), width=100, height=30, color_system=None)
    console.print(TableState().render(read, {"g": "leave"}))
    screen = console.file.getvalue()
    assert not {"\x1b", "\x07", "\x9b"} & set(screen)
    assert "Mal\ufffd[2Jlory" in screen
