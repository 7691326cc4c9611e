"""Warrant, execution and the other searches (D68, D115), warrants (D116) and transfer files
(D123) in the client's models."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from lawsuit_tui.domain.bodies import (
    CreateRequestBody,
    accepted_response_types,
    attachments_allowed,
    response_type_problem,
    validation_messages,
)
from lawsuit_tui.domain.enums import PrisonRegime, ResponseType, TransferFileStatus
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.transfer_files import (
    TransferFile,
    TransferFilePatchBody,
    TransferFilesPageParams,
)
from lawsuit_tui.domain.warrants import (
    Warrant,
    execution_is_active,
    prison_regime,
    warrant_is_open,
)

CPF = "999.999.999-99"
CNJ = "1001234-56.2023.8.26.0100"


def messages(model: type[BaseModel], data: Any) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return validation_messages(caught.value)


@pytest.mark.parametrize(
    "search",
    [
        # The warrant page's four examples and the execution page's four (search part).
        {"search_type": "cpf", "search_key": CPF, "response_type": "warrant"},
        {"search_type": "name", "search_key": "John Smith", "response_type": "warrant"},
        {"search_type": "rji", "search_key": "00000000000000000000", "response_type": "warrant"},
        {"search_type": "cpf", "search_key": CPF, "response_type": "execution"},
        {"search_type": "name", "search_key": "John Smith", "response_type": "execution"},
        {"search_type": "lawsuit_cnj", "search_key": CNJ, "response_type": "execution"},
        {"search_type": "cnpj", "search_key": "12345678000195", "response_type": "execution"},
        {"search_type": "cpf", "search_key": CPF, "response_type": "entity"},
    ],
)
def test_the_documented_criminal_searches_are_accepted(search: dict[str, Any]) -> None:
    # Before D68 the client refused every one of these before sending.
    body = CreateRequestBody.model_validate({"search": search})
    assert body.to_wire()["search"] == search


def test_the_matrix_of_d68() -> None:
    assert accepted_response_types("rji") == (ResponseType.WARRANT,)
    assert accepted_response_types("cpf")[0] is ResponseType.LAWSUITS
    assert ResponseType.WARRANT not in accepted_response_types("cnpj")
    assert ResponseType.EXECUTION in accepted_response_types("lawsuit_cnj")
    assert accepted_response_types("custom") == (ResponseType.LAWSUITS,)
    assert accepted_response_types("lawsuit_attachment") == (ResponseType.LAWSUIT,)
    assert response_type_problem("cnpj", "warrant") is not None
    assert response_type_problem("oab", "warrant") is not None
    # In requests.json's enum but not in the matrix: the service decides (D68).
    assert response_type_problem("cpf", "sanction") is None


def test_attachments_for_cnj_and_warrant_searches_only() -> None:
    assert attachments_allowed("lawsuit_cnj", "execution")
    assert attachments_allowed("cpf", "warrant")
    assert attachments_allowed("rji", "warrant")
    assert not attachments_allowed("cpf", "execution")  # the execution page: CNJ only
    data = {"search": {"search_type": "cpf", "search_key": CPF, "response_type": "execution"}}
    assert messages(CreateRequestBody, {**data, "with_attachments": True}) == [
        "with_attachments applies only to lawsuit_cnj and warrant searches, not to cpf"
    ]
    warrant = {"search": {"search_type": "cpf", "search_key": CPF, "response_type": "warrant"}}
    wire = CreateRequestBody.model_validate({**warrant, "with_attachments": True}).to_wire()
    assert wire["with_attachments"] is True


def test_a_custom_search_needs_a_filter_and_no_key() -> None:
    custom = {"search_type": "custom", "search_key": ""}
    assert messages(CreateRequestBody, {"search": custom}) == [
        "search: a custom search needs at least one filter"
    ]
    with_filter = {**custom, "search_params": {"filter": {"tribunals": {"keys": ["TRT2"]}}}}
    body = CreateRequestBody.model_validate({"search": with_filter})
    assert body.to_wire()["search"]["search_key"] == ""
    # Any other search still needs its key.
    assert messages(CreateRequestBody, {"search": {"search_type": "cpf", "search_key": " "}}) == [
        "search.search_key: search_key must not be empty"
    ]


@pytest.mark.parametrize("search_type", ["lawsuit_attachment", "execution_attachment"])
def test_an_attachment_search_names_its_attachment(search_type: str) -> None:
    search: dict[str, Any] = {"search_type": search_type, "search_key": CNJ}
    assert messages(CreateRequestBody, {"search": search}) == [
        f"search: a {search_type} search needs search_params.attachment_id"
    ]
    search["search_params"] = {"attachment_id": "60153051-1-1"}
    CreateRequestBody.model_validate({"search": search})


# --- warrants and executions --------------------------------------------------------------


WARRANT: dict[str, Any] = {
    "warrant_id": "c6a1e4f2",
    "tribunal_id": "26",
    "individual_id": "20231234567890123456",
    "warrant_type": "warrant_of_arrest",
    "arrest_type": "provisional",
    "law_type": {"number": "157", "description": "Código Penal, art. 157 (roubo)"},
    "number": "0001234-56.2023.8.26.0050.01.0001-07",
    "status": "Pendente de Cumprimento",
    "code": "0001234-56.2023.8.26.0050",
    "tribunal": "26",
    "justice": "8",
    "tribunal_acronym": "TJSP",
    "regime": "Fechado",
    "entity": {"name": "FULANO DE TAL", "entity_type": "person", "partners": []},
    "future_field": {"kept": True},
}


def test_a_warrant_response_is_typed_and_round_trips() -> None:
    record = ResponseRecord.model_validate({"response_type": "warrant", "response_data": WARRANT})
    warrant = record.warrant
    assert isinstance(warrant, Warrant)
    assert warrant.laws[0].number == "157"
    assert warrant.person_name == "FULANO DE TAL"
    assert warrant_is_open(warrant)
    assert record.to_json_dict()["response_data"] == WARRANT


def test_law_type_as_a_list_is_read_too() -> None:  # D85
    warrant = Warrant.model_validate({**WARRANT, "law_type": [{"number": "33"}, {"number": "35"}]})
    assert [law.number for law in warrant.laws] == ["33", "35"]
    assert warrant.to_json_dict()["law_type"] == [{"number": "33"}, {"number": "35"}]


def test_which_warrants_are_open() -> None:
    assert not warrant_is_open(Warrant.model_validate({**WARRANT, "status": "Cumprido"}))
    assert not warrant_is_open(Warrant.model_validate({**WARRANT, "status": "REVOGADO"}))
    assert warrant_is_open(Warrant.model_validate({"warrant_id": "x"}))  # no status: be safe


def test_regimes_in_either_language() -> None:
    assert prison_regime("Semi-open") is PrisonRegime.SEMI_OPEN
    assert prison_regime("FECHADO") is PrisonRegime.CLOSED
    assert prison_regime("domiciliar") == "domiciliar"
    assert prison_regime("") is None


def test_an_execution_response_is_a_lawsuit() -> None:  # D70
    data = {"code": CNJ, "status": "Ativo", "phase": "Em Cumprimento", "tags": {"criminal": True}}
    record = ResponseRecord.model_validate({"response_type": "execution", "response_data": data})
    assert isinstance(record.lawsuit, Lawsuit)
    assert execution_is_active(record.lawsuit)
    archived = Lawsuit.model_validate({**data, "phase": "Arquivado"})
    assert not execution_is_active(archived)
    finished = Lawsuit.model_validate({**data, "status": "Finalizado"})
    assert not execution_is_active(finished)


# --- transfer files ----------------------------------------------------------------------


def test_a_transfer_file_reads_numbers_as_the_page_writes_them() -> None:
    item = TransferFile.model_validate(
        {
            "transfer_file_id": "be4ed52a",
            "file_size": 0.038,
            "lawsuits_count": 19.0,
            "status": "COMPLETED",
            "file_type": "parquet",
        }
    )
    assert item.lawsuits_count == 19
    assert item.status is TransferFileStatus.COMPLETED
    assert item.ready
    assert item.size_bytes == 38_000


def test_a_file_is_marked_downloaded_or_error_with_a_message() -> None:
    assert TransferFilePatchBody(status="downloaded").to_wire() == {"status": "downloaded"}
    assert messages(TransferFilePatchBody, {"status": "completed"}) == [
        "a file can only be marked downloaded or error, not completed"
    ]
    assert messages(TransferFilePatchBody, {"status": "error"}) == [
        "say what went wrong: marking a file as error needs a message"
    ]
    body = TransferFilePatchBody(status="error", error_message="parquet ilegível")
    assert body.to_wire() == {"status": "error", "error_message": "parquet ilegível"}


def test_transfer_file_pages_hold_5_to_100() -> None:  # D75
    assert TransferFilesPageParams().to_query() == {"page": "1", "page_size": "10"}
    assert messages(TransferFilesPageParams, {"page_size": 101}) == [
        "page_size: page_size must be between 5 and 100, not 101"
    ]
    assert messages(TransferFilesPageParams, {"page_size": 4})
