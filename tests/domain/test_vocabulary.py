"""The words shown for the service's values, in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.enums import CredentialStatus, RequestStatus
from lawsuit_tui.i18n import set_language


@pytest.fixture
def portuguese() -> Iterator[None]:
    set_language("pt-BR")
    try:
        yield
    finally:
        set_language("en")


def test_a_status_reads_as_a_word_in_any_case_the_service_writes_it() -> None:
    assert v.word(v.REQUEST_STATUS_WORDS, RequestStatus.STARTED) == "in progress"
    assert v.word(v.CREDENTIAL_STATUS_WORDS, "NOT_EXISTS") == "none registered"
    assert v.word(v.CREDENTIAL_STATUS_WORDS, CredentialStatus.NOT_EXISTS) == "none registered"


def test_an_unknown_value_is_shown_as_it_came() -> None:
    assert v.word(v.REQUEST_STATUS_WORDS, "processing") == "processing"
    assert v.word(v.REQUEST_STATUS_WORDS, None) == ""


def test_acronyms_stay_acronyms(portuguese: None) -> None:
    assert v.word(v.SEARCH_TYPE_WORDS, "lawsuit_cnj") == "CNJ"


def test_portuguese_words_agree_with_what_they_qualify(portuguese: None) -> None:
    # "a requisição" is feminine, "o monitoramento" masculine.
    assert v.word(v.REQUEST_STATUS_WORDS, "completed") == "concluída"
    assert v.word(v.TRACKING_STATUS_WORDS, "paused") == "pausado"
    assert v.word(v.AMOUNT_TIER_WORDS, "1.5M+") == "acima de R$ 1,5 milhão"
    assert v.word(v.COUNT_KIND_WORDS, "judgement-bond") == "precatório"


def test_every_member_of_each_list_has_a_word() -> None:
    tables = [getattr(v, name) for name in v.__all__ if name.endswith("_WORDS")]
    for table in tables:
        member_type = type(next(iter(table)))
        assert set(table) == set(member_type), member_type.__name__
