"""What one seat may see. AI seats and the API see the game only through these views.

docs/rules.md, "Secrecy": a folded hand is never shown to anyone else; a hand still in the
deal is shown to the other seats only at the showdown; a seat sees its own cards once
it has looked, and once the deal is over. A human who left the table sees it as a live
spectator from then on: the AI holds their seat's cards (`eyes_now`, `with_eyes`).
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .cards import SEATS
from .declare import PLAYER_KINDS, fields_of_kinds
from .events import LEGACY_SCHEME, ActionTaken, DealEnded, Event, PlayerLeft, commitments
from .state import MatchState, Status
from .vocabulary import SpectatorMode


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int | None
    """None: a spectator's view."""
    status: str
    series: int
    deal_number: int
    dealer: int | None
    turn: int | None
    pot: int
    high_stake: int
    stakes: tuple[int, ...]
    folded: tuple[bool, ...]
    looked: tuple[bool, ...]
    totals: tuple[Fraction, ...]
    your_cards: tuple[str, ...] | None
    history: tuple[tuple[int, str], ...]
    """The current deal's public actions, as (seat, action), looks included."""
    last_result: dict | None
    """The most recent settled deal as `result_view` shows it to this seat."""
    winners: tuple[int, ...] | None


def result_view(result: DealEnded, viewer: int | None) -> dict:
    """A settled deal as `viewer` may see it: hands shown at the showdown, and the
    viewer's own hand. `viewer=None` is an outsider who sees only the shown hands."""
    seats = []
    for seat in result.seats:
        visible = seat.shown or seat.seat == viewer
        seats.append(
            {
                "seat": seat.seat,
                "hand": list(seat.hand) if visible else None,
                "category": seat.category if visible else None,
                "stake": seat.stake,
                "payout": str(seat.payout),
                "delta": str(seat.delta),
                "folded": seat.folded,
            }
        )
    return {
        "deal_number": result.deal_number,
        "series": result.series,
        "outcome": result.outcome,
        "winners": list(result.winners),
        "seats": seats,
    }


def observe(state: MatchState, seat: int | None) -> SeatView:
    """Everything `seat` may see now, and nothing more; `seat=None` is an outsider (a
    spectator), who sees no hand but those a showdown showed."""
    deal = state.deal
    if deal is None:
        return SeatView(
            seat=seat,
            status=state.status.value,
            series=state.series,
            deal_number=0,
            dealer=None,
            turn=None,
            pot=0,
            high_stake=0,
            stakes=(0, 0, 0, 0),
            folded=(False,) * 4,
            looked=(False,) * 4,
            totals=tuple(state.totals),
            your_cards=None,
            history=(),
            last_result=None,
            winners=state.winners,
        )
    over = state.status is not Status.IN_DEAL
    return SeatView(
        seat=seat,
        status=state.status.value,
        series=state.series,
        deal_number=deal.deal_number,
        dealer=deal.dealer,
        turn=deal.turn,
        pot=deal.pot,
        high_stake=deal.high_stake,
        stakes=tuple(deal.stakes),
        folded=tuple(deal.folded),
        looked=tuple(deal.looked),
        totals=tuple(state.totals),
        your_cards=(deal.hands[seat] if seat is not None and (over or deal.looked[seat]) else None),
        history=tuple(deal.history),
        last_result=result_view(state.last_result, seat) if state.last_result else None,
        winners=state.winners,
    )


def eyes_now(state: MatchState, seat: int) -> int | None:
    """The seat whose cards the human seated at `seat` may see now: their own until they
    left the table, and none after (the AI plays it with cards they must not see): they
    watch as a live spectator."""
    return None if state.left[seat] else seat


def event_view(event: Event, viewer: int | None) -> dict:
    """An event as `viewer` may see it: only its type's PUBLIC fields, so never the seed,
    the deck, or a hidden hand."""
    if isinstance(event, DealEnded):
        return {"type": event.type, **result_view(event, viewer)}
    data = event.to_dict()
    if isinstance(event, ActionTaken):
        data["by"] = event.actor  # events stored before tables have no `by`
    # A public field the stored dict lacks is derived (a commitment from its seed), or was
    # added to its type later (match_restarted's ai_level) and shows as null.
    return {
        "type": event.type,
        **{
            name: data[name] if name in data else getattr(event, name, None)
            for name in event.PUBLIC
        },
    }


