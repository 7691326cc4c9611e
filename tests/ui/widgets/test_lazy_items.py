"""LazyItems: a long list read a block at a time, only the blocks asked for."""

from __future__ import annotations

from lawsuit_tui.ui.widgets.paged_table import LazyItems


async def test_lazy_items_fetch_only_the_blocks_asked() -> None:
    asked: list[tuple[int, int]] = []

    async def fetch(offset: int, limit: int) -> list[int]:
        asked.append((offset, limit))
        return list(range(offset, offset + limit))

    items: LazyItems[int] = LazyItems(25, fetch, block=10)
    assert len(items) == 25 and not items.has(0, 10)
    await items.load(0, 10)
    assert asked == [(0, 10)] and items.has(0, 10) and not items.has(5, 15)
    await items.load(5, 30)
    assert asked == [(0, 10), (10, 10), (20, 5)]
    items.append(99)
    assert len(items) == 26 and items[-1] == 99 and list(items[18:26]) == [*range(18, 25), 99]
    assert items.find(lambda n: n == 99) == 25
    items.replace(3, -3)
    assert items[3] == -3
