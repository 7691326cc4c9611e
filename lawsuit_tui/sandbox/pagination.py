"""What every listing route of the sandbox shares: the envelope (D20), the page parameters
with each route's bounds (D75), and the encodings of filters, dates and ordering (D76).

- :func:`page_params`: ``page`` 1..:data:`MAX_PAGE` (above it a 400, never a 500: issue 18's
  ``page`` above 2^63 once overflowed the JSON writer), ``page_size`` within the route's OAS
  bounds, defaults as D75; a violation is a 400 naming the field (D64).
- :func:`query_values`: a filter given as repeated keys (``status=a&status=b``), as a JSON
  array string (``status=["a","b"]``) or as one value; :data:`ValuesQuery` documents it.
- :func:`query_instant`: a date filter as the OAS ``date-time`` or a date ``YYYY-MM-DD`` (an
  ``_lte`` date is the end of that day, UTC, D63); anything else is a 400 (``0.5`` was once
  read as a Unix time).
- :func:`query_order`: ``order`` as a JSON object string, ``order[field]=dir``,
  ``order=asc|desc`` with optional ``order_by``, or ``orderField``/``orderDirection``.

Example, a listing route::

    @router.get("/things", responses=documented(ThingsPage))
    async def list_things(
        request: Request,
        paging: Annotated[PageParams, Depends(page_params(5, max_size=100, default_size=10))],
        created_at_gte: DateQuery = None,
    ) -> FastJSON:
        since = query_instant(created_at_gte, "created_at_gte")
        statuses = query_values(request, "status")
        order = query_order(request, {"created_at"}, default=("created_at", "desc"))
        ...
        return answer(paginate(items, paging.page, paging.page_size))
"""

from __future__ import annotations

import math
import re
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import Query, Request

from lawsuit_tui.sandbox.errors import ServiceError

__all__ = [
    "DATE_PATTERN",
    "DEFAULT_PAGE_SIZE",
    "MAX_PAGE",
    "MAX_PAGE_SIZE",
    "PageParams",
    "ValuesQuery",
    "date_query",
    "listed_values",
    "order_pattern",
    "order_query",
    "page_params",
    "paginate",
    "query_instant",
    "query_order",
    "query_values",
]

T = TypeVar("T")

MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 20
# D89: pages above this are refused (400). Far beyond any list the sandbox holds, and well
# inside the 64-bit integers every JSON reader keeps exactly.
MAX_PAGE = 2**31 - 1

# D63, D89: the OAS date-time (RFC 3339) or a bare date. Documented as this pattern, so that what
# the pattern allows is what the sandbox reads (a day past the month's end rolls over, as the
# JavaScript Date the provider runs on does: 2023-02-30 is 2023-03-02).
DATE_PATTERN = (
    r"^([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"(?:[Tt ]([01][0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9])(?:\.([0-9]{1,9}))?)?"
    r"([Zz]|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])?)?$"
)
_DATE_RE = re.compile(DATE_PATTERN)


# D76: a filter of one or more values, documented as the provider's OAS does (an array of
# strings, absent = empty). Not ``list[str] | None``: schemathesis takes ``anyOf [array, null]``
# to make a number (the same text on the wire as a string) invalid data the route accepted.
ValuesQuery = Annotated[
    list[str], Query(default_factory=list, description="one or more values (D76)")
]


@dataclass(frozen=True)
class PageParams:
    page: int = 1
    page_size: int = DEFAULT_PAGE_SIZE


def paginate(items: Sequence[T], page: int, page_size: int) -> dict[str, Any]:
    """D20: ``{page, page_count, all_pages_count, all_count, page_data}``.

    ``page_count`` is the number of items on this page; a page past the last is empty.
    """
    all_count = len(items)
    start = (page - 1) * page_size
    page_data = list(items[start : start + page_size]) if start < all_count else []
    return {
        "page": page,
        "page_count": len(page_data),
        "all_pages_count": math.ceil(all_count / page_size) if all_count else 0,
        "all_count": all_count,
        "page_data": page_data,
    }


