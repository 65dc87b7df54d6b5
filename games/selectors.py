"""Selectors: every read of a match, shaped as the player who reads it may see it: only
their own seat's cards, and none once they left it."""

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import QuerySet

from games import repository
from games.ai import skill
from games.engine import (
    DomainError,
    Event,
    Join,
    MatchState,
    Role,
    SeatView,
    Status,
    Viewer,
    decide,
    evaluate,
    eyes_now,
    fairness_view,
    horizon,
    legal_actions,
    observe,
    replay,
    visible_events,
)
from games.engine.record import build_record
from games.models import Match
from games.repository import LoadedMatch
from players.models import Player
from players.tokens import hash_token

EVENTS_PAGE_LIMIT = 1000

DealFigures = Callable[[LoadedMatch, int, int], dict[int, dict]]
"""(match, series, last deal number) -> figures by deal number, as `_stored_figures`."""


def match_list(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    return repository.match_list(player=player, status=status)


def match_get(*, match_id: uuid.UUID, player: Player) -> LoadedMatch | None:
    """The player's match with its state and seats, or None."""
    return repository.match_load(match_id=match_id, player=player)


def match_view(
    *, match: LoadedMatch, figures: bool = True, deal_figures: DealFigures | None = None
) -> dict:
    """The MatchView's data for the player `match` was loaded for: only what their seat may
    see. MatchViewSerializer is its shape (serializers.MATCH_VIEW renders it). Without
    `figures` (a write's answer), the skill figures are left null, and none are read.
    `deal_figures` replaces the stored figures (the schema's examples, played with no
    database)."""
    state, row, seat = match.state, match.row, match.viewer_seat
    viewer = eyes_now(state, seat)  # None once they left: they watch as a live spectator
    view = observe(state, viewer)
    shown = _visible_figures(match, state, viewer, deal_figures) if figures else NO_FIGURES
    # The invite is the owner's to share, and only while seats are open.
    invite = row.invite if seat == 0 and state.status is Status.WAITING else None
    return {
        **_table(match, state, view, shown),
        "your_seat": seat,
        "your_cards": view.your_cards,
        "your_category": evaluate(view.your_cards).category if view.your_cards else None,
        "legal_actions": [] if viewer is None else legal_actions(state, seat),
        "seeded": row.seeded,
        "invite": invite,
        "spectators": row.spectators,
        "watch_code": match.watch_code if seat == 0 else None,
        "open": row.open,
        "fill_at": row.fill_at if state.status is Status.WAITING else None,
        "turn_deadline": row.turn_deadline,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    }


@dataclass(frozen=True, slots=True)
class ShownFigures:
    """The skill figures (docs/skill.md) a viewer may see of the series' ended deals."""

    last_deal: list[dict] | None
    """Per seat, the figures of the last deal that ended, or None where not shown."""
    sums: list[dict] | None
    """Per seat, the sums over the series' ended deals, or None unless every one is shown."""


NO_FIGURES = ShownFigures(None, None)
"""What a write's answer shows: none (read the match for them)."""


def _table(match: LoadedMatch, state: MatchState, view: SeatView, shown: ShownFigures) -> dict:
    """What a player's and a spectator's views share: the table as `view` sees it, with the
    skill figures `shown`."""
    last_deal, figures = view.last_result, shown.last_deal
    if last_deal is not None:
        last_deal = {
            **last_deal,
            "seats": [
                {**seat, "skill": figures[seat["seat"]] if figures else None}
                for seat in last_deal["seats"]
            ],
        }
    return {
        "id": match.row.id,
        "version": state.version,
        "series": state.series,
        "deal_number": view.deal_number,
        "status": view.status,
        "ai_level": match.row.ai_level,
        "dealer": view.dealer,
        "turn": view.turn,
        "pot": view.pot,
        "high_stake": view.high_stake,
        "seats": [
            {
                "seat": number,
                "name": seat.name,
                "kind": seat.kind,
                "away": state.away(number),
                "stake": view.stakes[number],
                "folded": view.folded[number],
                "looked": view.looked[number],
                "total": view.totals[number],
            }
            for number, seat in enumerate(match.seats)
        ],
        "last_deal": last_deal,
        "skill": shown.sums,
        "winners": view.winners,
        "humans": state.humans,
        "turn_seconds": match.row.turn_seconds,
        "watchers": match.watchers,
        "fairness": fairness_view(state),
    }


def match_write_view(*, match: LoadedMatch) -> dict:
    """The MatchWriteView's data, which a write answers with: the MatchView, and the events
    the write appended as the writer may see them, so a client can show what the other seats
    did. Its skill figures are null, as they always were (read the match for them)."""
    return {**match_view(match=match, figures=False), "events": events_seen(match.appended, match)}


def _stored_figures(match: LoadedMatch, series: int, last: int) -> dict[int, dict]:
    """The figures of the series' deals 1 to `last`, by deal number, as the writes that
    ended them stored them (skill.settled). A deal that ended before writes stored
    them, or whose row was rebuilt since, has none: its figures are worked out from the
    match's events for this read alone, for a read never writes."""
    match_id = match.row.id
    stored = repository.deal_skills(match_id=match_id, series=series)
    stored = {number: figures for number, figures in stored.items() if number <= last}
    missing = [number for number, figures in stored.items() if figures is None]
    if missing:
        events = (event for _, event in repository.match_events(match_id=match_id))
        worked = skill.stored_figures(events, series)
        stored.update((number, worked[number]) for number in missing)
    return stored


def _visible_figures(
    match: LoadedMatch, state: MatchState, viewer: int | None, deal_figures: DealFigures | None
) -> ShownFigures:
    """The skill figures (docs/skill.md) of the series' deals ended by `state` that `viewer`
    may see: every hand of the deal must be theirs to see. Read from the match row, which
    the write that ended the last deal left them in (Match.skill); a read that can show
    none queries nothing."""
    last = state.last_result
    seeds = state.seeds
    revealed = bool(seeds and seeds.verifiable and seeds.revealed)
    if last is None or not (
        revealed or skill.visible([seat.shown for seat in last.seats], viewer, revealed)
    ):
        return NO_FIGURES
    kept = match.row.skill
    at = (state.series, last.deal_number)
    if deal_figures is None and kept is not None and (kept["series"], kept["deal_number"]) == at:
        every_deal_seen = revealed or kept["seen"][0 if viewer is None else viewer + 1]
        return ShownFigures(kept["last"], kept["sums"] if every_deal_seen else None)
    # A series begun before the match row kept its figures: from the deal rows.
    stored = (deal_figures or _stored_figures)(match, state.series, last.deal_number)
    shown = {
        number: figures
        for number, figures in stored.items()
        if skill.visible(figures["shown"], viewer, revealed)
    }
    every_deal_shown = len(shown) == last.deal_number
    return ShownFigures(
        shown[last.deal_number]["seats"], skill.sums(shown.values()) if every_deal_shown else None
    )


def events_seen(events: list[tuple[int, Event]], match: LoadedMatch) -> list[dict]:
    """`events` as the player `match` was loaded for may see each of them."""
    return visible_events(events, _reader(match))


def _reader(match: LoadedMatch) -> Viewer:
    """The player `match` was loaded for, at their seat, as the events see them."""
    return Viewer.at_seat(match.viewer_seat, left_at=match.viewer_left_at)


def match_cursor(*, match: LoadedMatch, after: int) -> int:
    """`after`, a client's place in the match's events (`events`, its long-poll and the
    stream all take it), if the match has come that far. A cursor past the latest event
    names events that do not exist: read from it, a client would skip every event up to it
    as they come, and so it is refused with the seq to resume after."""
    return _cursor_within(after, match.row.version, "the match's latest event")


def watch_cursor(*, match: LoadedMatch, after: int) -> int:
    """As `match_cursor`, for a spectator (`watch/events`, its long-poll and the watch
    stream): the limit is the last event they may see, so that the refusal tells a delayed
    spectator nothing of the deal in play."""
    in_play = repository.deal_in_play_from(match_id=match.row.id)
    latest = horizon(spectator(match), match.row.version, in_play)
    return _cursor_within(after, latest, "the latest event spectators may see")


def _cursor_within(after: int, latest: int, named: str) -> int:
    if after > latest:
        raise DomainError(
            "after_out_of_range",
            f"after is {after}, but {named} is {latest}.",
            latest=latest,
        )
    return after


def match_events(*, match: LoadedMatch, after: int, limit: int = EVENTS_PAGE_LIMIT) -> dict:
    """Events after seq `after`, in order, as the reader's seat may see them."""
    rows = repository.match_events_after(match_id=match.row.id, after=after, limit=limit + 1)
    return _events_page(match, rows, limit)


def match_events_while_token(
    *, match: LoadedMatch, after: int, token_hash: str, limit: int = EVENTS_PAGE_LIMIT
) -> dict | None:
    """`match_events` for a reader let in by the token with `token_hash` (a stream, which
    lives as long as that token): None once the token no longer works, checked in the same
    statement as the events are read."""
    rows = repository.match_events_while_token(
        match_id=match.row.id, after=after, limit=limit + 1, token_hash=token_hash
    )
    return None if rows is None else _events_page(match, rows, limit)


def _events_page(match: LoadedMatch, rows: list[tuple[int, Event]], limit: int) -> dict:
    return {
        "version": match.row.version,
        "has_more": len(rows) > limit,
        "events": events_seen(rows[:limit], match),
    }


def match_record(*, match: LoadedMatch) -> dict:
    """The match's record (asnas-record/2, docs/record.md) as its reader may see it."""
    row = match.row
    meta = {
        "id": str(row.id),
        "created_at": row.created_at.isoformat(),
        "ai_level": row.ai_level,
        "humans": match.state.humans,
        "seeded": row.seeded,
        "status": match.state.status.value,
        "version": match.state.version,
    }
    seats = [
        {"seat": number, "name": seat.name, "kind": seat.kind}
        for number, seat in enumerate(match.seats)
    ]
    events = repository.match_events(match_id=row.id)
    record = build_record(events, _reader(match), meta, seats)
    for series in record["series"]:
        figures = None
        for deal in series["deals"]:
            shown = deal["result"] is not None and None not in deal["hands"]
            if shown and figures is None:  # the record holds every event: work them out here
                figures = skill.stored_figures((event for _, event in events), series["series"])
            for seat in deal["result"]["seats"] if deal["result"] else ():
                seat["skill"] = (
                    figures[deal["deal_number"]]["seats"][seat["seat"]] if shown else None
                )
    return record


def match_public_events(*, match_id: uuid.UUID) -> list[dict] | None:
    """Every event of the match as someone who sits at none of its seats sees it (the
    public record), or None when there is no such match."""
    if not list(repository.match_ids(among=[match_id])):
        return None
    return visible_events(repository.match_events(match_id=match_id), Viewer(Role.LIVE))


def match_ids_unfinished(*, player: Player, limit: int) -> list[uuid.UUID]:
    return repository.match_ids_unfinished(player=player, limit=limit)


def match_count_in_play() -> int:
    return repository.match_count_in_play()


# --- Open tables -------------------------------------------------------------------------

TABLES_LIMIT = 50
"""The most tables the lobby lists: the longest waiting."""


def tables_open(*, filters: repository.TableFilters) -> list[dict]:
    """The open tables still waiting that fit `filters`, longest waiting first, as
    OpenTableSerializer shows them: one query, however many tables."""
    return [
        _open_table(table) for table in repository.tables_open(filters=filters, limit=TABLES_LIMIT)
    ]


def table_invitation(*, match_id: uuid.UUID, player: Player, invite: str) -> dict:
    """The table `invite` lets `player` join, as the lobby shows an open table, so that they
    can choose before joining; nothing changes. Refused as the join would be: a wrong invite
    or an unknown match is `not_found` (the two look alike), and `already_seated`,
    `match_full` (started) or `match_abandoned` once the table is no longer theirs to join."""
    match = table_admitting(
        match=repository.match_load(match_id=match_id, player=None), player=player, invite=invite
    )
    # The engine's own refusals of this join; the events it would record are dropped.
    decide(match.state, Join(player.name))
    return _open_table(repository.open_table(match))


def table_admitting(*, match: LoadedMatch | None, player: Player, invite: str) -> LoadedMatch:
    """`match` if `invite` lets `player` take a seat there, as a join and an invitation
    check it: a wrong invite or no match is `not_found` (the two look alike), a table they
    sit at already is `already_seated`."""
    if match is None or not match.admits(invite):
        raise DomainError("not_found", "No such match.")
    if any(seat.player == str(player.pk) for seat in match.seats):
        raise DomainError("already_seated", "You already sit at this table.")
    return match


def _open_table(table: repository.OpenTable) -> dict:
    """A waiting table as OpenTableSerializer shows it: what someone choosing where to sit
    may know of it, and no more (no invite, no hand, no seed)."""
    return {
        "id": table.id,
        "owner": table.seats[0].name,
        "humans": table.humans,
        "seats_free": sum(seat.player is None for seat in table.seats),
        "seats": [
            {"seat": number, "name": seat.name, "kind": seat.kind, "free": seat.player is None}
            for number, seat in enumerate(table.seats)
        ],
        "turn_seconds": table.turn_seconds,
        "ai_level": table.ai_level,
        "verifiable": table.verifiable,
        "spectators": table.spectators,
        "fill_at": table.fill_at,
        "created_at": table.created_at,
    }


# --- Spectators (docs/spectators.md) --------------------------------------------------------


def watch_get(*, watch_code_hash: str) -> LoadedMatch | None:
    """The match the watch code with this hash watches, loaded for no seat; None when the
    code watches nothing (unknown, drawn again since, or spectators off)."""
    match_id = repository.match_id_watched(watch_code_hash=watch_code_hash)
    return None if match_id is None else repository.match_load(match_id=match_id, player=None)


def watch_get_by_code(*, watch_code: str) -> LoadedMatch | None:
    return watch_get(watch_code_hash=hash_token(watch_code))


def spectator(match: LoadedMatch) -> Viewer:
    return Viewer.spectator(match.row.spectators)


def watch_view(*, match: LoadedMatch) -> dict:
    """The WatchView's data: the table as a spectator may see it. Live, the match as it is;
    delayed, the match as it stood just before the deal still being played was dealt (the
    end of the last deal that ended), so no move of a deal shows before it has ended."""
    viewer = spectator(match)
    state = match.state
    in_play = repository.deal_in_play(match_id=match.row.id)
    last = horizon(viewer, state.version, None if in_play is None else in_play[0])
    if last < state.version:
        # The state stored as the deal in play began: the view costs the same whether a deal
        # is in play or not, so its time says nothing of it either.
        state = in_play[1] or _replayed(match, last)
    view = observe(state, None)
    return {
        **_table(match, state, view, _visible_figures(match, state, None, None)),
        "spectators": match.row.spectators,
        # A delayed spectator learns nothing of the deal in play, its clock included.
        "turn_deadline": match.row.turn_deadline if last == match.state.version else None,
    }


def _replayed(match: LoadedMatch, last: int) -> MatchState:
    """The match's state at seq `last`, from its events: for a deal in play whose row keeps
    no state before it (started before Deal.state_before was kept, or its rows rebuilt)."""
    return replay(event for _, event in repository.match_events(match_id=match.row.id, last=last))


def watch_events(*, match: LoadedMatch, after: int, limit: int = EVENTS_PAGE_LIMIT) -> dict:
    """Events after seq `after`, as the match's spectators may see them: a delayed spectator
    gets no event of the deal in play, and the page's `version` is the last event they may
    see."""
    rows = repository.match_events_after(match_id=match.row.id, after=after, limit=limit + 1)
    # Read after the events: see repository.deal_in_play_from.
    in_play = repository.deal_in_play_from(match_id=match.row.id)
    viewer = spectator(match)
    seen = visible_events(rows[:limit], viewer, in_play_from=in_play)
    version = rows[-1][0] if rows else after
    last = horizon(viewer, max(version, match.row.version), in_play)
    return {
        "version": last,
        # More only if the next event is one they may see: not the next deal's deal_started.
        "has_more": len(rows) > limit and rows[limit][0] <= last,
        "events": seen,
    }


def watch_events_now(*, watch_code_hash: str, after: int) -> dict | None:
    """`watch_events` as a request made now would get them; None once the code watches
    nothing any more."""
    match = watch_get(watch_code_hash=watch_code_hash)
    return None if match is None else watch_events(match=match, after=after)
