"""The compact stored form of events: one short line of text per event, about a tenth of its
JSON dict. `encode(event)` and `decode(line)` are exact inverses for every event the engine
makes; the repository stores a write's events as their lines joined by newlines.

A line is a type letter, then comma-separated fields in the order of the event's dataclass:
  C<seed>,<rules>                                   match_created (one human)
  H<seed>,<rules>,<humans>                          match_created (a table)
  D<series>,<deal>,<dealer>,<deck>                  deal_started (deck: one letter a card)
  A<seat><action>,<stake>,<high>,<pot>,<turn>       action (turn empty when betting is over)
  B<seat><action>,<stake>,<high>,<pot>,<turn>,<by>  action saying who acted (p, a or c)
  E<series>,<deal>,<outcome>,<winners>,<seat>;...   deal_ended, a seat being
      <hand>.<category>.<stake>.<payout>.<delta>.<folded><shown>, in seat order
  F<series>,<winners>,<total>;...                   match_finished
  R<series>                                         match_restarted
  N<series>,<ai_level>                              match_restarted that changed the AI level
  S<seat>                                           resigned
  J<seat>,<name as a JSON string>                   player_joined
  L<seat>,<abandoned 0 or 1>                        player_left
  M<seed>,<rules>,<humans>,<seeds>                  match_created, dealt verifiably, where
      <seeds> is <verifiable 0 or 1, or 2: verifiable and held for a tournament's close>,
      <server seed>,<next server seed>,<client seed as JSON>
  K<seat>,<[name, client seed] as JSON>             player_joined with a client seed
  O<series>,<ai_level>,<revealed seed>,<seeds>      match_restarted of a match dealt so
  G<series>,<winners>,<total>;...,<server seed>     match_finished revealing the seed
  P<seat>,<abandoned 0 or 1>,<server seed>          player_left revealing the seed
  (Seeds are lowercase hex; an empty field is None.)
  V<seat>                                           seat_freed
  I<seats>                                          seats_filled (one digit a seat)
  Q<seed>,<rules>,<humans>,<ai_level>,<players>,<seeds>  match_created saying its AI level
      and who sits where: <players> the player ids by seat joined by ";" (empty: an open
      seat), <seeds> as M's or empty for none
  T<seat>,<player>,<[name, client seed] as JSON>    player_joined naming its player
  U<seats>,<players>                                seats_filled naming the AI personas
  X<series>,<server seed>                           seed_revealed (a tournament's close)
Player ids are never shown (their kinds are PLAYER_KINDS); lines written before them decode
with them absent, as the fields' defaults.
Stored lines are never rewritten: a new event type takes a new letter, and a changed event a
new letter too, so that every line ever stored still decodes the same.
"""

import json
from fractions import Fraction

from .commands import Seeds
from .events import (
    ActionTaken,
    DealEnded,
    DealStarted,
    Event,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    PlayerJoined,
    PlayerLeft,
    Resigned,
    SeatFreed,
    SeatResult,
    SeatsFilled,
    SeedRevealed,
)
from .state import Outcome
from .vocabulary import Action, Actor

_CARD = {"As": "A", "Shah": "K", "Bibi": "Q", "Sarbaz": "J", "Couli": "T"}
_ACTION = {
    Action.LOOK: "l",
    Action.CALL: "c",
    Action.HOLD: "h",
    Action.RAISE: "r",
    Action.FOLD: "f",
}
_OUTCOME = {Outcome.SHOWDOWN: "s", Outcome.UNCONTESTED: "u"}
_BY = {Actor.PLAYER: "p", Actor.AI: "a", Actor.CLOCK: "c"}
_CATEGORY = {
    "high_card": "h",
    "pair": "p",
    "two_pair": "t",
    "three_of_a_kind": "3",
    "full_house": "f",
    "four_of_a_kind": "4",
}
_RANK = {letter: card for card, letter in _CARD.items()}
_ACTION_NAME = {letter: name for name, letter in _ACTION.items()}
_OUTCOME_NAME = {letter: name for name, letter in _OUTCOME.items()}
_BY_NAME = {letter: name for name, letter in _BY.items()}
_CATEGORY_NAME = {letter: name for name, letter in _CATEGORY.items()}


# Regular expressions for whole stored lines, the same in Python and Postgres: the admin finds
# these events in the stored text without decoding every line.
CLOCK_ACTION_LINE = "B.*,c"
"""An action the clock took."""
SEAT_CHANGE_LINE = "[JLVITU].*"
"""A player_joined, player_left, seat_freed or seats_filled."""


