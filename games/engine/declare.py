"""How an event's fields are declared: each dataclass field says, in its metadata, whether
it may leave the server, its kind and what it means (`public`, `private`). What the layers
above read of an event type (its public `Field`s, its dict form both ways) is derived from
those declarations here, so that no event type writes them out again (events.py)."""

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from functools import cache
from typing import Any

from .commands import Seeds


@dataclass(frozen=True, slots=True)
class Field:
    """One public field of an event type: its name, its kind and what it means."""

    name: str
    kind: str
    """One of KINDS; the API layer maps each kind to a serializer field."""
    doc: str


KINDS = (
    "integer",
    "seat",
    "seats",
    "boolean",
    "text",
    "points",
    "action",
    "actor",
    "outcome",
    "seat_results",
    "ai_level",
    "hash",
    "seed",
)
"""Field kinds: a count or number, a seat (0-3), a list of seats, a flag, a text, a list of
exact points (fraction strings) by seat, an action name, who acted, a deal's outcome, a
settled deal's seats as the viewer may see them, an AI level (or null), a SHA-256
commitment (or null) and a revealed server seed (or null), both in lowercase hex."""

SERVER_KINDS = ("cards", "fraction", "seeds", "player", "players")
"""Kinds only server-side fields have: a list of cards, one exact fraction, a match's
`Seeds` (stored flat, under the keys its declaration names), a player's id (text) and the
player ids of seats, by seat (None for an open seat)."""
PLAYER_KINDS = ("player", "players")
"""The kinds that carry player ids: shown to nobody, the operator included (no player id is
ever shown in an event)."""


def public(kind: str, doc: str, **options) -> Any:
    """A field that may leave the server, in every view of its event."""
    return _declared(True, kind, doc, **options)


def public_as(spec: Field, **options) -> Any:
    """A public field shared by several types (`SERIES`, `DEAL_NUMBER`)."""
    return public(spec.kind, spec.doc, **options)


def private(kind: str, doc: str, **options) -> Any:
    """A field that stays on the server: stored, replayed, never in a view."""
    return _declared(False, kind, doc, **options)


def _declared(
    is_public: bool,
    kind: str,
    doc: str,
    *,
    stored_when_set: bool = False,
    publishes: tuple[Field, ...] = (),
    stored_as: Mapping[str, str] | None = None,
    items: type["Declared"] | None = None,
    **options,
) -> Any:
    """The dataclass field with its declaration as metadata. `stored_when_set`: the dict form
    leaves it out while it holds its default, so that an event that does not use a field
    added later is stored exactly as before it. `publishes`: the public fields derived from
    it (a match's seeds publish commitments). `stored_as`: a `seeds` field's stored keys.
    `items`: the declared type of a tuple's items, each stored as its own dict."""
    metadata = {
        "public": is_public,
        "kind": kind,
        "doc": doc,
        "stored_when_set": stored_when_set,
        "publishes": publishes,
        "stored_as": stored_as,
        "items": items,
    }
    return field(metadata=metadata, **options)


_FORMS = {
    "seats": (list, tuple),
    "cards": (list, tuple),
    "players": (list, tuple),
    "points": (
        lambda totals: [str(total) for total in totals],
        lambda texts: tuple(Fraction(text) for text in texts),
    ),
    "fraction": (str, Fraction),
}
"""How a value of each kind is stored in a dict (a JSON value) and read back; a kind not
here is stored as it is."""
_AS_IT_IS = (lambda value: value, lambda value: value)


def _form(meta: Mapping) -> tuple:
    """How a field with this declaration is stored, and read back."""
    items = meta.get("items")
    if items is not None:
        return (
            lambda values: [value.to_dict() for value in values],
            lambda stored: tuple(items.from_dict(value) for value in stored),
        )
    return _FORMS.get(meta.get("kind"), _AS_IT_IS)


def _stored_seeds(seeds: Seeds, keys: Mapping[str, str]) -> dict:
    return {key: getattr(seeds, name) for name, key in keys.items()}


def _read_seeds(data: Mapping, keys: Mapping[str, str]) -> Seeds | None:
    if data.get(keys["server_seed"]) is None:
        return None
    # A key added later (held) is absent from what was stored before it: its default.
    return Seeds(**{name: data[key] for name, key in keys.items() if key in data})


def declared(cls):
    """A declared dataclass: frozen, with slots."""
    return dataclass(frozen=True, slots=True)(cls)


class Declared:
    """A dataclass whose fields are declared with `public` or `private`: its dict form, both
    ways, is derived from the declarations. A field declared neither way is stored as it is."""

    __slots__ = ()

    def to_dict(self) -> dict:
        data = {}
        for name, left_out_at, _, seed_keys, store, _ in _dict_form(type(self)):
            value = getattr(self, name)
            if left_out_at is not _ALWAYS_STORED and value == left_out_at:
                continue
            if seed_keys is not None:
                data.update(_stored_seeds(value, seed_keys))
            else:
                data[name] = value if store is None else store(value)
        return data

    @classmethod
    def from_dict(cls, data: Mapping):
        values = {}
        for name, _, required, seed_keys, _, read in _dict_form(cls):
            if seed_keys is not None:
                values[name] = _read_seeds(data, seed_keys)
            elif required or name in data:
                values[name] = data[name] if read is None else read(data[name])
        return cls(**values)


_ALWAYS_STORED = object()
"""The `left_out_at` of a field that is stored whatever its value."""


@cache
def _dict_form(cls) -> tuple:
    """Per field of a declared type, read from its declaration once (every event is stored,
    viewed and streamed through `to_dict`, and the expert AI views every event of its match
    at each decision): its name; the value it is left out at (`stored_when_set` fields, at
    their default); whether a stored dict must hold it (no default); the stored names of a
    seeds field; and how it is stored and read back (None: as it is)."""
    form = []
    for spec in fields(cls):
        meta = spec.metadata
        store, read = _form(meta)
        form.append(
            (
                spec.name,
                spec.default if meta.get("stored_when_set") else _ALWAYS_STORED,
                spec.default is MISSING,
                meta["stored_as"] if meta.get("kind") == "seeds" else None,
                None if store is _AS_IT_IS[0] else store,
                None if read is _AS_IT_IS[1] else read,
            )
        )
    return tuple(form)


def fields_of_kinds(cls, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The names of a declared type's fields of one of `kinds`."""
    return tuple(each.name for each in fields(cls) if each.metadata.get("kind") in kinds)


def public_fields(cls) -> tuple[Field, ...]:
    """The public fields of a declared type, in its fields' order; a field declared neither
    public nor private is refused, since nobody could tell whether it may leave the server."""
    found = []
    for each in fields(cls):
        meta = each.metadata
        if "public" not in meta:
            raise TypeError(f"{cls.__name__}.{each.name} is declared neither public nor private")
        if meta["public"]:
            found.append(Field(each.name, meta["kind"], meta["doc"]))
        found.extend(meta["publishes"])
    return tuple(found)
