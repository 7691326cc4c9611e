"""The dossier's report: HTML self-contained and escaped, Markdown tables intact, JSON keys,
and files never replaced; words in pt-BR (money and dates as a Brazilian reads them)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lawsuit_tui.domain.dossier import StepStatus, Verdict
from lawsuit_tui.domain.entities import Entity
from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.warrants import Warrant
from lawsuit_tui.i18n import set_language
from lawsuit_tui.services.dossier_model import (
    CountFigure,
    CountSpec,
    Decision,
    Dossier,
    StepCost,
    StepRecord,
)
from lawsuit_tui.services.dossier_report import (
    report_html,
    report_json,
    report_markdown,
    save_report,
)

WHEN = datetime(2026, 11, 16, 12, 30, tzinfo=UTC)
HOSTILE = '<script>alert("x")</script> & <img src=http://evil.example/x.png>'


@pytest.fixture
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def hostile_dossier() -> Dossier:
    key = parse_search_key("371.324.922-92")
    lawsuit = Lawsuit.model_validate(
        {
            "code": "0001234-56.2024.8.26.0100",
            "instance": 1,
            "tribunal_acronym": "TJSP",
            "classifications": [{"name": HOSTILE}],
            "distribution_date": "2024-03-01T10:00:00Z",
            "amount": 12345.67,
            "parties": [{"name": "X", "side": "Passive", "main_document": "37132492292"}],
            "last_step": {"step_type": "Sentença | mérito", "step_date": "2026-10-01T00:00:00Z"},
        }
    )
    steps = {
        name: StepRecord(
            name,
            StepStatus.DONE,
            fetched_at=WHEN,
            cost=StepCost(calls=1) if name != "warrants" else StepCost(requests=1, amount=1.5),
        )
        for name in ("gate", "count", "entity", "lawsuits", "warrants", "executions")
    }
    steps["executions"] = StepRecord("executions", StepStatus.FAILED, problem=HOSTILE)
    return Dossier(
        key=key,
        created_at=WHEN,
        updated_at=WHEN,
        steps=steps,
        has_lawsuits=True,
        counts=[CountFigure(CountSpec("total", "all lawsuits", None), 1, WHEN)],
        entities=[Entity(name=HOSTILE, entity_type="person", main_document="37132492292")],
        lawsuits=[lawsuit],
        warrants=[Warrant(status="Pendente de Cumprimento", number="123", court=HOSTILE)],
        executions=None,
        decisions=[Decision(Verdict.REJECT, HOSTILE, "ana", WHEN)],
    )


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes.extend(attrs)


def test_the_html_page_is_self_contained_and_escapes_every_value(english: None) -> None:
    page = report_html(hostile_dossier(), WHEN)
    parser = _Collector()
    parser.feed(page)
    assert not parser.tags & {"script", "img", "link", "iframe", "object", "embed"}
    assert not [name for name, _value in parser.attributes if name in ("src", "href")]
    style = page[page.index("<style>") : page.index("</style>")]
    assert "url(" not in style and "@import" not in style  # nothing it would fetch
    assert "&lt;script&gt;" in page and "&amp;" in page
    assert "<style>" in page and "@media print" in page
    assert "OPEN ARREST WARRANT" in page and 'class="alert"' in page
    assert "This step failed:" in page


def test_markdown_keeps_its_tables_whole(english: None) -> None:
    text = report_markdown(hostile_dossier(), WHEN)
    row = next(line for line in text.splitlines() if line.startswith("| 0001234-56"))
    assert row.count(" | ") == 6  # a "|" in a value is escaped, the columns stay seven
    assert "Sentença \\| mérito" in row
    assert "R$ 12.345,67" in row  # money keeps the court's form in English too
    assert "## Arrest warrants and penal executions" in text


def test_json_has_one_key_per_section_and_what_each_step_cost(english: None) -> None:
    data = report_json(hostile_dossier(), WHEN)
    json.dumps(data)  # plain JSON
    for key in ("entity", "counts", "aggregations", "lawsuits", "warrants", "executions"):
        assert key in data
    assert data["decision"]["verdict"] == "reject"
    assert data["lawsuits"][0]["side"] == "Passive" and data["lawsuits"][0]["amount"] == 12345.67
    assert data["warrants"][0]["open"] is True
    assert data["executions"] is None  # failed: not an empty list
    assert data["steps"]["warrants"]["cost"] == {
        "calls": 0,
        "requests": 1,
        "amount": 1.5,
        "per_thousand": False,
    }
    assert data["steps"]["executions"]["status"] == "failed"
    assert data["cost"]["calls"] == 4 and data["cost"]["requests"] == 1
    assert data["figures"]["by_year"] == [{"year": 2024, "lawsuits": 1}]


def test_the_report_in_portuguese() -> None:
    set_language("pt-BR")
    try:
        text = report_markdown(hostile_dossier(), WHEN)
    finally:
        set_language("en")
    assert "## Identidade (dados cadastrais)" in text
    assert "01/03/2024" in text and "R$ 12.345,67" in text
    assert "reprovado" in text.lower()


def test_a_report_never_replaces_a_file(tmp_path: Path, english: None) -> None:
    dossier = hostile_dossier()
    first = save_report(dossier, "html", tmp_path, WHEN)
    second = save_report(dossier, "html", tmp_path, WHEN)
    assert first != second and re.search(r"-2\.html$", second.name)
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    assert "37132492292" in first.name and "script" not in first.name
