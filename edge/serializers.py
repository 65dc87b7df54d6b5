"""Serializer pieces every app's API shares."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field(
    {
        "type": "string",
        "pattern": r"^-?\d+(/\d+)?$",
        "description": "An exact number of points in lowest terms, as '7/3', '-1/2' or '4'.",
        "example": "7/3",
    }
)
class PointsField(serializers.CharField):
    pass


class RequestBodySerializer(serializers.Serializer):
    # A request body that refuses fields it does not know: a typo such as `ai_levle` is an
    # error, not a default silently used. (A comment: drf-spectacular publishes docstrings.)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                allowed = ", ".join(self.fields) or "none"
                raise serializers.ValidationError(
                    {
                        name: serializers.ErrorDetail(
                            f"Unknown field; allowed: {allowed}.", code="unknown_field"
                        )
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)
