"""The full-text index beside the cache: what it finds, how it ranks, how it catches up."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from lawsuit_tui.store import Store
from lawsuit_tui.store.indexes.fulltext import (
    INDEX_FILE,
    FullTextIndex,
    indexed_lawsuit,
    match_expression,
)
from tests.support.store_data import make_lawsuit

CNJ = "0001234-56.2023.8.26.0100"
OTHER = "0009999-11.2024.8.26.0001"


def lawsuit_with_steps(code: str, texts: list[str], **kwargs: Any) -> dict[str, Any]:
    lawsuit = make_lawsuit(code, **kwargs)
    lawsuit["steps"] = [
        {"step_id": f"s{i}", "step_type": "DESPACHO", "content": text}
        for i, text in enumerate(texts)
    ]
    return lawsuit


@pytest.fixture
def index(store: Store) -> FullTextIndex:
    found = FullTextIndex.open(store.path)
    yield found
    found.close()


def fill(index: FullTextIndex, store: Store) -> int:
    return index.catch_up(store.lawsuits.stamps(), store.lawsuits.by_key)


def codes(index: FullTextIndex, text: str) -> list[str]:
    return [hit.code for hit in index.search(text)]


def test_names_match_without_accents_or_case_and_cut_short(
    store: Store, index: FullTextIndex
) -> None:
    store.lawsuits.upsert(
        make_lawsuit(CNJ, parties=(("JOÃO DA CONCEIÇÃO", "123.456.789-09"),)), provisional=False
    )
    store.lawsuits.upsert(
        make_lawsuit(OTHER, parties=(("ANA PAULA", "987.654.321-00"),)), provisional=False
    )
    assert fill(index, store) == 2
    assert codes(index, "joao conceicao") == [CNJ]
    assert codes(index, "Conceição") == [CNJ]
    assert codes(index, "conc jo") == [CNJ]
    assert codes(index, "joao paula") == []


def test_documents_and_numbers_match_as_written_bare_or_cut_short(
    store: Store, index: FullTextIndex
) -> None:
    store.lawsuits.upsert(make_lawsuit(CNJ), provisional=False)
    fill(index, store)
    for text in ("123.456.789-09", "12345678909", "1234567", CNJ, "00012345620238260100"):
        assert codes(index, text) == [CNJ], text
    assert codes(index, "123456SP") == [CNJ]  # the lawyer's OAB


def test_steps_classes_and_courts_are_searched_and_names_rank_first(
    store: Store, index: FullTextIndex
) -> None:
    store.lawsuits.upsert(
        lawsuit_with_steps(CNJ, ["Juntada de petição de Maria Penhora"]), provisional=False
    )
    store.lawsuits.upsert(
        make_lawsuit(OTHER, parties=(("PENHORA LTDA", "11.222.333/0001-81"),)),
        provisional=False,
    )
    fill(index, store)
    assert codes(index, "penhora") == [OTHER, CNJ]
    assert codes(index, "juntada peticao") == [CNJ]
    assert set(codes(index, "procedimento comum")) == {CNJ, OTHER}
    assert set(codes(index, "tjsp")) == {CNJ, OTHER}
    hit = index.search("juntada")[0]
    assert hit.matched == ["Juntada"]
    assert "Juntada" in hit.plain_snippet and "\x02" not in hit.plain_snippet


def test_what_people_type_is_never_query_syntax(store: Store, index: FullTextIndex) -> None:
    store.lawsuits.upsert(make_lawsuit(CNJ), provisional=False)
    fill(index, store)
    for text in ('"maria', "maria OR", "(maria", "maria -silva", "NEAR(maria)", "*", "^maria"):
        index.search(text)  # no sqlite3.OperationalError
    assert match_expression("  ") is None
    assert match_expression("--") is None
    assert codes(index, '"maria" (silva') == [CNJ]
    assert codes(index, "maria AND silva") == []  # "and" is a word to find, not an operator


def test_catching_up_indexes_changed_records_and_forgets_removed_ones(
    store: Store, index: FullTextIndex, clock: Any
) -> None:
    store.lawsuits.upsert(lawsuit_with_steps(CNJ, ["citação"]), provisional=False)
    store.lawsuits.upsert(make_lawsuit(OTHER), provisional=False)
    assert fill(index, store) == 2
    assert fill(index, store) == 0  # nothing changed: nothing read
    clock.advance(seconds=60)
    newer = lawsuit_with_steps(CNJ, ["citação", "sentença de procedência"])
    newer["updated_at"] = "2026-02-01T10:00:00Z"
    store.lawsuits.upsert(newer, provisional=False)
    assert fill(index, store) == 1
    assert codes(index, "procedencia") == [CNJ]
    stamps = store.lawsuits.stamps()
    del stamps[next(k for k in stamps if k.startswith("00099991120248260001"))]
    assert index.catch_up(stamps, store.lawsuits.by_key) == 1
    assert codes(index, "maria") == [CNJ]
    assert index.count() == 1


def test_the_index_file_is_private_and_a_damaged_one_is_started_afresh(
    store: Store, tmp_path: Path
) -> None:
    store.lawsuits.upsert(make_lawsuit(CNJ), provisional=False)
    index = FullTextIndex.open(store.path)
    fill(index, store)
    index.close()
    path = store.path / INDEX_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    index = FullTextIndex.open(store.path)
    try:
        assert index.count() == 0
        assert fill(index, store) == 1
        assert codes(index, "maria") == [CNJ]
    finally:
        index.close()


def test_the_view_of_a_lawsuit_without_fields_is_empty_not_an_error() -> None:
    item = indexed_lawsuit("k", 1.0, {"code": CNJ, "parties": "not a list", "steps": [None, 3]})
    assert item.code == CNJ and item.title == "" and item.court == ""
