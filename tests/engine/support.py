"""Helpers for the engine tests: tables built from hand-made events, and a reference model of
the betting written straight from docs/rules.md, to check the engine against.

Nothing here touches Django or the database.
"""

import dataclasses
import random
from collections import Counter

from games.engine import (
    DECK,
    Act,
    DealEnded,
    DealStarted,
    FillSeats,
    Join,
    Leave,
    MatchCreated,
    MatchState,
    NextDeal,
    Resign,
    Restart,
    RevealSeed,
    RuleError,
    Seeds,
    StartMatch,
    decide,
    evolve,
    legal_actions,
    observe,
)

RANK_NAMES = ("As", "Shah", "Bibi", "Sarbaz", "Couli")

# docs/rules.md: As > Shah > Bibi > Sarbaz > Couli.
STRENGTH = {"As": 5, "Shah": 4, "Bibi": 3, "Sarbaz": 2, "Couli": 1}

# The table of docs/rules.md "Hand ranking", strongest category first, as (name, shape).
RULES_TABLE = [
    ("four_of_a_kind", (4, 1)),
    ("full_house", (3, 2)),
    ("three_of_a_kind", (3, 1, 1)),
    ("two_pair", (2, 2, 1)),
    ("pair", (2, 1, 1, 1)),
    ("high_card", (1, 1, 1, 1, 1)),
]


def reference_category(cards) -> str:
    """The category the table of docs/rules.md gives a hand's shape."""
    shape = tuple(sorted(Counter(cards).values(), reverse=True))
    (name,) = [name for name, table_shape in RULES_TABLE if table_shape == shape]
    return name


def reference_key(cards) -> tuple:
    """docs/rules.md: category first; within a category the grouped ranks (the quad, the trips, the
    pairs from the higher down), then the remaining single cards in descending order."""
    counts = Counter(cards)
    names = [name for name, _ in RULES_TABLE]
    category_strength = len(RULES_TABLE) - names.index(reference_category(cards))
    quads = [STRENGTH[r] for r, n in counts.items() if n == 4]
    trips = [STRENGTH[r] for r, n in counts.items() if n == 3]
    pairs = sorted((STRENGTH[r] for r, n in counts.items() if n == 2), reverse=True)
    singles = sorted((STRENGTH[r] for r, n in counts.items() if n == 1), reverse=True)
    return (category_strength, *quads, *trips, *pairs, *singles)


ACTIONS = ("look", "call", "hold", "raise", "fold")