def fairness_view(state: MatchState) -> dict:
    """How the match's current series is dealt, and what proves it: the commitments while
    it is played, and its server seed once it ended, where the match is verifiable."""
    seeds = state.seeds
    if seeds is None:
        return {
            "verifiable": False,
            "scheme": LEGACY_SCHEME,
            "commitment": None,
            "client_seeds": [""] * SEATS,
            "next_commitment": None,
            "server_seed": None,
        }
    committed = commitments(seeds)
    return {
        "verifiable": seeds.verifiable,
        "scheme": seeds.scheme,
        "commitment": committed["commitment"],
        "client_seeds": list(seeds.client_seeds),
        "next_commitment": committed["next_commitment"],
        "server_seed": seeds.server_seed if seeds.revealed else None,
    }


class Role(StrEnum):
    """Who reads a match: a seated player, a spectator (live or delayed, as the owner chose),
    or the operator."""

    SEAT = "seat"
    LIVE = SpectatorMode.LIVE.value
    """A spectator who sees public moves as they happen."""
    DELAYED = SpectatorMode.DELAYED.value
    """A spectator who sees a deal's moves once that deal has ended."""
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class Viewer:
    role: Role
    seat: int | None = None
    """The seat of a seated player; None for everyone else."""
    left_at: int | None = None
    """The seq of a seated player's own player_left, once they left the table."""

    @classmethod
    def at_seat(cls, seat: int, left_at: int | None = None) -> "Viewer":
        return cls(Role.SEAT, seat, left_at)

    @classmethod
    def spectator(cls, mode: str) -> "Viewer":
        return cls(Role(mode))

    @property
    def is_spectator(self) -> bool:
        return self.role in (Role.LIVE, Role.DELAYED)


ADMIN = Viewer(Role.ADMIN)


def horizon(viewer: Viewer, version: int, in_play_from: int | None) -> int:
    """The seq of the last event `viewer` may see of a match at `version` whose deal in play
    (if any) started at seq `in_play_from`. A delayed spectator sees nothing of a deal until
    it has ended: their match stops just before its deal_started."""
    if viewer.role is Role.DELAYED and in_play_from is not None:
        return in_play_from - 1
    return version


def visible_events(
    events: Iterable[tuple[int, Event]], viewer: Viewer, *, in_play_from: int | None = None
) -> list[dict]:
    """The one decision of what each viewer sees of a match's events, which every transport
    (a write's answer, an events page, a long-poll, a stream, the admin) goes through: the
    (seq, event) pairs `viewer` may see, each as they may see it with its `seq`.

    A seat and a spectator get each event's public fields only, with the hands a seat may
    see (`event_view`; a spectator sees a seat's view from nowhere: shown hands only; a
    seat whose human left, from nowhere after their player_left: `with_eyes`). A
    delayed spectator gets nothing from `in_play_from`, the seq of the deal_started of the
    deal still being played (None when none is), on. The operator gets every field."""
    if viewer.role is Role.ADMIN:  # every field but a server seed not yet revealed
        return [{"seq": seq, **_for_the_operator(event)} for seq, event in events]
    withheld = in_play_from if viewer.role is Role.DELAYED else None
    return [
        {"seq": seq, **event_view(event, seat)}
        for seq, event, seat in with_eyes(events, viewer)
        if withheld is None or seq < withheld
    ]


def with_eyes(
    events: Iterable[tuple[int, Event]], viewer: Viewer
) -> Iterator[tuple[int, Event, int | None]]:
    """Each (seq, event) with the seat whose eyes `viewer` sees it with: a seated player's
    own seat up to and including their own player_left (known from `viewer.left_at`, or met
    among `events`), and none after it, as a live spectator: the AI plays the seat from then
    on, with cards its old player must not see. None for a spectator."""
    seat, left_at = viewer.seat, viewer.left_at
    for seq, event in events:
        if left_at is not None and seq > left_at:
            seat = None
        yield seq, event, seat
        if seat is not None and isinstance(event, PlayerLeft) and event.seat == seat:
            left_at = seq


SEED_FIELDS = ("server_seed", "next_server_seed", "new_server_seed")
"""Where stored events keep server seeds: secret from everyone, the operator included, until
a series' end reveals its own (docs/fairness.md)."""


def _for_the_operator(event: Event) -> dict:
    # Player ids are shown to nobody, the operator included.
    hidden = (*SEED_FIELDS, *fields_of_kinds(type(event), PLAYER_KINDS))
    stored = {name: value for name, value in event.to_dict().items() if name not in hidden}
    return {**event_view(event, None), **stored}
