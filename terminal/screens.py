"""The two screens `play` draws on: a live table redrawn in place at a terminal, and printed
screens read line by line when input or output is a pipe (scripts and tests)."""

import contextlib
import os
import select
import sys
import termios
import tty

from rich.console import Console, RenderableType
from rich.live import Live
from rich.prompt import Prompt

from terminal.game import TICK


class LiveScreen:
    """One table on the terminal's alternate screen, redrawn in place after every move, and
    keys read one at a time, with no Enter. Leaving restores the terminal as it was."""

    def __init__(self, console: Console, default_name: str):
        self.console = console
        self.default_name = default_name
        self.fit_to = console
        self.live = Live(console=console, screen=True, auto_refresh=False, transient=True)
        self._stack = contextlib.ExitStack()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self._stack.close()

    def ask(self, prompt: str) -> str:
        return Prompt.ask(prompt, console=self.console, default=self.default_name)

    def show(self, screen: RenderableType) -> None:
        if not self.live.is_started:
            fd = sys.stdin.fileno()
            saved = termios.tcgetattr(fd)
            # cbreak: keys arrive one by one, unechoed; Ctrl-C still interrupts.
            tty.setcbreak(fd, termios.TCSANOW)  # keep keys typed ahead
            self._stack.callback(termios.tcsetattr, fd, termios.TCSADRAIN, saved)
            self._stack.enter_context(self.live)
        self.live.update(screen, refresh=True)

    def key(
        self, keys: dict[str, str], wake: int | None = None, tick: float | None = None
    ) -> str | None:
        # Unbuffered reads: a buffered one could take keys typed ahead out of select's sight.
        fd = sys.stdin.fileno()
        while True:
            ready, _, _ = select.select([fd] if wake is None else [fd, wake], [], [], tick)
            if not ready:
                return TICK
            if wake in ready:
                return None
            key = os.read(fd, 1).decode(errors="replace")
            if not key:
                raise EOFError
            if key in keys:
                return key

    def idle(self, keys: dict[str, str], wake: int, tick: float | None = None) -> str | None:
        return self.key(keys, wake, tick)

    def leave(self, farewell: RenderableType | None) -> None:
        self._stack.close()
        if farewell is not None:
            self.console.print(farewell)


class LineScreen:
    """Every screen printed in turn; a key is a line of input, and a line that is not one of
    the keys shown is skipped. Input is read only when there is something to decide (your
    turn, a deal or match over), so that a script's lines answer those."""

    def __init__(self, console: Console, default_name: str):
        self.fit_to = None
        self.console = console
        self.default_name = default_name

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        pass

    def ask(self, prompt: str) -> str:
        return Prompt.ask(prompt, console=self.console, default=self.default_name)

    def show(self, screen: RenderableType) -> None:
        self.console.print(screen)

    def key(self, keys: dict[str, str], wake: int | None = None, tick: float | None = None) -> str:
        # Printed screens do not tick: each redraw would print a whole screen more.
        while True:
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            if line.strip() in keys:
                return line.strip()

    def idle(self, keys: dict[str, str], wake: int, tick: float | None = None) -> None:
        # A script types its moves ahead: none may be spent while there is nothing to decide.
        select.select([wake], [], [])

    def leave(self, farewell: RenderableType | None) -> None:
        if farewell is not None:
            self.console.print(farewell)


def terminal_console(**options) -> Console:
    """The console `play` draws on, which shows what the server sends as it was written.
    Names are anyone's choice: with rich's markup read in them, a player or a tournament
    named "[/x]" stopped every screen that showed it (MarkupError), and "[blink]" restyled
    the rest of its line; ":smile:" became an emoji."""
    return Console(markup=False, emoji=False, **options)


def screen_for(console: Console, default_name: str) -> LiveScreen | LineScreen:
    live = sys.stdin.isatty() and console.is_terminal
    return (LiveScreen if live else LineScreen)(console, default_name)
