"""The admin, for operators: find a match, read its seats, deals and event timeline, step
through any deal, and check that stored projections agree with their events.

Nothing here can change a match's history. Events, deals and seats are shown only inline,
with no add, change or delete, and a match can only be deleted whole, its events with it
(CASCADE). They are deliberately not registered on their own: the admin asks every
registered model for delete permission before deleting a match with its related rows.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.engine import (
    SEATS,
    ActionTaken,
    DealEnded,
    DealStarted,
    DealState,
    Event,
    MatchCreated,
    MatchFinished,
    MatchRestarted,
    MatchState,
    Resigned,
    evaluate,
    event_from_dict,
    evolve,
)
from games.engine.state import hands_from_deck
from games.integrity import check_matches, summary
from games.models import Deal, Match, Seat

_VERBS = {"call": "calls to", "hold": "holds at", "raise": "raises to"}


def deal_name(series: int, number: int) -> str:
    """ "deal 3" in a match's first series, "series 2 deal 3" after a restart."""
    return f"deal {number}" if series == 1 else f"series {series} deal {number}"


def _seats(seats) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"


def describe(event: Event, deal: str | None) -> str:
    """One event at a glance, e.g. "deal 3 · seat 2 raises to 3 · pot 7". Actions do not say
    which deal they belong to, so the caller names it: `deal` is the latest deal started."""
    match event:
        case MatchCreated():
            return f"match created · seed {event.seed}"
        case DealStarted():
            name = deal_name(event.series, event.deal_number)
            return f"{name} starts · dealer seat {event.dealer}"
        case ActionTaken(action="look"):
            return f"{deal} · seat {event.seat} looks"
        case ActionTaken(action="fold"):
            return f"{deal} · seat {event.seat} folds · pot {event.pot}"
        case ActionTaken():
            verb = _VERBS.get(event.action, event.action)
            return f"{deal} · seat {event.seat} {verb} {event.stake} · pot {event.pot}"
        case DealEnded():
            pot = sum(seat.stake for seat in event.seats)
            verb = "wins" if len(event.winners) == 1 else "split"
            text = f"{deal_name(event.series, event.deal_number)} · {event.outcome}"
            text += f" · {_seats(event.winners)} {verb} {pot}"
            if event.outcome == "showdown":
                text += f" ({event.seats[event.winners[0]].category})"
            return text
        case MatchFinished():
            verb = "wins" if len(event.winners) == 1 else "win"
            totals = ", ".join(map(str, event.totals))
            return f"series {event.series} over · {_seats(event.winners)} {verb} · totals {totals}"
        case MatchRestarted():
            return f"restart · series {event.series} begins"
        case Resigned():
            return f"seat {event.seat} resigns"


def _replay_url(match_id, series: int, number: int) -> str:
    return reverse("admin:games_match_deal_replay", args=[match_id, series, number])


