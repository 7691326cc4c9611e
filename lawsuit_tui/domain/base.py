"""The base of every model of the service interface, and the shared field types.

Every resource model inherits :class:`ApiModel`: unknown fields are kept (``extra="allow"``),
so a payload survives ``model_validate`` then ``model_dump(mode="json", exclude_unset=True)``
unchanged, including fields the service adds later, at any depth.

Schemas are built lazily (``defer_build``) so that importing the domain stays cheap; the
first validation of a model pays for its schema once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, ValidationError

__all__ = [
    "ApiModel",
    "Code",
    "JsonObject",
    "Number",
    "Timestamp",
    "as_datetime",
    "format_timestamp",
    "validated_or_raw",
]


# The sets of field names models were validated with, one object for each distinct set.
# Pydantic gives every instance its own set (728 bytes for a step's 13 fields: 7 MiB of a
# lawsuit of 10,000 steps), though the instances of a list mostly carry the same fields.
_FIELD_SETS: dict[frozenset[str], set[str]] = {}
_FIELD_SETS_KEPT = 4096


class ApiModel(BaseModel):
    """Base of every model: keeps unknown fields and accepts field names or aliases."""

    model_config = ConfigDict(
        extra="allow",
        populate_by_name=True,
        defer_build=True,
    )

    def model_post_init(self, context: Any, /) -> None:
        # Share the set of fields given with the instances given the same ones (see
        # _FIELD_SETS); __setattr__ copies it before pydantic adds a name to it.
        given = self.__pydantic_fields_set__
        key = frozenset(given)
        shared = _FIELD_SETS.get(key)
        if shared is None:
            if len(_FIELD_SETS) >= _FIELD_SETS_KEPT:
                return
            shared = _FIELD_SETS.setdefault(key, given)
        object.__setattr__(self, "__pydantic_fields_set__", shared)

    def __setattr__(self, name: str, value: Any) -> None:
        given = self.__pydantic_fields_set__
        if _FIELD_SETS.get(frozenset(given)) is given:
            object.__setattr__(self, "__pydantic_fields_set__", set(given))
        super().__setattr__(name, value)

    @property
    def extra_fields(self) -> dict[str, Any]:
        """The fields of the payload this model does not declare (kept, never dropped)."""
        return dict(self.__pydantic_extra__ or {})

    def to_json_dict(self) -> dict[str, Any]:
        """The payload as received (unset fields left out), ready for JSON."""
        return self.model_dump(mode="json", exclude_unset=True)


def validated_or_raw(model: type[ApiModel] | None, value: dict[str, Any]) -> Any:
    """``value`` as ``model``, or the raw object when there is no model or it does not fit:
    a payload is kept as it came rather than refused."""
    if model is None:
        return value
    try:
        return model.model_validate(value)
    except ValidationError:
        return value


def format_timestamp(value: datetime | str) -> str:
    """A timestamp as the service writes it (D2): ISO 8601, milliseconds, ``Z`` for UTC.

    Sub-millisecond precision, when present, is kept (all six digits) so that the instant
    never changes on the way through a dump.
    """
    if isinstance(value, str):
        return value
    fraction = (
        f".{value.microsecond // 1000:03d}"
        if value.microsecond % 1000 == 0
        else f".{value.microsecond:06d}"
    )
    naive = value.replace(tzinfo=None)
    text = naive.replace(microsecond=0).isoformat() + fraction
    offset = value.utcoffset()
    if offset is None:
        return text
    if not offset:
        return text + "Z"
    return text + value.isoformat()[len(naive.isoformat()) :]


# The spec gives every timestamp as an ISO 8601 string. A value that does not parse as a
# date-time (an empty string, a local format) is kept as the string rather than failing the
# whole payload; ``as_datetime`` gives the parsed value or None. JSON dumps write the D2 form.
Timestamp = Annotated[
    datetime | str,
    Field(union_mode="left_to_right"),
    PlainSerializer(format_timestamp, return_type=str, when_used="json"),
]

# Numbers the spec types as "number": ints stay ints and floats stay floats, so that a dump
# writes back exactly what came in (1500 is not turned into 1500.0).
Number = int | float

# Codes whose type the spec does not give (court, class and subject codes): kept as sent.
Code = str | int

JsonObject = dict[str, Any]


def as_datetime(value: datetime | str | None) -> datetime | None:
    """The datetime of a Timestamp field, or None when absent or unparseable."""
    if isinstance(value, datetime):
        return value
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
