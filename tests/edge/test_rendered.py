"""`Rendered` writes exactly what the serializer it compiles writes, for every kind of field
and value, the odd ones included."""

import json
import uuid
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from rest_framework import serializers

from edge.serializers import PointsField, Rendered, UtcDateTimeField


class Inner(serializers.Serializer):
    number = serializers.IntegerField()
    flag = serializers.BooleanField(allow_null=True)


class Everything(serializers.Serializer):
    id = serializers.UUIDField()
    hex = serializers.UUIDField(format="hex")
    count = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    points = PointsField()
    flag = serializers.BooleanField()
    word = serializers.ChoiceField(choices=["call", "fold"])
    number_choice = serializers.ChoiceField(choices=[1, 2])
    when = UtcDateTimeField(allow_null=True)
    local = serializers.DateTimeField()
    words = serializers.ListField(child=serializers.ChoiceField(choices=["a", "b"]))
    maybe = serializers.ListField(child=serializers.IntegerField(allow_null=True), allow_null=True)
    inner = Inner(allow_null=True)
    inners = Inner(many=True)


def _data(**changes) -> dict:
    data = {
        "id": uuid.UUID(int=7),
        "hex": uuid.UUID(int=9),
        "count": 3,
        "name": "Roya",
        "points": Fraction(-7, 3),
        "flag": True,
        "word": "call",
        "number_choice": 2,
        "when": datetime(2026, 12, 1, 10, 0, 0, 5, tzinfo=UTC),
        "local": datetime(2026, 12, 1, 10, 0, tzinfo=UTC),
        "words": ("a", "b"),
        "maybe": [1, None],
        "inner": {"number": 1, "flag": None},
        "inners": [{"number": 2, "flag": False}, {"number": "3", "flag": "false"}],
    }
    return {**data, **changes}


ODD_VALUES = [
    {},
    {"count": None, "name": None, "when": None, "maybe": None, "inner": None},
    {"count": "12", "name": 5, "flag": "false", "word": "", "number_choice": "1"},
    {"flag": 0, "words": [], "inners": []},
    {"when": datetime(2026, 12, 1, 10, tzinfo=timezone(timedelta(hours=3, minutes=30)))},
    {"when": datetime(2026, 12, 1, 10)},  # naive: made aware in UTC, as DRF does
    {"when": "2026-12-01T10:00:00Z"},  # a string is written as it is
    {"number_choice": "2", "word": "raise"},
]


@pytest.mark.parametrize("changes", ODD_VALUES)
def test_it_writes_what_the_serializer_writes(changes):
    data = _data(**changes)
    assert json.dumps(Rendered(Everything).render(data)) == json.dumps(Everything(data).data)


def test_a_missing_field_is_an_error_not_a_silent_gap():
    data = _data()
    del data["name"]
    with pytest.raises(KeyError):
        Rendered(Everything).render(data)
