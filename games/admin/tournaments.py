"""The tournaments' admin (docs/tournaments.md): each tournament's terms, its commitment,
its entrants and their matches, and its seed once it closed. Read-only: a tournament's
terms and seed are committed to, and its matches are changed only by play."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from edge.admin import StrictFiltersAdmin
from games.models import Tournament


@admin.register(Tournament)
class TournamentAdmin(StrictFiltersAdmin):
    list_display = ("name", "creator", "ai_level", "deadline", "entrants", "closed_at")
    list_select_related = ("creator",)
    list_filter = ("ai_level", "deadline", ("closed_at", admin.EmptyFieldListFilter))
    search_fields = ("id__istartswith", "name", "creator__name")
    ordering = ("-created_at",)
    fields = (
        "id",
        "name",
        "creator",
        "ai_level",
        "entry_opens_at",
        "entry_closes_at",
        "deadline",
        "cap",
        "turn_seconds",
        "commitment",
        "seed",
        "closed_at",
        "created_at",
        "entries",
    )
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="entrants")
    def entrants(self, tournament: Tournament) -> int:
        return tournament.matches.count()

    @admin.display(description="server seed")
    def seed(self, tournament: Tournament) -> str:
        # The seed deals every entrant's match: shown once the close revealed it, not before.
        if tournament.closed_at is None:
            return "(revealed at the close)"
        return tournament.server_seed

    @admin.display(description="entries")
    def entries(self, tournament: Tournament) -> str:
        matches = tournament.matches.select_related("owner").order_by("created_at")
        return (
            format_html_join(
                mark_safe("<br>"),  # a constant: nothing of a user's in it
                '<a href="{}">{}</a>: {}',
                (
                    (reverse("admin:games_match_change", args=[m.pk]), m.owner.name, m.status)
                    for m in matches
                ),
            )
            or "none yet"
        )
