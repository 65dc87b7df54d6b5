from django.contrib import admin
from django.db.models import Count
from django.urls import reverse
from django.utils.html import format_html

from edge.admin import StrictFiltersAdmin
from players.models import Player


@admin.register(Player)
class PlayerAdmin(StrictFiltersAdmin):
    """Read-only: players are made through the API, the only place that hands out tokens.
    Tokens are never shown, not even their hashes: they live in another table, never read here."""

    # The id beside the name: the AI personas share names with people ("Darius").
    list_display = ("name", "id", "kind", "matches", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "id__istartswith")
    fields = ("id", "name", "kind", "matches", "created_at")
    readonly_fields = fields

    def get_queryset(self, request):
        # Every player, the AI personas too, has a seat in each match it plays.
        matches = Count("seats")
        return super().get_queryset(request).annotate(match_count=matches)

    @admin.display(description="matches", ordering="match_count")
    def matches(self, player: Player) -> str:
        url = reverse("admin:games_match_changelist")
        return format_html(
            '<a href="{}?seats__player__id__exact={}">{}</a>', url, player.pk, player.match_count
        )

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
