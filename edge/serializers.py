"""Serializer pieces every app's API shares."""

import re
from datetime import UTC, datetime
from functools import partial

from django.core.validators import RegexValidator
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings


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


NAME_RULE = "no control character, line break or direction override"
"""What a name may not hold, as the schema's help texts and the refusal say it."""


class NameField(serializers.CharField):
    """A name others are shown (a player's, a tournament's), trimmed at its ends. It may hold
    any letter, mark or sign of any script (Persian names hold the zero-width non-joiner), but
    no control character, no line break and no direction override: a name that held ESC
    steered the terminal of everyone shown it (cleared their screen, retitled their window), a
    line break split the lines of a table or of a log, and a right-to-left override left open
    in a name turned the rest of its line around ("Mallory folds." read "Mallory .sdlof")."""

    # The C0 and C1 controls (tab, newline and ESC among them), the line and paragraph
    # separators, and the bidirectional embeddings, overrides and isolates (the marks LRM and
    # RLM stay: they close nothing and open nothing); drf-spectacular writes the validator's
    # pattern into the schema.
    shown_only = RegexValidator(
        r"^[^\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]*$",
        message=f"A name may hold {NAME_RULE}.",
    )

    def __init__(self, **kwargs):
        super().__init__(trim_whitespace=True, **kwargs)
        self.validators.append(self.shown_only)


class UtcDateTimeField(serializers.DateTimeField):
    """A time written in UTC (RFC 3339, with a Z), whatever time zone a request activated."""

    def __init__(self, **kwargs):
        super().__init__(default_timezone=UTC, **kwargs)


class QueryNumberField(serializers.IntegerField):
    """A whole number in a query string or header, in ASCII digits only: int() would also
    read '٣', '３', '+3' or ' 3', and DRF '1.0'; and an empty value is refused as it stands,
    not taken for the default."""

    default_error_messages = {"invalid": "A whole number in the digits 0-9 is required."}

    def get_value(self, dictionary):
        return dictionary.get(self.field_name, serializers.empty)

    def to_internal_value(self, data):
        if not re.fullmatch(r"[0-9]+", str(data)):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryBooleanField(serializers.BooleanField):
    """`true` or `false` in a query string. Left out, it is left out: DRF reads a missing
    value of a query string as an unticked checkbox, false."""

    default_error_messages = {"invalid": "Either true or false is required."}

    def get_value(self, dictionary):
        return dictionary.get(self.field_name, serializers.empty)

    def to_internal_value(self, data):
        if data not in ("true", "false"):
            self.fail("invalid")
        return data == "true"


def _is_json_integer(value) -> bool:
    # JSON Schema's integer: a number without a fraction (1.0 is one); never true or false,
    # which Python counts as 1 and 0.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


# The JSON type a body's value must have for its field, as the schema names it: DRF alone
# reads `0` as false, `7` as the string "7", "3" as 3 and an integer as a UUID.
_JSON_TYPES = (
    (serializers.BooleanField, lambda value: isinstance(value, bool)),
    (serializers.IntegerField, _is_json_integer),
    (serializers.CharField, lambda value: isinstance(value, str)),
    (serializers.UUIDField, lambda value: isinstance(value, str)),
)


def _of_its_json_type(field: serializers.Field, value) -> bool:
    """Whether `value` has the JSON type of `field`'s schema; null is left to allow_null."""
    return value is None or all(
        is_of_type(value)
        for field_class, is_of_type in _JSON_TYPES
        if isinstance(field, field_class)
    )


class RequestBodySerializer(serializers.Serializer):
    # A request body that refuses fields it does not know: a typo such as `ai_levle` is an
    # error, not a default silently used; and a value of another JSON type than its field's
    # schema names (`"new_code": 0`, `"name": 7`). Its schema says both (edge.schema).
    # (A comment: drf-spectacular publishes docstrings.)

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
            mistyped = {
                name: serializers.ErrorDetail(field.error_messages["invalid"], code="invalid")
                for name, field in self.fields.items()
                if name in data and not _of_its_json_type(field, data[name])
            }
            if mistyped:
                raise serializers.ValidationError(mistyped)
        return super().to_internal_value(data)


