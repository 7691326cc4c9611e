"""The inbox table (SQLite beside the engine): movements stored once, read marks, filters,
search, pages, reopen after a kill, read-only, prune."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.domain.inbox import InboxFilter
from lawsuit_tui.store import CacheReadOnly, Store
from tests.support.store_data import abandon, make_movement


def _some(store: Store) -> None:
    store.inbox.add(
        [
            make_movement("m1", received_at="2026-11-21T09:00:00Z", tier="hot", court="TJSP"),
            make_movement(
                "m2",
                received_at="2026-11-21T10:00:00Z",
                tier="warm",
                court="TJRJ",
                steps=[("Despacho", "Intime-se a parte autora para manifestação.")],
                terms=[],
            ),
            make_movement(
                "m3",
                tracking_id="trk-2",
                received_at="2026-11-20T08:00:00Z",
                tier="cold",
                code="0009999-11.2020.8.26.0001",
                steps=[("Arquivamento", "Arquivado definitivamente."), ("Sentença", "Extinção")],
                terms=["arquivamento", "sentença"],
            ),
        ]
    )


def test_a_movement_is_stored_once(store: Store) -> None:
    assert store.inbox.add([make_movement("m1")]) == ["m1"]
    assert store.inbox.add([make_movement("m1", tier="cold"), make_movement("m2")]) == ["m2"]
    assert store.inbox.get("m1")["tier"] == "hot"  # type: ignore[index]
    assert store.inbox.count() == 2
    assert store.inbox.unread_count() == 2


def test_select_newest_first_and_by_every_filter(store: Store) -> None:
    _some(store)
    inbox = store.inbox
    assert inbox.select(InboxFilter()) == ["m2", "m1", "m3"]
    assert inbox.select(InboxFilter(tier="warm")) == ["m2"]
    assert inbox.select(InboxFilter(court="TJSP")) == ["m1", "m3"]
    assert inbox.select(InboxFilter(step_type="Sentença")) == ["m1", "m3"]
    assert inbox.select(InboxFilter(term="arquivamento")) == ["m3"]
    assert inbox.select(InboxFilter(tracking_id="trk-2")) == ["m3"]
    day = InboxFilter(
        since=datetime(2026, 11, 21, tzinfo=UTC), until=datetime(2026, 11, 22, tzinfo=UTC)
    )
    assert inbox.select(day) == ["m2", "m1"]
    # words, accent- and case-insensitive, all of them, anywhere in the movement
    assert inbox.select(InboxFilter(text="SENTENCA procedente")) == ["m1"]
    assert inbox.select(InboxFilter(text="intime")) == ["m2"]
    assert inbox.select(InboxFilter(text="00099991120208260001")) == ["m3"]
    assert inbox.select(InboxFilter(text="tjrj despacho")) == ["m2"]
    assert inbox.select(InboxFilter(text="nowhere")) == []
    facets = inbox.facets()
    assert facets["tier"] == {"hot": 1, "warm": 1, "cold": 1}
    assert facets["step_type"]["Sentença"] == 2
    assert facets["term"] == {"sentença": 2, "arquivamento": 1}


def test_read_marks_change_only_the_index_and_survive_a_kill(store: Store, cache_dir: Path) -> None:
    _some(store)
    assert store.inbox.mark(["m1", "m3", "nope"], read=True, at="2026-11-21T11:00:00Z") == 2
    assert store.inbox.mark(["m1"], read=True, at="2026-11-21T12:00:00Z") == 0  # already read
    assert store.inbox.unread_count() == 1
    assert store.inbox.select(InboxFilter(unread=True)) == ["m2"]
    assert store.inbox.get("m1")["read_at"] == "2026-11-21T11:00:00Z"  # type: ignore[index]
    abandon(store)  # no checkpoint: the journal must hold it all
    with Store.open(cache_dir) as again:
        assert again.inbox.unread_count() == 1
        assert again.inbox.select(InboxFilter(unread=True)) == ["m2"]
        assert again.inbox.mark(["m1"], read=False, at="") == 1
        assert again.inbox.select(InboxFilter(unread=True)) == ["m2", "m1"]
        assert again.inbox.get("m1")["read_at"] is None  # type: ignore[index]


def test_many_reopened_pages_read_only_their_bodies_and_a_reader_follows(
    store: Store, cache_dir: Path
) -> None:
    store.inbox.add(
        make_movement(f"m{n:03d}", received_at=f"2026-11-21T09:{n // 60:02d}:{n % 60:02d}Z")
        for n in range(300)
    )
    store.close()
    with Store.open(cache_dir) as again:
        keys = again.inbox.select(InboxFilter())
        assert keys[:2] == ["m299", "m298"]
        page = again.inbox.records(keys[100:110])
        assert [m["movement_id"] for m in page] == [f"m{n:03d}" for n in range(199, 189, -1)]
        with Store.open(cache_dir, read_only=True) as reader:
            assert reader.inbox.unread_count() == 300
            assert again.inbox.mark(keys[:50], read=True, at="2026-11-21T12:00:00Z") == 50
            assert reader.refresh()  # what a read-only process's follower runs
            assert reader.inbox.unread_count() == 250  # the writer's marks are seen
            assert reader.inbox.select(InboxFilter(unread=True))[0] == "m249"
        assert again.inbox.records(["m299"])[0]["steps"][0]["step_type"] == "Sentença"
        assert again.stats()["counts"]["inbox"] == 300


def test_the_file_is_private_and_prune_forgets_old_movements(
    store: Store, cache_dir: Path, clock: Any
) -> None:
    store.inbox.add(
        [make_movement("old", received_at="2026-01-01T00:00:00Z"), make_movement("new")]
    )
    assert (cache_dir / "inbox.sqlite3").stat().st_mode & 0o777 == 0o600
    clock.now = datetime(2026, 11, 22, tzinfo=UTC)
    assert store.prune(30) >= 1
    assert store.inbox.select(InboxFilter()) == ["new"]
    assert store.inbox.select(InboxFilter(text="sentenca")) == ["new"]


def test_a_read_only_cache_refuses_marks(cache_dir: Path) -> None:
    with Store.open(cache_dir) as writer:
        writer.inbox.add([make_movement("m1")])
    with Store.open(cache_dir, read_only=True) as reader:
        assert reader.inbox.select(InboxFilter()) == ["m1"]
        with pytest.raises(CacheReadOnly):
            reader.inbox.mark(["m1"], read=True, at="2026-11-21T12:00:00Z")
