"""The pagination envelope shared by every list endpoint."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import Field

from lawsuit_tui.domain.base import ApiModel

__all__ = ["Page", "PageEnvelope"]

T = TypeVar("T")


class PageEnvelope(ApiModel):
    """``{page, page_count, all_pages_count, all_count, page_data}`` at the root.

    ``page_count`` is the number of items on this page, not the number of pages.
    Subclasses type ``page_data``; :class:`Page` does it generically.
    """

    page: int = 1
    page_count: int = 0
    all_pages_count: int = 0
    all_count: int = 0
    page_data: list[Any] = Field(default_factory=list)

    @property
    def is_last(self) -> bool:
        """True on the last page (page reaches all_pages_count) or on an empty page (D20)."""
        return self.page >= self.all_pages_count or not self.page_data


class Page(PageEnvelope, Generic[T]):
    """A page of ``T``: ``Page[RequestRecord]``, ``Page[TrackingRecord]``.

    Parametrizing builds a schema, so modules that are imported eagerly should subclass
    :class:`PageEnvelope` with a typed ``page_data`` instead (as ``ResponsesPage`` does).
    """

    page_data: list[T] = Field(default_factory=list)