def page_params(
    min_size: int = 1, *, max_size: int = MAX_PAGE_SIZE, default_size: int = DEFAULT_PAGE_SIZE
) -> Callable[..., Awaitable[PageParams]]:
    """Dependency: ``page`` 1..MAX_PAGE and ``page_size`` ``min_size..max_size`` (D75), both
    optional with their defaults even where the OAS says required; violations give 400."""

    # Defaults rather than Annotated[...]: the bounds are local values, which postponed
    # annotations could not see.
    async def dependency(
        page: int = Query(1, ge=1, le=MAX_PAGE, description="Page number, from 1"),
        page_size: int = Query(
            default_size,
            ge=min_size,
            le=max_size,
            description=f"Items per page, {min_size}..{max_size} (default {default_size})",
        ),
    ) -> PageParams:
        return PageParams(page, page_size)

    dependency.__name__ = f"page_params_{min_size}_{max_size}_{default_size}"
    return dependency


def date_query(description: str = "date-time or YYYY-MM-DD") -> Any:
    """The ``Query`` of a date filter, for ``Annotated[str, date_query()]`` (required) or
    ``Annotated[str | None, date_query()] = None``: documented by :data:`DATE_PATTERN`,
    read by :func:`query_instant` (the pattern is not checked by pydantic, whose regex
    engine reads it otherwise than JSON Schema validators do)."""
    return Query(
        json_schema_extra={"pattern": DATE_PATTERN}, max_length=40, description=description
    )


def query_instant(value: str | None, field: str, *, end_of_day: bool = False) -> datetime | None:
    """A date filter as an aware datetime; a date alone is its first instant (or, with
    ``end_of_day``, its last: an ``_lte`` bound, D63); no offset means UTC. 400 naming
    ``field`` for anything else."""
    if value is None:
        return None
    # Read as JSON Schema validators read the documented pattern (Python's ``search``).
    match = _DATE_RE.search(value)
    if match is None:
        raise ServiceError.invalid(field, "date_time", "must be a date-time or YYYY-MM-DD")
    try:
        return _instant(*match.groups(), end_of_day=end_of_day)
    except OverflowError:
        # 9999-12-31T23:00-05:00 is past the last instant Python holds: as a bound, it is
        # the end of time (and 0001-01-01T00:00+01:00 its beginning).
        last = match.group(1) > "5000"
        return (datetime.max if last else datetime.min).replace(tzinfo=UTC)


def _instant(
    year: str,
    month: str,
    day: str,
    hour: str | None,
    minute: str | None,
    second: str | None,
    fraction: str | None,
    offset: str | None,
    *,
    end_of_day: bool,
) -> datetime:
    moment = datetime(max(1, int(year)), int(month), 1, tzinfo=UTC) + timedelta(days=int(day) - 1)
    if hour is None or minute is None:
        return moment + timedelta(days=1, microseconds=-1) if end_of_day else moment
    micros = int((fraction or "0")[:6].ljust(6, "0"))
    moment += timedelta(hours=int(hour), minutes=int(minute), seconds=int(second or 0))
    moment += timedelta(microseconds=micros)
    if offset and offset not in ("Z", "z"):
        sign = -1 if offset[0] == "-" else 1
        digits = offset[1:].replace(":", "")
        moment -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return moment


def query_values(request: Request, name: str) -> list[str] | None:
    """Every value of filter ``name`` (D76): repeated keys, a JSON array string, or one
    value; None when the filter is not given. A value that starts as an array and is not a
    JSON array of values is a 422 naming the filter: the documented schema (an array of
    strings) allows the text, the service cannot read it (D94)."""
    raw = request.query_params.getlist(name)
    if not raw:
        return None
    return _expanded(name, raw)


def listed_values(name: str, raw: Sequence[str]) -> list[str]:
    """The values of filter ``name`` given as ``raw`` (a :data:`ValuesQuery`), as
    :func:`query_values` reads them, empty values left out (``status=`` filters nothing)."""
    return [value for value in _expanded(name, raw) if value.strip()]