def _replay_deal(events, name: str) -> tuple[DealState, list[dict]]:
    """Replay one deal's (seq, payload) events through the engine, from its deal_started on:
    the deal as it ends, and after each event every seat's stake, the pot, the high stake and
    whose turn it is."""
    state = MatchState()
    steps = []
    for seq, payload in events:
        event = event_from_dict(payload)
        if isinstance(event, MatchFinished):
            break
        evolve(state, event)
        deal = state.deal
        acting = event.seat if isinstance(event, ActionTaken) else None
        steps.append(
            {
                "seq": seq,
                "text": describe(event, name),
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


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("number", "player", "kind")
    readonly_fields = fields
    extra = 0

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    @admin.display(description="kind")
    def kind(self, seat: Seat) -> str:
        return seat.player.get_kind_display() if seat.player else "Human (open seat)"

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class DealInline(admin.TabularInline):
    """Each deal with every dealt hand. The admin is for staff only, and so are the hands."""

    model = Deal
    fields = (
        "series",
        "number",
        "dealer",
        "hands",
        "settlement",
        "started_at",
        "ended_at",
        "replay",
    )
    readonly_fields = fields
    extra = 0

    @admin.display(description="hands")
    def hands(self, deal: Deal) -> str:
        hands = hands_from_deck(tuple(deal.deck), deal.dealer)
        return format_html_join(
            mark_safe("<br>"),
            "seat {}: {} · {}{}",
            (
                (
                    seat,
                    " ".join(hand),
                    evaluate(hand).category,
                    " (dealer)" if seat == deal.dealer else "",
                )
                for seat, hand in enumerate(hands)
            ),
        )

    @admin.display(description="result")
    def settlement(self, deal: Deal) -> str:
        if deal.result is None:
            return deal.get_outcome_display() or "in play"
        return describe(DealEnded.from_dict(deal.result), None)

    @admin.display(description="replay")
    def replay(self, deal: Deal) -> str:
        url = _replay_url(deal.match_id, deal.series, deal.number)
        return format_html('<a href="{}">step through</a>', url)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _total(seat: int):
    @admin.display(description=f"seat {seat}")
    def total(match: Match) -> str:
        # Exact fractions, as stored; a short list is a broken projection, not a crash.
        return match.totals[seat] if seat < len(match.totals) else "?"

    return total


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
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
    list_filter = ("status", "created_at", "updated_at", "ai_level", "seeded")
    # An id prefix is enough, as logs and tickets often shorten ids. Player names are the
    # owners': the AI personas sit in every match, so searching them would find everything.
    search_fields = ("id__istartswith", "owner__name")
    ordering = ("-updated_at",)
    actions = ("check_integrity",)
    inlines = (SeatInline, DealInline)
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "id",
                    "owner",
                    ("status", "series", "deal_number", "version"),
                    ("totals_exact", "winners"),
                    ("ai_level", "seed", "seeded"),
                    ("created_at", "updated_at"),
                )
            },
        ),
        (
            "Engine state (the projection of the events)",
            {"fields": ("state",), "classes": ["collapse"]},
        ),
    )
    readonly_fields = ("id", "totals_exact", "created_at", "updated_at")

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
        return " · ".join(match.totals)

    @admin.action(description="Check integrity: replay the events and compare")
    def check_integrity(self, request, queryset) -> None:
        checked = mismatches = 0
        for match_id, problems in check_matches(queryset.values_list("id", flat=True).iterator()):
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
            context["timeline"] = self._timeline(obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _timeline(self, match: Match) -> list[dict]:
        """Every event in seq order, described, from a single query."""
        rows = []
        deal = None
        events = match.events.order_by("seq").values_list("seq", "created_at", "payload")
        for seq, created_at, payload in events:
            row = {"seq": seq, "created_at": created_at, "replay_url": None}
            try:
                event = event_from_dict(payload)
            except (KeyError, TypeError, ValueError):
                # Show a corrupt event rather than fail the page that should reveal it.
                rows.append({**row, "text": f"unreadable event: {payload!r}"})
                continue
            if isinstance(event, DealStarted):
                deal = deal_name(event.series, event.deal_number)
                row["replay_url"] = _replay_url(match.pk, event.series, event.deal_number)
            rows.append({**row, "text": describe(event, deal)})
        return rows

    def get_urls(self):
        replay = path(
            "<uuid:match_id>/deals/<int:series>/<int:number>/",
            self.admin_site.admin_view(self.deal_replay_view),
            name="games_match_deal_replay",
        )
        return [replay, *super().get_urls()]

    def deal_replay_view(self, request, match_id, series: int, number: int):
        """One deal replayed through the engine, event by event: every stake, the pot, the
        high stake and the turn after each action, and each hand with its category."""
        match = self.get_object(request, str(match_id))
        if match is None:
            raise Http404("No such match.")
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        # A deal's events run from its deal_started to the next deal_started or restart.
        bounds = (
            match.events.filter(type__in=(DealStarted.type, MatchRestarted.type))
            .order_by("seq")
            .values_list("seq", "payload__series", "payload__deal_number")
        )
        starts = [seq for seq, *deal in bounds if deal == [series, number]]
        if not starts:
            raise Http404("No such deal.")
        end = next((seq for seq, *_ in bounds if seq > starts[0]), None)
        events = match.events.filter(seq__gte=starts[0]).order_by("seq")
        if end is not None:
            events = events.filter(seq__lt=end)
        players = {seat.number: seat.player for seat in match.seats.select_related("player")}

        deal, steps = _replay_deal(events.values_list("seq", "payload"), deal_name(series, number))
        result = {seat.seat: seat for seat in deal.result.seats} if deal.result else {}
        hands = [
            {
                "seat": seat,
                "player": players.get(seat),
                "hand": " ".join(hand),
                "category": evaluate(hand).category,
                "dealer": seat == deal.dealer,
                "result": result.get(seat),
            }
            for seat, hand in enumerate(deal.hands)
        ]
        if deal.result:
            outcome = deal.result.outcome
        else:
            outcome = "abandoned (restart)" if end is not None else "in play"
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"{deal_name(series, number).capitalize()}, step by step",
            "match": match,
            "outcome": outcome,
            "winners": _seats(deal.result.winners) if deal.result else None,
            "hands": hands,
            "steps": steps,
            "seat_numbers": range(SEATS),
        }
        return TemplateResponse(request, "admin/games/match/deal_replay.html", context)