def player_left_line(seat: int) -> str:
    """A player_left of `seat`, its seed revealed or not."""
    return f"[LP]{seat},.*"


def _cards(cards) -> str:
    return "".join(_CARD[card] for card in cards)


def _digits(seats) -> str:
    return "".join(str(seat) for seat in seats)


def _seat(result: SeatResult) -> str:
    flags = f"{int(result.folded)}{int(result.shown)}"
    fields = (_cards(result.hand), _CATEGORY[result.category], result.stake)
    return ".".join(map(str, (*fields, result.payout, result.delta, flags)))


def _seeds(seeds: Seeds) -> str:
    # The client seed last: JSON escapes whatever printable text it holds, commas included.
    hexes = f"{seeds.server_seed},{seeds.next_server_seed}"
    reveal = 2 if seeds.held else int(seeds.verifiable)
    return f"{reveal},{hexes},{json.dumps(seeds.client_seed)}"


def _read_seeds(text: str) -> Seeds:
    reveal, server, following, client = text.split(",", 3)
    return Seeds(server, following, json.loads(client), reveal != "0", held=reveal == "2")


def _players(players) -> str:
    return ";".join(player or "" for player in players)


def _read_players(text: str) -> tuple:
    return tuple(player or None for player in text.split(";")) if text else ()


def encode(event: Event) -> str:
    match event:
        case MatchCreated() if event.ai_level is not None or event.players:
            seeds = "" if event.seeds is None else _seeds(event.seeds)
            fields = (event.seed, event.rules, event.humans, event.ai_level or "")
            return f"Q{','.join(map(str, fields))},{_players(event.players)},{seeds}"
        case MatchCreated(seeds=Seeds() as seeds):
            return f"M{event.seed},{event.rules},{event.humans},{_seeds(seeds)}"
        case MatchCreated() if event.humans == 1:
            return f"C{event.seed},{event.rules}"
        case MatchCreated():
            return f"H{event.seed},{event.rules},{event.humans}"
        case DealStarted():
            return f"D{event.series},{event.deal_number},{event.dealer},{_cards(event.deck)}"
        case ActionTaken():
            turn = "" if event.turn is None else event.turn
            fields = (event.stake, event.high_stake, event.pot, turn)
            line = f"{event.seat}{_ACTION[event.action]}," + ",".join(map(str, fields))
            return f"A{line}" if event.by is None else f"B{line},{_BY[event.by]}"
        case DealEnded():
            if [seat.seat for seat in event.seats] != list(range(len(event.seats))):
                raise ValueError("a deal_ended event lists its seats in seat order")
            seats = ";".join(_seat(seat) for seat in event.seats)
            outcome, winners = _OUTCOME[event.outcome], _digits(event.winners)
            return f"E{event.series},{event.deal_number},{outcome},{winners},{seats}"
        case MatchFinished():
            totals = ";".join(map(str, event.totals))
            line = f"{event.series},{_digits(event.winners)},{totals}"
            return f"F{line}" if event.server_seed is None else f"G{line},{event.server_seed}"
        case MatchRestarted(seeds=Seeds() as seeds):
            revealed, level = event.server_seed or "", event.ai_level or ""
            return f"O{event.series},{level},{revealed},{_seeds(seeds)}"
        case MatchRestarted() if event.ai_level is None:
            return f"R{event.series}"
        case MatchRestarted():
            return f"N{event.series},{event.ai_level}"
        case Resigned():
            return f"S{event.seat}"
        case PlayerJoined() if event.player is not None:
            return f"T{event.seat},{event.player},{json.dumps([event.name, event.client_seed])}"
        case PlayerJoined() if event.client_seed:
            return f"K{event.seat},{json.dumps([event.name, event.client_seed])}"
        case PlayerJoined():
            # JSON escapes the commas and newlines a name may hold.
            return f"J{event.seat},{json.dumps(event.name)}"
        case PlayerLeft() if event.server_seed is not None:
            return f"P{event.seat},{int(event.abandoned)},{event.server_seed}"
        case PlayerLeft():
            return f"L{event.seat},{int(event.abandoned)}"
        case SeatFreed():
            return f"V{event.seat}"
        case SeatsFilled() if event.players:
            return f"U{_digits(event.seats)},{_players(event.players)}"
        case SeatsFilled():
            return f"I{_digits(event.seats)}"
        case SeedRevealed():
            return f"X{event.series},{event.server_seed}"
    raise TypeError(f"not an event: {event!r}")