class Rendered:
    """A response serializer's output, made without building a serializer per call.

    `Rendered(SomeSerializer).render(data)` writes exactly what `SomeSerializer(data).data`
    writes for a mapping `data` (a value None stays None, as DRF leaves it), in the
    serializer's field order: the serializer stays the one definition of the answer's shape.
    Its fields are bound once per process and compiled into one function that builds the
    answer (as dataclasses compile their __init__), instead of DRF deep-copying the fields and
    calling a method per field on every request. A `oneOf` member (PolymorphicProxySerializer)
    holds values already shaped by their own definition, and passes through.
    """

    def __init__(self, serializer_class: type[serializers.Serializer]):
        self.render = _Compiler().function(serializer_class())


class _Compiler:
    def __init__(self):
        self.names: dict[str, object] = {}
        self.source: list[str] = []

    def function(self, serializer: serializers.Serializer):
        name = self._function(serializer)
        exec("\n".join(self.source), self.names)  # noqa: S102 - source built from fields
        return self.names[name]

    def _bind(self, value) -> str:
        name = f"_{len(self.names)}"
        self.names[name] = value
        return name

    def _function(self, serializer: serializers.Serializer) -> str:
        """A function of a mapping that writes `serializer`'s fields; returns its name."""
        items = [
            f"{name!r}: (None if (v := d[{name!r}]) is None else {self._convert(field, 'v')})"
            for name, field in serializer.fields.items()
        ]
        name = f"render_{len(self.source)}"
        body = ",\n        ".join(items)
        self.source.append(f"def {name}(d):\n    return {{\n        {body}\n    }}\n")
        return name

    def _convert(self, field, value: str) -> str:
        """An expression that writes `value` (never None) as `field` does."""
        if isinstance(field, PolymorphicProxySerializer):
            return value
        if isinstance(field, serializers.ListSerializer):
            return f"[{self._function(field.child)}(x) for x in {value}]"
        if isinstance(field, serializers.Serializer):
            return f"{self._function(field)}({value})"
        if isinstance(field, serializers.ListField):
            item = self._convert(field.child, "x")
            return f"[None if x is None else {item} for x in {value}]"
        return self._leaf(field, value)

    def _leaf(self, field, value: str) -> str:
        # For the fields whose to_representation DRF leaves as it is, the same answer for
        # every value without the method call where the value's type settles it; the
        # method itself for any other value, and for every other field.
        method = type(field).to_representation
        slow = self._bind(field.to_representation)
        if method is serializers.IntegerField.to_representation:
            return f"int({value})"
        if method is serializers.CharField.to_representation:
            return f"str({value})"
        if method is serializers.UUIDField.to_representation and field.uuid_format == "hex_verbose":
            return f"str({value})"
        if method is serializers.BooleanField.to_representation:
            return f"({value} if {value} is True or {value} is False else {slow}({value}))"
        if method is serializers.ChoiceField.to_representation and all(
            type(choice) is str for choice in field.choices
        ):
            # A string choice is written as itself (DRF maps str(choice) back to it).
            return f"({value} if type({value}) is str else {slow}({value}))"
        if method is serializers.DateTimeField.to_representation and _writes_iso_in(field):
            iso = self._bind(partial(_iso_in, field.timezone, field.to_representation))
            return f"{iso}({value})"
        return f"{slow}({value})"


def _writes_iso_in(field: serializers.DateTimeField) -> bool:
    """The field writes ISO 8601 in a zone of its own (not the request's current one)."""
    output = getattr(field, "format", api_settings.DATETIME_FORMAT)
    return hasattr(field, "timezone") and output is not None and output.lower() == ISO_8601


def _iso_in(zone, slow, value) -> str:
    """An aware time as DateTimeField writes it in ISO 8601: in `zone`, UTC as Z."""
    if not isinstance(value, datetime) or value.utcoffset() is None:
        return slow(value)
    text = value.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
