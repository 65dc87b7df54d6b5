"""The match room's reads: a match, shaped as the player who reads it may see it (only their
own seat's cards, and none once they left it), its events page by page, its record, and
the cursors a client resumes from. Reads only: a read never writes, not even figures it
works out (see `stored_figures`)."""

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import QuerySet

from games.ai import skill
from games.engine import (
    MATCH_DEALS,
    SEATS,
    DomainError,
    Event,
    MatchState,
    Role,
    SeatView,
    Status,
    Viewer,
    evaluate,
    eyes_now,
    fairness_view,
    legal_actions,
    observe,
    visible_events,
)
from games.engine.record import build_record
from games.match import log, store
from games.match.loaded import LoadedMatch, SeatInfo
from games.match.log import StreamsRead
from games.models import Match
from games.review import store as review_store
from players.models import Player
from players.rating import places

EVENTS_PAGE_LIMIT = 1000

DealFigures = Callable[[LoadedMatch, int, int], dict[int, dict]]
"""(match, series, last deal number) -> figures by deal number, as `stored_figures`."""


def match_list(*, player: Player, status: str | None = None) -> QuerySet[Match]:
    """The player's matches, newest first, each read with its seats (match_summary)."""
    return store.match_list_with_seats(player=player, status=status)


def match_summaries(*, rows: Iterable[Match], player: Player) -> list[dict]:
    """Rows of match_list as MatchSummarySerializer shows them to `player`."""
    summaries = []
    for row in rows:
        seats = store.seat_infos(row)
        you = next(number for number, seat in enumerate(seats) if seat.player == str(player.pk))
        summaries.append(match_summary(row=row, seats=seats, your_seat=you))
    return summaries


def match_summary(*, row: Match, seats: list[SeatInfo], your_seat: int) -> dict:
    """A listed match: the row, who sat where (names and kinds, public at every table), the
    viewer's seat, and once the match is finished their place as ratings place it
    (docs/ratings.md): by the exact totals, tied seats sharing a place, and a seat whose human
    left or resigned last, so that a resignation at 0-0-0-0 is place 4, not a tie for first."""
    place = None
    if row.status == Status.FINISHED.value and row.totals:
        totals = [Fraction(total) for total in row.totals]
        place = places(totals, _quit(MatchState.from_dict(row.state)))[your_seat]
    return {
        **{field: getattr(row, field) for field in SUMMARY_FIELDS},
        "seats": [{"name": seat.name, "kind": seat.kind} for seat in seats],
        "your_seat": your_seat,
        "your_place": place,
    }


def _quit(state: MatchState) -> list[bool]:
    """The seats whose humans quit a finished match: those who left, and, where a lone human
    resigned (the series ended before its last deal was settled), the human's seat too."""
    last = state.last_result
    played_out = last is not None and last.deal_number == MATCH_DEALS
    if state.humans == 1 and not played_out:
        return [state.seated(seat) for seat in range(SEATS)]
    return list(state.left)


# What a listed match shows of its row as it is.
SUMMARY_FIELDS = ("id", "status", "series", "deal_number", "ai_level", "seeded", "totals")
SUMMARY_FIELDS += ("winners", "version", "created_at", "updated_at")


def match_get(*, match_id: uuid.UUID, player: Player) -> LoadedMatch | None:
    """The player's match with its state and seats, or None."""
    return store.match_load(match_id=match_id, player=player)


def match_view(
    *, match: LoadedMatch, figures: bool = True, deal_figures: DealFigures | None = None
) -> dict:
    """The MatchView's data for the player `match` was loaded for: only what their seat may
    see. MatchViewSerializer is its shape (the API's MATCH_VIEW renders it). Without
    `figures` (a write's answer), the skill figures are left null, and none are read.
    `deal_figures` replaces the stored figures (the schema's examples, played with no
    database)."""
    state, row, seat = match.state, match.row, match.viewer_seat
    viewer = eyes_now(state, seat)  # None once they left: they watch as a live spectator
    view = observe(state, viewer)
    shown = visible_figures(match, state, viewer, deal_figures) if figures else NO_FIGURES
    # The invite is the owner's to share, and only while seats are open.
    invite = row.invite if seat == 0 and state.status is Status.WAITING else None
    return {
        **table_view(match, state, view, shown),
        "your_seat": seat,
        "your_cards": view.your_cards,
        "your_category": evaluate(view.your_cards).category if view.your_cards else None,
        "legal_actions": [] if viewer is None else legal_actions(state, seat),
        "seeded": row.seeded,
        "invite": invite,
        "spectators": row.spectators,
        "watch_code": match.watch_code if seat == 0 else None,
        "open": row.open,
        "bots": row.bots,
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


def table_view(match: LoadedMatch, state: MatchState, view: SeatView, shown: ShownFigures) -> dict:
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
        "tournament": match.row.tournament_id,
        "watchers": match.watchers,
        "fairness": fairness_view(state),
    }


def match_write_view(*, match: LoadedMatch) -> dict:
    """The MatchWriteView's data, which a write answers with: the MatchView, and the events
    the write appended as the writer may see them, so a client can show what the other seats
    did. Its skill figures are null, as they always were (read the match for them)."""
    return {**match_view(match=match, figures=False), "events": events_seen(match.appended, match)}


