"""A match's history as the admin reads it: the event timeline of the match page, one page
of events at a time, and one deal replayed through the engine, event by event."""

import bisect
from datetime import UTC

from django.core.exceptions import BadRequest, PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import reverse

from games.admin.phrases import deal_name, describe, readable, seat_label, seats_label
from games.engine import (
    CLOCK_ACTION_LINE,
    SEATS,
    ActionTaken,
    Actor,
    DealStarted,
    DealState,
    Event,
    MatchFinished,
    MatchRestarted,
    MatchState,
    Resigned,
    decode_event,
    evaluate,
    evolve,
)
from games.match.log import deal_events, match_event_lines, match_lines_matching
from games.models import Match

# How the timeline names who acted.
_ACTOR_SHOWN = {Actor.PLAYER: "player", Actor.AI: "AI", Actor.CLOCK: "clock"}
# Events on one page of a match's timeline: a match restarted thousands of times has tens of
# thousands, and the page must stay fast and small.
TIMELINE_PAGE = 500


def moment(at) -> str:
    """A stored time as the admin shows it, or a dash."""
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S") if at else "–"


def seat_names(match: Match) -> dict[int, str]:
    """Each seat's player name, by seat number."""
    return dict(match.seats.values_list("number", "player__name"))


def number_parameter(request, name: str, *, default: int, last: int) -> int:
    """A page-like number from the query string, 1 to `last`; anything else is a 400."""
    value = request.GET.get(name)
    if value is None:
        return default
    if not value.isdigit() or not 1 <= int(value) <= last:
        raise BadRequest(f"{name} must be a whole number from 1 to {last}.")
    return int(value)


def replay_url(match_id, series: int, deal_number: int) -> str:
    return reverse("admin:games_match_deal_replay", args=[match_id, series, deal_number])


def _actor(event: Event) -> str:
    """Who took an action: the player, the AI or the clock; blank for other events."""
    return _ACTOR_SHOWN[event.actor] if isinstance(event, ActionTaken) else ""


def timeline(request, match: Match) -> dict:
    """One page of the events in seq order, described: the last page unless ?timeline=N
    asks for another. The deal an action belongs to is read from the latest deal_started
    before the page, so each page costs the same few queries. ?by=clock shows only the
    actions the clock took, all on one page."""
    by = request.GET.get("by")
    if by is not None and by != Actor.CLOCK:
        raise BadRequest("by can only be clock.")
    if by == Actor.CLOCK:
        return {"timeline": _clock_actions(match), "timeline_by": by}
    pages = Paginator(range(1, match.version + 1), TIMELINE_PAGE)
    number = number_parameter(request, "timeline", default=pages.num_pages, last=pages.num_pages)
    page = pages.page(number)
    seqs = page.object_list
    first_seq, last_seq = (seqs[0], seqs[-1]) if seqs else (1, 0)
    return {"timeline": _timeline_rows(match, first_seq, last_seq), "timeline_page": page}


def _timeline_rows(match: Match, first_seq: int, last_seq: int) -> list[dict]:
    """The events first_seq to last_seq, described, each action in the deal it belongs to."""
    names = seat_names(match)
    opening = match.deals.filter(started_seq__lt=first_seq).order_by("-started_seq").first()
    deal = deal_name(opening.series, opening.deal_number) if opening else None
    rows = []
    for seq, created_at, line in match_event_lines(
        match_id=match.pk, first=first_seq, last=last_seq
    ):
        row = {"seq": seq, "created_at": created_at, "replay_url": None}
        try:
            event = decode_event(line)
        except (KeyError, TypeError, ValueError):
            # Show a corrupt event rather than fail the page that should reveal it.
            rows.append({**row, "text": f"unreadable event: {line!r}"})
            continue
        if isinstance(event, DealStarted):
            deal = deal_name(event.series, event.deal_number)
            row["replay_url"] = replay_url(match.pk, event.series, event.deal_number)
        rows.append({**row, "text": describe(event, deal, names), "by": _actor(event)})
    return rows


def _clock_actions(match: Match) -> list[dict]:
    """Every action the clock took, described, with the deal each was in."""
    names = seat_names(match)
    starts = list(
        match.deals.order_by("started_seq").values_list("started_seq", "series", "deal_number")
    )
    rows = []
    for seq, created_at, line in match_lines_matching(match_id=match.pk, line=CLOCK_ACTION_LINE):
        _, series, number = starts[bisect.bisect_right(starts, (seq,)) - 1]
        event = decode_event(line)
        text = describe(event, deal_name(series, number), names)
        row = {"seq": seq, "created_at": created_at, "replay_url": None}
        rows.append({**row, "text": text, "by": _actor(event)})
    return rows


def _replay_deal(events, name: str, names: dict[int, str]) -> tuple[DealState, list[dict]]:
    """Replay one deal's (seq, event) events through the engine, from its deal_started on:
    the deal as it ends, and after each event every seat's stake, the pot, the high stake and
    whose turn it is."""
    state = MatchState()
    steps = []
    for seq, event in events:
        if isinstance(event, MatchFinished | MatchRestarted | Resigned):
            break
        evolve(state, event)
        deal = state.deal
        acting = event.seat if isinstance(event, ActionTaken) else None
        steps.append(
            {
                "seq": seq,
                "text": describe(event, name, names),
                "seats": [
                    {
                        "stake": deal.stakes[seat],
                        "folded": deal.folded[seat],
                        "looked": deal.looked[seat],
                        "acting": seat == acting,
                    }
                    for seat in range(SEATS)
                ],
                "pot": deal.pot,
                "high_stake": deal.high_stake,
                "turn": deal.turn,
            }
        )
    return state.deal, steps


def _outcome(deal: DealState, events) -> str:
    """How the deal ended: its outcome, still in play, or abandoned by a resignation or a
    restart."""
    if deal.result:
        return readable(deal.result.outcome)
    cut_short = next((e for _, e in events if isinstance(e, MatchRestarted | Resigned)), None)
    if cut_short is None:
        return "in play"
    return f"abandoned ({'resignation' if isinstance(cut_short, Resigned) else 'restart'})"


def deal_replay_view(model_admin, request, match_id, series: int, deal_number: int):
    """One deal replayed through the engine, event by event: every stake, the pot, the
    high stake and the turn after each action, and each hand with its category."""
    match = model_admin.get_object(request, str(match_id))
    if match is None:
        raise Http404("No such match.")
    if not model_admin.has_view_permission(request, match):
        raise PermissionDenied
    events = deal_events(match_id=match.pk, series=series, deal_number=deal_number)
    if not events:
        raise Http404("No such deal.")
    players = {seat.number: seat.player for seat in match.seats.select_related("player")}
    names = {number: player.name for number, player in players.items()}
    deal, steps = _replay_deal(events, deal_name(series, deal_number), names)
    result = {seat.seat: seat for seat in deal.result.seats} if deal.result else {}
    hands = [
        {
            "seat": seat,
            "player": players.get(seat),
            "hand": " ".join(hand),
            "category": readable(evaluate(hand).category),
            "dealer": seat == deal.dealer,
            "result": result.get(seat),
        }
        for seat, hand in enumerate(deal.hands)
    ]
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": f"{deal_name(series, deal_number).capitalize()}, step by step",
        "match": match,
        "outcome": _outcome(deal, events),
        "winners": seats_label(deal.result.winners, names) if deal.result else None,
        "hands": hands,
        "steps": steps,
        "seat_labels": [seat_label(seat, names) for seat in range(SEATS)],
    }
    return TemplateResponse(request, "admin/games/match/deal_replay.html", context)