def _expanded(name: str, raw: Sequence[str]) -> list[str]:
    values: list[str] = []
    for item in raw:
        text = item.strip()
        if not text.startswith("["):
            values.append(item)
            continue
        try:
            decoded = orjson.loads(text)
        except orjson.JSONDecodeError:
            raise ServiceError.unusable(name, "not a JSON array") from None
        if not isinstance(decoded, list) or not all(
            isinstance(v, str | int | float) and not isinstance(v, bool) for v in decoded
        ):
            raise ServiceError.unusable(name, "must be an array of strings")
        values.extend(str(v) for v in decoded)
    return values


_DIRECTIONS = ("asc", "desc")
_DIRECTION = "([aA][sS][cC]|[dD][eE][sS][cC])"


def order_pattern(fields: Collection[str]) -> str:
    """D76, D89: the ``order`` values documented for a route ordering by ``fields``."""
    names = "|".join(sorted(fields))
    return rf'^({_DIRECTION}|\{{ *"({names})" *: *"{_DIRECTION}" *\}})$'


def order_query(fields: Collection[str], description: str) -> Any:
    """The ``Query`` of an ``order`` parameter, for ``Annotated[str | None, order_query(...)]
    = None``: documented by :func:`order_pattern`, read by :func:`query_order`."""
    return Query(
        max_length=200,
        json_schema_extra={"pattern": order_pattern(fields)},
        description=description,
    )


def query_order(
    request: Request, fields: Collection[str], *, default: tuple[str, str]
) -> tuple[str, str]:
    """The ordering asked for (D76) as ``(field, "asc"|"desc")``; ``default`` when none.

    Accepted: ``order={"created_at":"desc"}``, ``order[created_at]=desc``, ``order=desc``
    with optional ``order_by=created_at`` (or ``order_by`` alone), ``orderField``/
    ``orderDirection``. A field or a
    direction not known is a 400 naming ``order``; an ``order_by`` that names no field is a
    400 naming it, whatever else says the order (its documented pattern refuses it)."""
    params = request.query_params
    field, direction = default
    order_by = params.get("order_by")
    if order_by is not None and order_by.strip() not in fields:
        raise ServiceError.invalid(
            "order_by",
            "pattern",
            f"cannot order by {order_by!r} (one of: {', '.join(sorted(fields))})",
        )
    found: tuple[str, str] | None = None
    for key, value in params.multi_items():
        if key.startswith("order[") and key.endswith("]"):
            found = (key[6:-1], value)
    order = params.get("order")
    if order is not None:
        if re.search(order_pattern(fields), order) is None:
            raise ServiceError.invalid(
                "order", "pattern", 'must be asc, desc or {"<field>": "asc|desc"}'
            )
        text = order.strip()
        if text.startswith("{"):
            try:
                decoded = orjson.loads(text)
            except orjson.JSONDecodeError:
                raise ServiceError.invalid("order", "json_invalid", "not a JSON object") from None
            if not isinstance(decoded, dict) or len(decoded) != 1:
                raise ServiceError.invalid("order", "type", "must name one field")
            [(name, value)] = decoded.items()
            found = (str(name), str(value))
        else:
            found = (params.get("order_by", field), text)
    if params.get("orderField") is not None or params.get("orderDirection") is not None:
        found = (params.get("orderField", field), params.get("orderDirection", direction))
    if found is None and params.get("order_by") is not None:
        found = (params["order_by"], direction)  # a field alone: its default direction
    if found is None:
        return default
    name, value = found[0].strip(), found[1].strip().lower()
    if name not in fields:
        raise ServiceError.invalid(
            "order", "field", f"cannot order by {name!r} (one of: {', '.join(sorted(fields))})"
        )
    if value not in _DIRECTIONS:
        raise ServiceError.invalid("order", "direction", "must be asc or desc")
    return name, value
