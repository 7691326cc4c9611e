"""Reading a paged list to its end (D20-D22).

The envelope is ``{page, page_count, all_pages_count, all_count, page_data}``. Reading stops
at ``page >= all_pages_count`` (read again on every page, so a list that grows while it is
read is followed to its new end) or at a page the service sent empty. Items are deduplicated
by id: a list read newest-first shifts when items arrive, and the same item shows up on two
pages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol, TypeVar

__all__ = ["PageLike", "iter_items", "iter_pages"]

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