def _seat_result(seat: int, text: str) -> SeatResult:
    hand, category, stake, payout, delta, flags = text.split(".")
    return SeatResult(
        seat,
        tuple(_RANK[letter] for letter in hand),
        _CATEGORY_NAME[category],
        int(stake),
        Fraction(payout),
        Fraction(delta),
        flags[0] == "1",
        flags[1] == "1",
    )


# The letters whose last field is free text or JSON, which may hold commas.
_WITH_TEXT = frozenset("JKMTQO")


def decode(line: str) -> Event:
    """The event `line` encodes; KeyError or ValueError for a line that is not one."""
    kind = line[:1]
    if kind in _WITH_TEXT:
        return _decode_with_text(kind, line[1:])
    return _decode_fields(kind, line[1:].split(","))


def _decode_with_text(kind: str, text: str) -> Event:
    """An event whose last field may hold commas: split only as far as its fields go."""
    if kind == "J":
        seat, name = text.split(",", 1)
        return PlayerJoined(int(seat), json.loads(name))
    if kind == "K":
        seat, rest = text.split(",", 1)
        name, client_seed = json.loads(rest)
        return PlayerJoined(int(seat), name, client_seed)
    if kind == "M":
        seed, rules, humans, seeds = text.split(",", 3)
        return MatchCreated(int(seed), int(rules), int(humans), _read_seeds(seeds))
    if kind == "T":
        seat, player, rest = text.split(",", 2)
        name, client_seed = json.loads(rest)
        return PlayerJoined(int(seat), name, client_seed, player)
    if kind == "Q":
        seed, rules, humans, level, players, seeds = text.split(",", 5)
        return MatchCreated(
            int(seed),
            int(rules),
            int(humans),
            _read_seeds(seeds) if seeds else None,
            level or None,
            _read_players(players),
        )
    if kind == "O":
        series, level, revealed, seeds = text.split(",", 3)
        return MatchRestarted(int(series), level or None, revealed or None, _read_seeds(seeds))
    raise KeyError(f"unknown event letter {kind!r}")


def _decode_fields(kind: str, fields: list[str]) -> Event:
    """An event whose fields hold no commas, split at every one."""
    match kind:
        case "C":
            seed, rules = fields
            return MatchCreated(int(seed), int(rules))
        case "H":
            seed, rules, humans = fields
            return MatchCreated(int(seed), int(rules), int(humans))
        case "D":
            series, deal, dealer, deck = fields
            cards = tuple(_RANK[letter] for letter in deck)
            return DealStarted(int(series), int(deal), int(dealer), cards)
        case "A" | "B":
            head, stake, high, pot, turn, *by = fields
            seat, action = int(head[:-1]), _ACTION_NAME[head[-1]]
            turn_after = None if turn == "" else int(turn)
            actor = _BY_NAME[by[0]] if kind == "B" else None
            return ActionTaken(seat, action, int(stake), int(high), int(pot), turn_after, actor)
        case "E":
            series, deal, outcome, winners, seats = fields
            results = tuple(_seat_result(i, text) for i, text in enumerate(seats.split(";")))
            winning = tuple(int(seat) for seat in winners)
            return DealEnded(int(series), int(deal), _OUTCOME_NAME[outcome], winning, results)
        case "F" | "G":
            series, winners, totals, *revealed = fields
            return MatchFinished(
                int(series),
                tuple(int(seat) for seat in winners),
                tuple(Fraction(total) for total in totals.split(";")),
                revealed[0] if revealed else None,
            )
        case "R":
            (series,) = fields
            return MatchRestarted(int(series))
        case "N":
            series, ai_level = fields
            return MatchRestarted(int(series), ai_level)
        case "S":
            (seat,) = fields
            return Resigned(int(seat))
        case "L":
            seat, abandoned = fields
            return PlayerLeft(int(seat), abandoned == "1")
        case "P":
            seat, abandoned, revealed = fields
            return PlayerLeft(int(seat), abandoned == "1", revealed)
        case "V":
            (seat,) = fields
            return SeatFreed(int(seat))
        case "I":
            (seats,) = fields
            return SeatsFilled(tuple(int(seat) for seat in seats))
        case "U":
            seats, players = fields
            return SeatsFilled(tuple(int(seat) for seat in seats), _read_players(players))
        case "X":
            series, server_seed = fields
            return SeedRevealed(int(series), server_seed)
    raise KeyError(f"unknown event letter {kind!r}")
