"""The pagination envelope (D20) and the page parameters with their bounds (D21)."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import Query

__all__ = ["MAX_PAGE_SIZE", "PageParams", "page_params", "paginate"]

T = TypeVar("T")

MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 20


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


def page_params(min_size: int = 1) -> Callable[..., Awaitable[PageParams]]:
    """Dependency: page >= 1, page_size min_size..1000 (D21); violations give 400 (D9)."""

    # Defaults rather than Annotated[...]: the bounds are local values, which postponed
    # annotations could not see.
    async def dependency(
        page: int = Query(1, ge=1, description="Page number, from 1"),
        page_size: int = Query(
            DEFAULT_PAGE_SIZE,
            ge=min_size,
            le=MAX_PAGE_SIZE,
            description=f"Items per page, {min_size}..{MAX_PAGE_SIZE}",
        ),
    ) -> PageParams:
        return PageParams(page, page_size)

    dependency.__name__ = f"page_params_min_{min_size}"
    return dependency
