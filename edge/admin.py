"""What every admin list shares: a filter value it cannot use answers 400, never a 500 or a
silent redirect."""

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import BadRequest


class StrictFiltersAdmin(admin.ModelAdmin):
    def changelist_view(self, request, extra_context=None):
        # Postgres text cannot hold NUL, so such a search or filter would fail in the query.
        if any("\x00" in value for values in request.GET.lists() for value in values[1]):
            raise BadRequest("A filter or search value contains a NUL byte.")
        return super().changelist_view(request, extra_context)

    def get_changelist_instance(self, request):
        # Django answers a value its lookups refuse (a date that is no date, ?seeded=maybe)
        # with a redirect to a "database error" page; it is the request that is wrong.
        try:
            return super().get_changelist_instance(request)
        except IncorrectLookupParameters as error:
            raise BadRequest(f"A filter value is not valid here: {error}") from error
