"""Search as a use case: the writer's index follows its commits; a reader catches up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lawsuit_tui.services.search import CATCH_UP_EVERY, SearchService
from lawsuit_tui.store import Store
from tests.support.store_data import make_lawsuit

CNJ = "0001234-56.2023.8.26.0100"
OTHER = "0009999-11.2024.8.26.0001"


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[Store]:
    store = Store.open(tmp_path / "cache")
    yield store
    store.close()


def test_a_lawsuit_stored_by_this_process_is_found_without_a_catch_up(writer: Store) -> None:
    ticks = Ticks()
    service = SearchService(writer, clock=ticks)
    try:
        assert service.search_now("maria") == []  # the first search builds the index
        writer.lawsuits.upsert(make_lawsuit(CNJ), provisional=False)
        assert service.wait_idle()
        # The clock has not moved: no catch-up ran, the commit itself was indexed.
        assert [hit.code for hit in service.search_now("maria")] == [CNJ]
    finally:
        service.close()


def test_a_reader_catches_up_with_what_the_writer_stored(writer: Store) -> None:
    writer.lawsuits.upsert(make_lawsuit(CNJ), provisional=False)
    ticks = Ticks()
    service = SearchService.open_offline(writer.path)
    service._clock = ticks  # a reader process, with a clock the test moves
    try:
        assert [hit.code for hit in service.search_now("maria")] == [CNJ]
        writer.lawsuits.upsert(
            make_lawsuit(OTHER, parties=(("JOSÉ", "987.654.321-00"),)), provisional=False
        )
        assert service._store.refresh()
        assert service.search_now("jose") == []  # caught up less than CATCH_UP_EVERY ago
        ticks.now += CATCH_UP_EVERY
        assert [hit.code for hit in service.search_now("jose")] == [OTHER]
    finally:
        service.close()


async def test_rebuild_indexes_the_whole_cache_again(writer: Store) -> None:
    for n in range(5):
        writer.lawsuits.upsert(make_lawsuit(f"000{n}234-56.2023.8.26.0100"), provisional=False)
    service = SearchService(writer)
    seen: list[tuple[int, int]] = []
    try:
        status = await service.rebuild(lambda done, total: seen.append((done, total)))
        assert status.lawsuits == 5 and status.changed == 5
        assert seen[-1] == (5, 5)
        assert len(await service.search("maria", limit=3)) == 3
    finally:
        await service.aclose()
