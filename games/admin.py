"""The admin, for operators: find a match, read its seats, deals and event timeline, step
through any deal, and check that stored projections agree with their events.

Nothing here can change a match's history. Events, deals and seats are shown only inline,
with no add, change or delete, and a match can only be deleted whole, its events with it
(CASCADE). They are deliberately not registered on their own: the admin asks every
registered model for delete permission before deleting a match with its related rows.
"""

import bisect
import json
from datetime import UTC
from fractions import Fraction

from django.contrib import admin, messages
from django.core.exceptions import BadRequest, PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from edge.admin import StrictFiltersAdmin
from games.admin_events import SHOWN, deal_name, describe, readable, seat_label, seats_label
from games.engine import (
    CLOCK_ACTION_LINE,
    SEAT_CHANGE_LINE,
    SEATS,
    ActionTaken,
    DealEnded,
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
from games.engine.state import hands_from_deck
from games.match.integrity import check_matches, summary
from games.match.log import deal_events, match_event_lines, match_events, match_lines_matching
from games.models import Deal, Hint, Match, Seat

_ACTORS = {"player": "player", "ai": "AI", "clock": "clock"}
# Events on one page of a match's timeline: a match restarted thousands of times has tens of
# thousands, and the page must stay fast and small.
TIMELINE_PAGE = 500


def _moment(moment) -> str:
    """A stored time as the timeline shows it, or a dash."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S") if moment else "–"


def _actor(event: Event) -> str:
    """Who took an action: the player, the AI or the clock; blank for other events."""
    return _ACTORS[event.actor] if isinstance(event, ActionTaken) else ""


def _names(match: Match) -> dict[int, str]:
    return dict(match.seats.values_list("number", "player__name"))


def _replay_url(match_id, series: int, deal_number: int) -> str:
    return reverse("admin:games_match_deal_replay", args=[match_id, series, deal_number])


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


class ReadOnlyInline(admin.TabularInline):
    """Rows shown with their match, never added, changed or deleted on their own."""

    extra = 0

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class PreparedInline(ReadOnlyInline):
    """Rows read once, chosen by `shown` and annotated by `prepare` before they are drawn."""

    def shown(self, rows, request, match: Match):
        return rows

    def prepare(self, rows: list, match: Match) -> None:
        """Annotate the shown rows, in order, before they are drawn."""

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        if obj is None:
            return formset
        inline = self

        class Prepared(formset):
            def get_queryset(self):
                if not hasattr(self, "_queryset"):
                    rows = list(inline.shown(super().get_queryset(), request, obj))
                    inline.prepare(rows, obj)
                    self._queryset = rows
                return self._queryset

        return Prepared


class OneSeriesInline(PreparedInline):
    """Only the rows of the series the match page shows (a match restarted thousands of
    times has thousands of series)."""

    def shown(self, rows, request, match: Match):
        return rows.filter(series=_shown_series(request, match))


class SeatInline(PreparedInline):
    """Who sat where: each seat's player, when a human took it and left it (read from the
    player_joined, player_left and seat_freed events: a seat freed and taken again shows
    its latest join), and whether they are away now."""

    model = Seat
    fields = ("number", "player_name", "kind", "player_id", "joined", "left", "away")
    readonly_fields = fields

    def prepare(self, seats: list[Seat], match: Match) -> None:
        state = MatchState.from_dict(match.state)
        joined = {0: match.created_at}
        left = {}
        for _, created_at, line in match_lines_matching(match_id=match.pk, line=SEAT_CHANGE_LINE):
            event = decode_event(line)
            SHOWN[type(event)].seats(event, created_at, joined, left)
        for seat in seats:
            human = seat.number < state.humans
            seat.joined_at = joined.get(seat.number) if human else None
            seat.left_at = left.get(seat.number)
            seat.is_away = state.away(seat.number)

    @admin.display(description="joined (UTC)")
    def joined(self, seat: Seat) -> str:
        return _moment(seat.joined_at)

    @admin.display(description="left (UTC)")
    def left(self, seat: Seat) -> str:
        return _moment(seat.left_at)

    @admin.display(description="away", boolean=True)
    def away(self, seat: Seat) -> bool:
        return seat.is_away

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    @admin.display(description="player")
    def player_name(self, seat: Seat) -> str:
        if seat.player is None:
            return "(open seat)"
        url = reverse("admin:players_player_change", args=[seat.player_id])
        return format_html('<a href="{}">{}</a>', url, seat.player.name)

    @admin.display(description="kind")
    def kind(self, seat: Seat) -> str:
        return seat.player.get_kind_display() if seat.player else "Human (open seat)"

    @admin.display(description="player id")
    def player_id(self, seat: Seat) -> str:
        return str(seat.player_id or "")


def _shown_series(request, match: Match) -> int:
    """The series whose deals the match page shows: ?series=N, by default the current one."""
    return _number_parameter(request, "series", default=match.series, last=match.series)


def _number_parameter(request, name: str, *, default: int, last: int) -> int:
    """A page-like number from the query string, 1 to `last`; anything else is a 400."""
    value = request.GET.get(name)
    if value is None:
        return default
    if not value.isdigit() or not 1 <= int(value) <= last:
        raise BadRequest(f"{name} must be a whole number from 1 to {last}.")
    return int(value)


class DealInline(OneSeriesInline):
    """The deals of one series (a match restarted thousands of times has thousands), each
    with every dealt hand, its scores and the running totals. The admin is for staff only,
    and so are the hands."""

    model = Deal
    fields = (
        "series",
        "deal_number",
        "dealer_name",
        "hands",
        "settlement",
        "scores",
        "started_at",
        "ended_at",
        "replay",
    )
    readonly_fields = fields

    def prepare(self, deals: list[Deal], match: Match) -> None:
        _attach_deck_and_result(match, deals)
        _annotate_running_totals(deals, _names(match))

    @admin.display(description="dealer")
    def dealer_name(self, deal: Deal) -> str:
        return seat_label(deal.dealer, deal.names)

    @admin.display(description="hands")
    def hands(self, deal: Deal) -> str:
        hands = hands_from_deck(tuple(deal.deck), deal.dealer)
        return format_html_join(
            mark_safe("<br>"),
            "{}: {} · {}",
            (
                (seat_label(seat, deal.names), " ".join(hand), readable(evaluate(hand).category))
                for seat, hand in enumerate(hands)
            ),
        )

    @admin.display(description="result")
    def settlement(self, deal: Deal) -> str:
        if deal.result is None:
            return deal.get_outcome_display() or "in play"
        return describe(deal.result, None, deal.names)

    @admin.display(description="score → running total")
    def scores(self, deal: Deal) -> str:
        if deal.deltas is None:
            return "–"
        return format_html_join(
            mark_safe("<br>"),
            "{}: {} → {}",
            (
                (seat_label(seat, deal.names), _signed(delta), total)
                for seat, (delta, total) in enumerate(zip(deal.deltas, deal.running, strict=True))
            ),
        )

    @admin.display(description="replay")
    def replay(self, deal: Deal) -> str:
        url = _replay_url(deal.match_id, deal.series, deal.deal_number)
        return format_html('<a href="{}">step through</a>', url)


class HintInline(OneSeriesInline):
    """The hints the coach gave in the shown series: when, at which version and deal, and
    what it advised (what the player saw, nothing more)."""

    model = Hint
    fields = ("created_at", "version", "deal_number", "advised")
    readonly_fields = fields

    @admin.display(description="advice: hard's probability, expected value")
    def advised(self, hint: Hint) -> str:
        advice = hint.advice
        strength = (
            f"rank {advice['hand_rank']}, wins a showdown {advice['showdown_win']}"
            if advice["hand_rank"] is not None
            else "not looked"
        )
        return format_html(
            "{}<br>{}",
            ", ".join(
                f"{a['action']} {a['hard_probability']}"
                + (f" ({a['expected_value']})" if a["expected_value"] is not None else "")
                for a in advice["actions"]
            ),
            strength,
        )


def _attach_deck_and_result(match: Match, deals: list[Deal]) -> None:
    """Give each deal of one series, in order, its `deck` and its `result` (the DealEnded
    event, None while in play or abandoned), read from the series' events alone."""
    if not deals:
        return
    later = match.deals.filter(started_seq__gt=deals[-1].started_seq).order_by("started_seq")
    end = later.values_list("started_seq", flat=True).first()
    events = match_events(
        match_id=match.pk,
        first=deals[0].started_seq,
        last=None if end is None else end - 1,
    )
    decks, results = {}, {}
    for _, event in events:
        if isinstance(event, DealStarted):
            decks[event.deal_number] = event.deck
        elif isinstance(event, DealEnded):
            results[event.deal_number] = event
    for deal in deals:
        deal.deck, deal.result = decks[deal.deal_number], results.get(deal.deal_number)


