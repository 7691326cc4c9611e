"""The CNJ court table (J.TR of a CNJ number)."""

from __future__ import annotations

import pytest

from lawsuit_tui.domain.courts import (
    BR_STATES,
    SEGMENTS,
    STATE_CODES,
    Court,
    all_courts,
    court_by_acronym,
    court_for,
)


@pytest.mark.parametrize(
    ("segment", "code", "acronym", "name"),
    [
        (8, 26, "TJSP", "Tribunal de Justiça do Estado de São Paulo"),
        (8, 19, "TJRJ", "Tribunal de Justiça do Estado do Rio de Janeiro"),
        (8, 13, "TJMG", "Tribunal de Justiça do Estado de Minas Gerais"),
        (8, 21, "TJRS", "Tribunal de Justiça do Estado do Rio Grande do Sul"),
        (8, 5, "TJBA", "Tribunal de Justiça do Estado da Bahia"),
        (8, 7, "TJDFT", "Tribunal de Justiça do Distrito Federal e dos Territórios"),
        (8, 1, "TJAC", "Tribunal de Justiça do Estado do Acre"),
        (8, 27, "TJTO", "Tribunal de Justiça do Estado do Tocantins"),
        (5, 2, "TRT2", "Tribunal Regional do Trabalho da 2ª Região"),
        (5, 15, "TRT15", "Tribunal Regional do Trabalho da 15ª Região"),
        (5, 0, "TST", "Tribunal Superior do Trabalho"),
        (4, 3, "TRF3", "Tribunal Regional Federal da 3ª Região"),
        (4, 6, "TRF6", "Tribunal Regional Federal da 6ª Região"),
        (3, 0, "STJ", "Superior Tribunal de Justiça"),
        (1, 0, "STF", "Supremo Tribunal Federal"),
        (2, 0, "CNJ", "Conselho Nacional de Justiça"),
        (6, 26, "TRE-SP", "Tribunal Regional Eleitoral de São Paulo"),
        (6, 5, "TRE-BA", "Tribunal Regional Eleitoral da Bahia"),
        (7, 0, "STM", "Superior Tribunal Militar"),
        (7, 2, "CJM2", "2ª Circunscrição Judiciária Militar"),
        (9, 13, "TJM-MG", "Tribunal de Justiça Militar do Estado de Minas Gerais"),
        (9, 21, "TJM-RS", "Tribunal de Justiça Militar do Estado do Rio Grande do Sul"),
        (9, 26, "TJM-SP", "Tribunal de Justiça Militar do Estado de São Paulo"),
    ],
)
def test_known_courts(segment: int, code: int, acronym: str, name: str) -> None:
    court = court_for(segment, code)
    assert court is not None
    assert (court.acronym, court.name) == (acronym, name)
    assert court.justice == SEGMENTS[segment]
    assert court.jtr == f"{segment}.{code:02d}"


def test_states_in_cnj_order() -> None:
    assert len(BR_STATES) == 27
    assert list(BR_STATES)[:4] == ["AC", "AL", "AP", "AM"]
    assert STATE_CODES["SE"] == 25 and STATE_CODES["SP"] == 26 and STATE_CODES["TO"] == 27
    assert STATE_CODES["DF"] == 7 and STATE_CODES["MG"] == 13 and STATE_CODES["RJ"] == 19


def test_state_courts_cover_every_state() -> None:
    for uf, code in STATE_CODES.items():
        tj = court_for(8, code)
        tre = court_for(6, code)
        assert tj is not None and tj.state == uf and tj.states == (uf,)
        assert tre is not None and tre.acronym == f"TRE-{uf}" and tre.state == uf
        assert BR_STATES[uf] in tj.name and BR_STATES[uf] in tre.name


def test_table_shape() -> None:
    courts = all_courts()
    assert len(courts) == len({(c.segment, c.code) for c in courts}) == 107
    assert len({c.acronym for c in courts}) == len(courts)
    assert courts == sorted(courts, key=lambda c: (c.segment, c.code))
    assert set(SEGMENTS) == set(range(1, 10))
    counts = {s: sum(1 for c in courts if c.segment == s) for s in SEGMENTS}
    assert counts == {1: 1, 2: 1, 3: 1, 4: 7, 5: 26, 6: 28, 7: 13, 8: 27, 9: 3}
    for court in courts:
        assert isinstance(court, Court)
        assert all(uf in BR_STATES for uf in court.states)
        assert court.state == (court.states[0] if len(court.states) == 1 else None)
    # every state is served by exactly one TRF and at least one TRT
    for uf in BR_STATES:
        assert sum(uf in c.states for c in courts if c.segment == 4) == 1
        assert any(uf in c.states for c in courts if c.segment == 5)


def test_unknown_pairs_and_acronym_lookup() -> None:
    assert court_for(8, 28) is None
    assert court_for(0, 0) is None
    assert court_for(9, 26) is not None and court_for(9, 25) is None
    assert court_by_acronym("tjsp") == court_for(8, 26)
    assert court_by_acronym("TRESP") == court_for(6, 26)
    assert court_by_acronym("TJM-SP") == court_for(9, 26)
    assert court_by_acronym("XYZ") is None
