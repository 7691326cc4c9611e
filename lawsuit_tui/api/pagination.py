"""Reading a paged list to its end (D20-D22), and a list that must be read in date windows
(D63, D88).

The envelope is ``{page, page_count, all_pages_count, all_count, page_data}``. Reading stops
at ``page >= all_pages_count`` (read again on every page, so a list that grows while it is
read is followed to its new end) or at a page the service sent empty. Items are deduplicated
by id: a list read newest-first shifts when items arrive, and the same item shows up on two
pages.

:func:`walk_windows` reads a list whose route requires a date range (``GET /requests``:
``created_at_gte`` and ``created_at_lte`` required, ``page_size`` at most 100), newest window
first, adapting to what the service refuses. Example::

    async def fetch(page: int, size: int, window: Window) -> Page[RequestRecord]:
        return await api.list_requests(page, size, window=window)

    async for page in walk_windows(fetch, since, until):
        ...  # items may repeat across windows: merge by id (iter_items does)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar

from lawsuit_tui.api.errors import BadRequest
from lawsuit_tui.api.filters import iso_z

__all__ = [
    "HISTORY_START",
    "PageLike",
    "Window",
    "WindowPolicy",
    "iter_items",
    "iter_pages",
    "walk_windows",
]

# D88: where a history with no lower bound starts (the provider's service is younger).
HISTORY_START = datetime(2000, 1, 1, tzinfo=UTC)

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class PageLike(Protocol[T_co]):
    """The envelope as read here (``Page`` and its subclasses such as ``ResponsesPage``)."""

    @property
    def page(self) -> int: ...

    @property
    def page_count(self) -> int: ...

    @property
    def all_pages_count(self) -> int: ...

    @property
    def all_count(self) -> int: ...

    @property
    def page_data(self) -> Sequence[T_co]: ...


P = TypeVar("P", bound=PageLike[object])


async def iter_pages(
    fetch: Callable[[int], Awaitable[P]], *, start_page: int = 1
) -> AsyncIterator[P]:
    """Every page from ``start_page`` on, fetched one at a time."""
    number = start_page
    while True:
        page = await fetch(number)
        yield page
        # Empty as the service sent it: page_data may have been filtered again here (D23),
        # and a page the filter emptied says nothing about the pages after it.
        if not page.page_data and page.page_count <= 0:
            return
        last = max(page.all_pages_count, 0)
        if max(page.page, number) >= last:
            return
        number += 1


async def iter_items(
    pages: AsyncIterator[PageLike[T]],
    key: Callable[[T], object],
    *,
    keep: Callable[[T], bool] | None = None,
) -> AsyncIterator[T]:
    """The items of ``pages``, each id once, those ``keep`` refuses left out."""
    seen: set[object] = set()
    async for page in pages:
        for item in page.page_data:
            ident = key(item)
            if ident is not None:
                if ident in seen:
                    continue
                seen.add(ident)
            if keep is None or keep(item):
                yield item


@dataclass(frozen=True)
class Window:
    """A closed range of creation times to list (both bounds inclusive). ``dates_only``: send
    the bounds as dates (``YYYY-MM-DD``), for a service that refuses full timestamps."""

    since: datetime
    until: datetime
    dates_only: bool = False

    def to_query(self) -> dict[str, str]:
        if self.dates_only:
            return {
                "created_at_gte": self.since.astimezone(UTC).date().isoformat(),
                "created_at_lte": self.until.astimezone(UTC).date().isoformat(),
            }
        return {"created_at_gte": iso_z(self.since), "created_at_lte": iso_z(self.until)}


@dataclass(frozen=True)
class WindowPolicy:
    """D88: how a windowed list is walked. ``page_sizes``: the size asked for first, then
    those tried when the service refuses one; ``max_items``: a window holding more is split
    (page numbers stay small); ``window``: the span tried first once a range is too big."""

    page_sizes: tuple[int, ...] = (100, 50, 10)
    max_items: int = 10_000
    window: timedelta = timedelta(days=30)
    min_window: timedelta = timedelta(minutes=1)


def _names(error: BadRequest, prefix: str) -> bool:
    fields = [item.field or "" for item in error.items]
    texts = [*fields, *error.messages, error.message or ""]
    return any(prefix in text for text in texts)


class _Walk:
    """One walk's adaptation state: the page size in use and the form of the dates."""

    def __init__(self, policy: WindowPolicy) -> None:
        self.policy = policy
        self.size_index = 0
        self.dates_only = False

    @property
    def size(self) -> int:
        return self.policy.page_sizes[self.size_index]

    def adapt(self, error: BadRequest) -> bool:
        """Change what the refusal names (D63); False when nothing is left to change."""
        if _names(error, "page_size") and self.size_index + 1 < len(self.policy.page_sizes):
            self.size_index += 1
            return True
        if _names(error, "created_at") and not self.dates_only:
            self.dates_only = True
            return True
        return False


async def walk_windows(
    fetch: Callable[[int, int, Window], Awaitable[P]],
    since: datetime | None,
    until: datetime,
    policy: WindowPolicy | None = None,
    *,
    on_total: Callable[[int], object] | None = None,
) -> AsyncIterator[P]:
    """Every page of the list created in ``since``..``until``, newest window first (D63, D88).

    The whole range is asked for first; a window holding more than ``max_items`` is narrowed
    (to ``window``, then by halves), and after a window within bounds the next, older one
    doubles. A 400 naming ``page_size`` retries the page with the next smaller size (the page
    recomputed from the item offset); one naming ``created_at`` retries with dates only. A
    service that ignores the dates (a narrower window counts as many) is read once, whole.
    ``on_total`` is told how many the whole range holds (the first answer's ``all_count``).
    """
    walk = _Walk(policy or WindowPolicy())
    start = since or HISTORY_START
    high = until
    span = high - start
    # The count of the last window found too big, and where it started: a narrower window
    # counting as many holds all of it (or the service ignores the dates).
    last_too_big: int | None = None
    too_big_from = start

    async def fetch_adapting(page: int, offset: int, window: Window) -> tuple[P, int]:
        """The page at ``page`` (or, after a size change, the one holding ``offset``)."""
        while True:
            try:
                current = replace(window, dates_only=walk.dates_only)
                return await fetch(page, walk.size, current), page
            except BadRequest as error:
                if not walk.adapt(error):
                    raise
                page = offset // walk.size + 1

    while True:
        low = max(start, high - span)
        window = Window(low, high)
        first, _number = await fetch_adapting(1, 0, window)
        total = max(first.all_count, 0)
        if on_total is not None and low == start and high == until:
            on_total(total)
        narrower = high - low > walk.policy.min_window
        if total > walk.policy.max_items and narrower and total != last_too_big:
            last_too_big, too_big_from = total, low
            span = min(walk.policy.window, (high - low) / 2)
            continue
        # As many as in a too-big window reaching the start: nothing is older than this one.
        holds_the_rest = total == last_too_big and too_big_from <= start
        async for page in _window_pages(first, window, walk, fetch_adapting):
            yield page
        if holds_the_rest or low <= start:
            return
        last_too_big = None
        high = low
        span = span * 2


async def _window_pages(
    first: P,
    window: Window,
    walk: _Walk,
    fetch_adapting: Callable[[int, int, Window], Awaitable[tuple[P, int]]],
) -> AsyncIterator[P]:
    page, number, offset = first, 1, 0
    while True:
        yield page
        if not page.page_data and page.page_count <= 0:
            return
        offset += max(len(page.page_data), page.page_count)
        if max(page.page, number) >= max(page.all_pages_count, 0):
            return
        page, number = await fetch_adapting(number + 1, offset, window)
