"""The service's codes are shown as words in the reader's language, never raw (issue 19)."""

from __future__ import annotations

from lawsuit_tui.domain.identifiers import make_cnj
from lawsuit_tui.domain.requests import RequestRecord
from lawsuit_tui.i18n import ngettext, set_language
from lawsuit_tui.ui.lawsuit.screen import district_label
from lawsuit_tui.ui.requests.request_list import request_row, status_text


def _record(status: str, response_type: str) -> RequestRecord:
    return RequestRecord.model_validate(
        {
            "request_id": "r1",
            "status": status,
            "search": {
                "search_type": "cpf",
                "search_key": "11144477735",
                "response_type": response_type,
            },
        }
    )


def test_request_status_and_type_in_words_in_both_languages() -> None:
    row = request_row(_record("completed", "lawsuit"))
    assert str(row[0]).endswith("completed") and row[2] == "lawsuit"
    set_language("pt-BR")
    row = request_row(_record("completed", "lawsuit"))
    assert str(row[0]).endswith("concluída") and row[2] == "processo"
    assert str(status_text("pending")).endswith("pendente")
    assert str(status_text("started")).endswith("em andamento")


def test_zero_takes_the_plural_in_portuguese() -> None:
    set_language("pt-BR")
    assert ngettext("{n} request", "{n} requests", 0).format(n=0) == "0 requisições"
    assert ngettext("{n} request", "{n} requests", 1).format(n=1) == "1 requisição"
    assert ngettext("following {n} request", "following {n} requests", 0).format(n=0) == (
        "acompanhando 0 requisições"
    )


def test_the_territorial_unit_is_named_by_branch_of_justice() -> None:
    federal = make_cnj("0001234", 2024, 4, 3, "6100")
    state = make_cnj("0001234", 2024, 8, 26, "0100")
    labour = make_cnj("0001234", 2024, 5, 2, "0001")
    assert district_label(state) == "Judicial district"
    assert district_label(federal) == "Judicial section"
    assert district_label(labour) == "Locality"
    set_language("pt-BR")
    assert district_label(state) == "Comarca"
    assert district_label(federal) == "Seção judiciária"
