"""What every viewset shares, whichever app it belongs to."""

from rest_framework import viewsets


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