def _annotate_running_totals(deals: list[Deal], names: dict[int, str]) -> None:
    """Give each deal of one series, in order, its seats' names, its score per seat
    (`deltas`, None while in play) and the series' totals after it (`running`)."""
    running = [Fraction(0)] * SEATS
    for deal in deals:
        deal.names = names
        deal.deltas = None
        if deal.result is not None:
            deal.deltas = [seat.delta for seat in deal.result.seats]
            running = [total + delta for total, delta in zip(running, deal.deltas, strict=True)]
        deal.running = list(running)


def _signed(number: Fraction) -> str:
    return f"+{number}" if number > 0 else str(number)


def _total(seat: int):
    @admin.display(description=f"seat {seat}")
    def total(match: Match) -> str:
        # Exact fractions, as stored; a short list is a broken projection, not a crash.
        return match.totals[seat] if seat < len(match.totals) else "?"

    return total


@admin.register(Match)
class MatchAdmin(StrictFiltersAdmin):
    list_display = (
        "id",
        "owner",
        "status",
        "series",
        "deal_number",
        *(_total(seat) for seat in range(SEATS)),
        "created_at",
        "updated_at",
    )
    list_select_related = ("owner",)
    list_filter = (
        "status",
        "created_at",
        "updated_at",
        "ai_level",
        "seeded",
        ("turn_seconds", admin.EmptyFieldListFilter),
    )
    # An id prefix is enough, as logs and tickets often shorten ids. Player names are the
    # owners': the AI personas sit in every match, so searching them would find everything.
    search_fields = ("id__istartswith", "owner__name")
    ordering = ("-updated_at",)
    actions = ("check_integrity",)
    inlines = (SeatInline, DealInline, HintInline)
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "id",
                    "owner",
                    ("status", "series", "deal_number", "version"),
                    ("totals_exact", "winners_named"),
                    ("ai_level", "seeded"),
                    ("turn_seconds", "turn_deadline"),
                    ("created_at", "updated_at"),
                )
            },
        ),
        (
            "Engine state (the projection of the events)",
            {"fields": ("state_kept",), "classes": ["collapse"]},
        ),
    )
    readonly_fields = (
        "id",
        "totals_exact",
        "winners_named",
        "state_kept",
        "created_at",
        "updated_at",
    )

    @admin.display(description="state")
    def state_kept(self, match: Match) -> str:
        # The server seeds are secret until revealed, from the operator too (docs/fairness.md).
        state = dict(match.state)
        if "seeds" in state:
            state["seeds"] = {
                name: "(secret)" if "server_seed" in name else value
                for name, value in state["seeds"].items()
            }
        state.pop("seed", None)
        return json.dumps(state, indent=1)

    def get_queryset(self, request):
        # The list never needs the state snapshot, the largest column by far.
        return super().get_queryset(request).defer("state")

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        # The player list links to each player's matches through the seats.
        return lookup == "seats__player__id__exact" or super().lookup_allowed(
            lookup, value, request
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="totals")
    def totals_exact(self, match: Match) -> str:
        names = _names(match)
        return " · ".join(
            f"{seat_label(seat, names)}: {total}" for seat, total in enumerate(match.totals)
        )

    @admin.display(description="winners")
    def winners_named(self, match: Match) -> str:
        if not match.winners:
            return "–"
        return seats_label(match.winners, _names(match))

    @admin.action(description="Check integrity: replay the events and compare")
    def check_integrity(self, request, queryset) -> None:
        checked = mismatches = 0

        def note(match_id, text: str) -> None:
            self.message_user(request, f"Match {match_id}: {text}", messages.WARNING)

        ids = queryset.values_list("id", flat=True).iterator()
        for match_id, problems in check_matches(ids, on_note=note):
            checked += 1
            mismatches += len(problems)
            if problems:
                self.message_user(
                    request, f"Match {match_id}: {'; '.join(problems)}", messages.ERROR
                )
        self.message_user(
            request,
            summary(checked, mismatches),
            messages.ERROR if mismatches else messages.SUCCESS,
        )

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        if obj is not None:
            context.update(self._timeline(request, obj))
            context["shown_series"] = _shown_series(request, obj)
            context["all_series"] = range(1, obj.series + 1)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _timeline(self, request, match: Match) -> dict:
        """One page of the events in seq order, described: the last page unless ?timeline=N
        asks for another. The deal an action belongs to is read from the latest deal_started
        before the page, so each page costs the same few queries. ?by=clock shows only the
        actions the clock took, all on one page."""
        by = request.GET.get("by")
        if by is not None and by != "clock":
            raise BadRequest("by can only be clock.")
        if by == "clock":
            return {"timeline": self._clock_actions(match), "timeline_by": by}
        pages = Paginator(range(1, match.version + 1), TIMELINE_PAGE)
        number = _number_parameter(
            request, "timeline", default=pages.num_pages, last=pages.num_pages
        )
        page = pages.page(number)
        names = _names(match)
        seqs = page.object_list
        first_seq, last_seq = (seqs[0], seqs[-1]) if seqs else (1, 0)
        opening = match.deals.filter(started_seq__lt=first_seq).order_by("-started_seq").first()
        deal = deal_name(opening.series, opening.deal_number) if opening else None
        rows = []
        lines = match_event_lines(match_id=match.pk, first=first_seq, last=last_seq)
        for seq, created_at, line in lines:
            row = {"seq": seq, "created_at": created_at, "replay_url": None}
            try:
                event = decode_event(line)
            except (KeyError, TypeError, ValueError):
                # Show a corrupt event rather than fail the page that should reveal it.
                rows.append({**row, "text": f"unreadable event: {line!r}"})
                continue
            if isinstance(event, DealStarted):
                deal = deal_name(event.series, event.deal_number)
                row["replay_url"] = _replay_url(match.pk, event.series, event.deal_number)
            rows.append({**row, "text": describe(event, deal, names), "by": _actor(event)})
        return {"timeline": rows, "timeline_page": page}

    def _clock_actions(self, match: Match) -> list[dict]:
        """Every action the clock took, described, with the deal each was in."""
        names = _names(match)
        starts = list(
            match.deals.order_by("started_seq").values_list("started_seq", "series", "deal_number")
        )
        rows = []
        for seq, created_at, line in match_lines_matching(
            match_id=match.pk, line=CLOCK_ACTION_LINE
        ):
            _, series, number = starts[bisect.bisect_right(starts, (seq,)) - 1]
            event = decode_event(line)
            text = describe(event, deal_name(series, number), names)
            row = {"seq": seq, "created_at": created_at, "replay_url": None}
            rows.append({**row, "text": text, "by": _actor(event)})
        return rows

    def get_urls(self):
        replay = path(
            "<uuid:match_id>/deals/<int:series>/<int:deal_number>/",
            self.admin_site.admin_view(self.deal_replay_view),
            name="games_match_deal_replay",
        )
        return [replay, *super().get_urls()]

    def deal_replay_view(self, request, match_id, series: int, deal_number: int):
        """One deal replayed through the engine, event by event: every stake, the pot, the
        high stake and the turn after each action, and each hand with its category."""
        match = self.get_object(request, str(match_id))
        if match is None:
            raise Http404("No such match.")
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        events = deal_events(match_id=match.pk, series=series, deal_number=deal_number)
        if not events:
            raise Http404("No such deal.")
        players = {seat.number: seat.player for seat in match.seats.select_related("player")}
        names = {number: player.name for number, player in players.items()}
        deal, steps = _replay_deal(events, deal_name(series, deal_number), names)
        cut_short = next((e for _, e in events if isinstance(e, MatchRestarted | Resigned)), None)
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
        if deal.result:
            outcome = readable(deal.result.outcome)
        else:
            reason = "resignation" if isinstance(cut_short, Resigned) else "restart"
            outcome = "in play" if cut_short is None else f"abandoned ({reason})"
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"{deal_name(series, deal_number).capitalize()}, step by step",
            "match": match,
            "outcome": outcome,
            "winners": seats_label(deal.result.winners, names) if deal.result else None,
            "hands": hands,
            "steps": steps,
            "seat_labels": [seat_label(seat, names) for seat in range(SEATS)],
        }
        return TemplateResponse(request, "admin/games/match/deal_replay.html", context)
