"""What every viewset shares, whichever app it belongs to."""

from rest_framework import viewsets
from rest_framework.pagination import PageNumberPagination


def valid(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class RateScopedViewSet(viewsets.GenericViewSet):
    # Actions may count against stricter rate limits, named per action in
    # `action_rate_scopes`; the gate (asnas_api.gate) reads them per request as `extra_rate_scopes`.
    # (Comments, not docstrings: drf-spectacular would publish a docstring.)

    action_rate_scopes: dict[str, tuple[str, ...]] = {}

    @property
    def extra_rate_scopes(self) -> dict[str, tuple[str, ...]]:
        return {self.request.method: self.action_rate_scopes.get(self.action, ())}


class DescribedPagination(PageNumberPagination):
    """Pages of 20 (`page_size` up to 100) whose schema says what is counted and listed."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
    counted = "How many there are in all."
    listed = "This page's items."

    def get_paginated_response_schema(self, schema):
        described = super().get_paginated_response_schema(schema)
        for name, text in {
            "count": self.counted,
            "next": "The URL of the next page, or null on the last.",
            "previous": "The URL of the previous page, or null on the first.",
            "results": self.listed,
        }.items():
            described["properties"][name]["description"] = text
        return described
