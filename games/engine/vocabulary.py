"""The words of the game that several layers say, each declared once, with what it means:
the engine, the AI, the models, the API, its schema and the admin all take them from here.

Each member is its word (a `str`, so it compares, hashes and serialises as the word) and
carries its meaning as its `__doc__`, the phrase the schema and the docs show beside it.
Standard library only, like the rest of the engine. (Event types and player notices are
declared in `events.py`, match statuses and deal outcomes in `state.py`.)
"""

from enum import StrEnum


class Word(StrEnum):
    """A word of the vocabulary, declared as `NAME = "word", "what it means"`."""

    def __new__(cls, word: str, meaning: str):
        member = str.__new__(cls, word)
        member._value_ = word
        member.__doc__ = meaning
        return member


class SpectatorMode(Word):
    """Who may watch a match with its watch code, as its owner chose."""

    OFF = "off", "nobody"
    DELAYED = "delayed", "a deal's moves once that deal has ended"
    LIVE = "live", "public moves as they happen"


class Actor(Word):
    """Who took an action for a seat."""

    PLAYER = "player", "the seat's player"
    AI = "ai", "the AI, at an AI seat or for a human who left"
    CLOCK = "clock", "the clock, for a present human whose time ran out"


class Action(Word):
    """What a seat may do on its turn (docs/rules.md, One deal 6), in the order the API lists
    them."""

    LOOK = "look", "look at its cards, once a deal; its turn goes on"
    CALL = "call", "match the high stake"
    HOLD = "hold", "stay in when its stake already matches the high stake"
    RAISE = "raise", "raise the high stake by 1, while it is below 4"
    FOLD = "fold", "give up the deal and what it staked"


class TournamentPhase(Word):
    """Where a tournament stands (docs/tournaments.md)."""

    UPCOMING = "upcoming", "entries are not open yet"
    OPEN = "open", "entries are open"
    PLAYING = "playing", "entries are over; play goes on until the deadline"
    CLOSED = "closed", "the deadline passed: the seed is revealed and the standings are out"


class BenchmarkStatus(Word):
    """Where a bot's benchmark stands (docs/bots.md)."""

    RUNNING = "running", "matches are still being dealt and played"
    FINISHED = "finished", "every deal asked for was played: the figure is final"
    ABANDONED = "abandoned", "a newer benchmark replaced it before it finished: it is on no board"
