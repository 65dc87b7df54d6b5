"""The spectating room's reads (docs/spectators.md): the match a watch code watches, and the
table and its events as its spectators may see them: live, the match as it is; delayed,
nothing of the deal in play."""

from games.engine import (
    MatchState,
    SpectatorMode,
    Viewer,
    horizon,
    observe,
    replay,
    visible_events,
)
from games.match import store as match_store
from games.match.loaded import LoadedMatch
from games.match.log import StreamsRead, match_events, match_events_after
from games.match.queries import (
    EVENTS_PAGE_LIMIT,
    cursor_within,
    read_after,
    table_view,
    visible_figures,
)
from games.spectating import store
from players.tokens import hash_token


def watch_cursor(*, match: LoadedMatch, after: int) -> int:
    """As games.match.queries.match_cursor, for a spectator (`watch/events`, its long-poll
    and the watch stream): the limit is the last event they may see, so that the refusal
    tells a delayed spectator nothing of the deal in play."""
    in_play = match_store.deal_in_play_from(match_id=match.row.id)
    latest = horizon(spectator(match), match.row.version, in_play)
    return cursor_within(after, latest, "the latest event spectators may see")


def watch_get(*, watch_code_hash: str) -> LoadedMatch | None:
    """The match the watch code with this hash watches, loaded for no seat; None when the
    code watches nothing (unknown, drawn again since, or spectators off)."""
    match_id = store.match_id_watched(watch_code_hash=watch_code_hash)
    return None if match_id is None else match_store.match_load(match_id=match_id, player=None)


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
    in_play = match_store.deal_in_play(match_id=match.row.id)
    last = horizon(viewer, state.version, None if in_play is None else in_play[0])
    if last < state.version:
        # The state stored as the deal in play began: the view costs the same whether a deal
        # is in play or not, so its time says nothing of it either.
        state = in_play[1] or _replayed(match, last)
    view = observe(state, None)
    return {
        **table_view(match, state, view, visible_figures(match, state, None, None)),
        "spectators": match.row.spectators,
        # A delayed spectator learns nothing of the deal in play, its clock included.
        "turn_deadline": match.row.turn_deadline if last == match.state.version else None,
    }


def _replayed(match: LoadedMatch, last: int) -> MatchState:
    """The match's state at seq `last`, from its events: for a deal in play whose row keeps
    no state before it (started before Deal.state_before was kept, or its rows rebuilt)."""
    return replay(event for _, event in match_events(match_id=match.row.id, last=last))


def watch_events(*, match: LoadedMatch, after: int, limit: int = EVENTS_PAGE_LIMIT) -> dict:
    """Events after seq `after`, as the match's spectators may see them: a delayed spectator
    gets no event of the deal in play, and the page's `version` is the last event they may
    see."""
    rows = match_events_after(match_id=match.row.id, after=after, limit=limit + 1)
    # Read after the events: see match_store.deal_in_play_from.
    in_play = match_store.deal_in_play_from(match_id=match.row.id)
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


def watch_page_of(read: StreamsRead | None, *, watch_code_hash: str, after: int) -> dict | None:
    """`watch_events_now`, taken from a read shared by the match's streams
    (games.match.queries.events_for_streams): None once the code watches nothing any more."""
    if (
        read is None
        or not watch_code_hash
        or read.watch_code_hash != watch_code_hash
        or read.spectators == SpectatorMode.OFF
    ):
        return None
    rows, next_seq = read_after(read, after)
    viewer = Viewer.spectator(read.spectators)
    version = rows[-1][0] if rows else after
    last = horizon(viewer, max(version, read.version), read.in_play_from)
    return {
        "version": last,
        # More only if the next event is one they may see: not the next deal's deal_started.
        "has_more": next_seq is not None and next_seq <= last,
        "events": visible_events(rows, viewer, in_play_from=read.in_play_from),
    }