def deck_for(hands: dict[int, tuple[str, ...]], dealer: int) -> tuple[str, ...]:
    """The deck that deals `hands[seat]` to each seat when `dealer` deals: docs/rules.md says card i
    goes to seat (dealer + 1 + i) mod 4."""
    deck = tuple(hands[(dealer + 1 + i) % 4][i // 4] for i in range(20))
    assert Counter(deck) == Counter(DECK), "a hand-made deal must use the 20 cards exactly"
    return deck


class Table:
    """A match state with its event log. Every command goes through `decide` then `evolve`."""

    def __init__(self, events=()):
        self.state = MatchState()
        self.events = []
        for event in events:
            self._evolve(event)

    @classmethod
    def started(cls, seed: int) -> "Table":
        table = cls()
        table.do(StartMatch(seed))
        return table

    @classmethod
    def dealt(cls, hands: dict[int, tuple[str, ...]], dealer: int = 0, seed: int = 7) -> "Table":
        """A match in its first deal, with the hands chosen by the test."""
        return cls([MatchCreated(seed), DealStarted(1, 1, dealer, deck_for(hands, dealer))])

    @property
    def deal(self):
        return self.state.deal

    def _evolve(self, event) -> None:
        evolve(self.state, event)
        self.events.append(event)

    def do(self, command) -> list:
        before = self.state.to_dict()
        events = decide(self.state, command)
        assert self.state.to_dict() == before, "decide changed its input"
        for event in events:
            self._evolve(event)
        return events

    def act(self, seat: int, action: str) -> list:
        return self.do(Act(seat, action))

    def acts(self, *moves: tuple[int, str]) -> list:
        events = []
        for seat, action in moves:
            events.extend(self.act(seat, action))
        return events

    def refuse(self, command) -> str:
        """Assert that `command` is refused and changes nothing; return the error code."""
        before = self.state.to_dict()
        version = self.state.version
        try:
            decide(self.state, command)
        except RuleError as error:
            assert self.state.to_dict() == before
            assert self.state.version == version
            return error.code
        raise AssertionError(f"{command!r} was accepted")

    def result(self) -> DealEnded:
        ended = [event for event in self.events if isinstance(event, DealEnded)]
        return ended[-1]


class RefDeal:
    """The betting of one deal, from docs/rules.md "One deal", independently of the engine."""

    def __init__(self, dealer: int):
        self.dealer = dealer
        self.stakes = [0, 0, 0, 0]
        self.stakes[dealer] = 1  # the opening stake is not an action
        self.high = 1
        self.folded = [False] * 4
        self.looked = [False] * 4
        self.acted_since_raise: set[int] = set()
        self.turn: int | None = (dealer + 1) % 4
        self.betting_actions = 0

    @property
    def pot(self) -> int:
        return sum(self.stakes)

    @property
    def in_deal(self) -> list[int]:
        return [seat for seat in range(4) if not self.folded[seat]]

    def legal(self, seat: int) -> set[str]:
        if seat != self.turn:
            return set()
        allowed = {"fold"}
        if not self.looked[seat]:
            allowed.add("look")
        if self.stakes[seat] < self.high:
            allowed.add("call")
        if self.stakes[seat] == self.high:
            allowed.add("hold")
        if self.high < 4:
            allowed.add("raise")
        return allowed

    def act(self, seat: int, action: str) -> None:
        assert action in self.legal(seat)
        if action == "look":
            self.looked[seat] = True
            return  # a look does not end the turn
        self.betting_actions += 1
        if action == "call":
            self.stakes[seat] = self.high
        elif action == "raise":
            self.high += 1
            self.stakes[seat] = self.high
            self.acted_since_raise = set()
        elif action == "fold":
            self.folded[seat] = True
        self.acted_since_raise.add(seat)
        remaining = self.in_deal
        if len(remaining) == 1 or all(
            seat in self.acted_since_raise and self.stakes[seat] == self.high for seat in remaining
        ):
            self.turn = None
            return
        following = (seat + 1) % 4
        while self.folded[following]:
            following = (following + 1) % 4
        self.turn = following


def _leaves(value, path: tuple, out: list) -> list:
    """Every (path, leaf) in a nested structure of dicts, lists, tuples and dataclasses."""
    if hasattr(type(value), "__dataclass_fields__"):
        for field in dataclasses.fields(value):
            _leaves(getattr(value, field.name), (*path, field.name), out)
    elif isinstance(value, dict):
        for key, item in value.items():
            _leaves(item, (*path, key), out)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _leaves(item, (*path, index), out)
    else:
        out.append((path, value))
    return out


def card_paths(value) -> dict[tuple, list[str]]:
    """Where rank names occur in `value`: {path of the containing sequence: its ranks}."""
    found: dict[tuple, list[str]] = {}
    for path, leaf in _leaves(value, (), []):
        if isinstance(leaf, str) and leaf in RANK_NAMES:
            found.setdefault(path[:-1], []).append(leaf)
    return found


def keys_in(value) -> set:
    """Every dict key and dataclass field name anywhere in `value`."""
    return {part for path, _ in _leaves(value, (), []) for part in path if isinstance(part, str)}


def visible_in_result(result: DealEnded, seat: int, viewer: int | None) -> bool:
    """docs/rules.md "Secrecy", for a settled deal: a seat always sees its own hand once the deal is
    over; others see a hand only if it reached a showdown without folding."""
    entry = result.seats[seat]
    return seat == viewer or (result.outcome == "showdown" and not entry.folded)


def check_result_dict(shown: dict, result: DealEnded, viewer: int | None, where: tuple) -> dict:
    """Check a result as shown to `viewer`; return the card paths it may hold."""
    allowed = {}
    for seat, entry in enumerate(shown["seats"]):
        assert entry["seat"] == seat
        if visible_in_result(result, seat, viewer):
            assert Counter(entry["hand"]) == Counter(result.seats[seat].hand)
            assert entry["category"] == result.seats[seat].category
            allowed[(*where, "seats", seat, "hand")] = entry["hand"]
        else:
            assert entry["hand"] is None, f"seat {viewer} sees seat {seat}'s hidden hand"
            assert entry["category"] is None, f"seat {viewer} sees seat {seat}'s hidden category"
    return allowed


def check_observe(state: MatchState, viewer: int) -> None:
    """`observe(state, viewer)` holds no card that docs/rules.md hides from `viewer`."""
    view = observe(state, viewer)
    assert view.seat == viewer
    allowed: dict[tuple, list[str]] = {}
    deal = state.deal
    if deal is not None:
        own_visible = state.status.value != "in_deal" or deal.looked[viewer]
        if own_visible:
            assert view.your_cards is not None
            assert Counter(view.your_cards) == Counter(deal.hands[viewer])
            allowed[("your_cards",)] = list(view.your_cards)
        else:
            assert view.your_cards is None, f"seat {viewer} sees its cards before looking"
    else:
        assert view.your_cards is None
    if state.last_result is None:
        assert view.last_result is None
    else:
        shown = check_result_dict(view.last_result, state.last_result, viewer, ("last_result",))
        allowed.update(shown)
    for path, cards in card_paths(view).items():
        assert path in allowed, f"seat {viewer}'s view holds cards at {path}"
        assert cards == list(allowed[path])
    assert not keys_in(view) & {"deck", "seed", "hands"}


def _play_on(table: "Table", rng: random.Random) -> None:
    """Random legal actions until the deal in play is over."""
    while table.state.status.value == "in_deal":
        seat = table.deal.turn
        table.act(seat, rng.choice(legal_actions(table.state, seat)))


AWAITED = (None, None, "persona-3")
"""The seats after the owner's of a three-human table as created: two open, one AI persona."""


def every_type_log(seed: int) -> list:
    """Played logs that meet every event type (tests/engine/test_engine_catalogue.py checks
    they do), each stored shape of the seat-naming ones (with player ids and without): a
    verifiable table that is joined, freed, joined again, plays and is resigned;
    a match restarted at a new AI level and resigned; a table abandoned; one the AI fills;
    a tournament's match, resigned, whose held seed its tournament's close reveals."""
    rng = random.Random(seed)
    table = Table()
    seeds = Seeds(rng.randbytes(32).hex(), rng.randbytes(32).hex(), "owner's, seed")
    owner, roya, babak, darius = (f"player-{n}" for n in range(4))
    table.do(StartMatch(seed, humans=3, seeds=seeds, ai_level="easy", players=(owner,) + AWAITED))
    table.do(Join("Roya", client_seed="hers", player=roya))
    table.do(Leave(1))  # before deal 1: the seat is open again
    table.do(Join("Roya"))  # as a join was stored before it named its player
    table.do(Join("Babak", player=babak))
    for _ in range(rng.randint(1, 3)):
        _play_on(table, rng)
        if table.state.status.value == "deal_over":
            table.do(NextDeal())
    table.do(Resign(1))  # at a table, resigning is leaving
    _play_on(table, rng)
    alone = Table()
    alone.do(StartMatch(seed + 1))
    alone.do(Restart(0, ai_level="easy"))
    alone.do(Resign(0))
    left = Table()
    left.do(StartMatch(seed + 2, humans=2))
    left.do(Join("Babak"))
    left.do(Leave(0))
    left.do(Leave(1))
    filled = Table()
    filled.do(StartMatch(seed + 3, humans=3, players=(owner, None, None, darius)))
    filled.do(FillSeats(players=("persona-1", "persona-2")))
    entrant = Table()
    held = Seeds(rng.randbytes(32).hex(), rng.randbytes(32).hex(), held=True)
    entrant.do(StartMatch(seed + 4, seeds=held, ai_level="normal", players=(owner,)))
    entrant.do(Resign(0))
    entrant.do(RevealSeed())
    return table.events + alone.events + left.events + filled.events + entrant.events