def stored_figures(match: LoadedMatch, series: int, last: int) -> dict[int, dict]:
    """The figures of the series' deals 1 to `last`, by deal number, as the writes that
    ended them stored them (skill.settled). A deal that ended before writes stored
    them, or whose row was rebuilt since, has none: its figures are worked out from the
    match's events for this read alone, for a read never writes."""
    match_id = match.row.id
    stored = store.deal_skills(match_id=match_id, series=series)
    stored = {number: figures for number, figures in stored.items() if number <= last}
    missing = [number for number, figures in stored.items() if figures is None]
    if missing:
        events = (event for _, event in log.match_events(match_id=match_id))
        worked = skill.stored_figures(events, series)
        stored.update((number, worked[number]) for number in missing)
    return stored


def visible_figures(
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
    stored = (deal_figures or stored_figures)(match, state.series, last.deal_number)
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
    return visible_events(events, reader(match))


def reader(match: LoadedMatch) -> Viewer:
    """The player `match` was loaded for, at their seat, as the events see them."""
    return Viewer.at_seat(match.viewer_seat, left_at=match.viewer_left_at)


def match_cursor(*, match: LoadedMatch, after: int) -> int:
    """`after`, a client's place in the match's events (`events`, its long-poll and the
    stream all take it), if the match has come that far. A cursor past the latest event
    names events that do not exist: read from it, a client would skip every event up to it
    as they come, and so it is refused with the seq to resume after."""
    return cursor_within(after, match.row.version, "the match's latest event")


def cursor_within(after: int, latest: int, named: str) -> int:
    if after > latest:
        raise DomainError(
            "after_out_of_range",
            f"after is {after}, but {named} is {latest}.",
            latest=latest,
        )
    return after


def events_page(*, match: LoadedMatch, after: int, limit: int = EVENTS_PAGE_LIMIT) -> dict:
    """Events after seq `after`, in order, as the reader's seat may see them."""
    rows = log.match_events_after(match_id=match.row.id, after=after, limit=limit + 1)
    return _events_page(match, rows, limit)


def events_page_while_token(
    *, match: LoadedMatch, after: int, token_hash: str, limit: int = EVENTS_PAGE_LIMIT
) -> dict | None:
    """`events_page` for a reader let in by the token with `token_hash` (a stream, which
    lives as long as that token): None once the token no longer works, checked in the same
    statement as the events are read."""
    rows = log.match_events_while_token(
        match_id=match.row.id, after=after, limit=limit + 1, token_hash=token_hash
    )
    return None if rows is None else _events_page(match, rows, limit)


def events_for_streams(
    *, match_id: uuid.UUID, asks: list[tuple[int, str | None]]
) -> StreamsRead | None:
    """One read for every stream of a match in a process (games.live.shared), each ask a
    stream's (cursor, hash of the token it lives by, or None): the events after the earliest
    cursor, with what each needs to judge them for its viewer (`events_page_of`,
    games.spectating.queries.watch_page_of); None when there is no such match."""
    return log.match_events_for_streams(
        match_id=match_id,
        after=min(after for after, _ in asks),
        limit=EVENTS_PAGE_LIMIT,
        token_hashes={token_hash for _, token_hash in asks if token_hash is not None},
    )


def events_page_of(
    read: StreamsRead | None, *, match: LoadedMatch, after: int, token_hash: str
) -> dict | None:
    """`events_page_while_token`, taken from a read shared by the match's streams: the same
    page but for `has_more`, which may also say so when the read was cut short after
    these events (the next page is then read at once, and may be empty)."""
    if read is None or token_hash not in read.working_tokens:
        return None
    rows, _ = read_after(read, after)
    return {
        "version": match.row.version,
        "has_more": read.full,
        "events": events_seen(rows, match),
    }


def read_after(read: StreamsRead, after: int) -> tuple[list[tuple[int, Event]], int | None]:
    """A shared read's events after `after` (no more than a page), and the seq of the event
    after them if it may exist (None when none was written by the time of the read)."""
    rows = [(seq, event) for seq, event in read.events if seq > after]
    return rows, (read.events[-1][0] + 1 if read.full else None)


def _events_page(match: LoadedMatch, rows: list[tuple[int, Event]], limit: int) -> dict:
    return {
        "version": match.row.version,
        "has_more": len(rows) > limit,
        "events": events_seen(rows[:limit], match),
    }


def match_record(*, match: LoadedMatch) -> dict:
    """The match's record (asnas-record/3, docs/record.md) as its reader may see it: a deal's
    review once the series' seed is revealed, where it is worked out already."""
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
    events = log.match_events(match_id=row.id)
    reviews = {
        (series, number): [{"seat": int(seat), **body[seat]} for seat in sorted(body, key=int)]
        for series, number, body in review_store.reviews_of(match_id=row.id)
        if body is not None
    }
    record = build_record(events, reader(match), meta, seats, reviews)
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
    if not list(store.match_ids(among=[match_id])):
        return None
    return visible_events(log.match_events(match_id=match_id), Viewer(Role.LIVE))


def match_ids_unfinished(*, player: Player, limit: int) -> list[uuid.UUID]:
    return store.match_ids_unfinished(player=player, limit=limit)


def match_count_in_play() -> int:
    return store.match_count_in_play()
