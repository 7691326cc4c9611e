"""Checking a portfolio's rows (D158): headers in both languages, keys in any formatting,
every invalid row with its reason, duplicates, tiers by name or alias, runs a month."""

from __future__ import annotations

from lawsuit_tui.domain.portfolio import TierChoice, check_rows, fold_header, split_labels
from lawsuit_tui.domain.tiers import DEFAULT_TIERS, TIER_ALIASES
from lawsuit_tui.i18n import set_language

CHOICE = TierChoice({tier.name: tier for tier in DEFAULT_TIERS}, "warm", TIER_ALIASES)
CNJ = "0084542-06.2024.4.04.4803"


def test_a_portuguese_header_names_every_column() -> None:
    table = [
        ["Número do processo", "Nível", "Etiquetas", "Chave do cliente", "Nome"],
        [CNJ, "Quente", "vip | SP ; cobrança", "cliente-9", "Fulano de Tal"],
        ["240.305.010-52", "", "", "", ""],
    ]
    check = check_rows(table, CHOICE)
    assert check.header is not None
    first, second = check.rows
    assert first.number == 2 and first.valid
    assert first.key is not None and first.key.search_type == "lawsuit_cnj"
    assert first.tier == "hot"
    assert first.labels == ("vip", "SP", "cobrança")
    assert first.customer_key == "cliente-9" and first.name == "Fulano de Tal"
    assert second.key is not None and second.key.key == "24030501052"
    assert second.tier == "warm"  # the default


def test_without_a_header_the_first_column_is_the_key() -> None:
    check = check_rows([["24030501052", "anything"], [CNJ]], CHOICE)
    assert check.header is None
    assert [row.number for row in check.rows] == [1, 2]
    assert all(row.valid for row in check.rows)


def test_a_lone_chave_column_is_the_key() -> None:
    check = check_rows([["chave", "tier"], [CNJ, "cold"]], CHOICE)
    row = check.rows[0]
    assert row.valid and row.customer_key is None and row.tier == "cold"


def test_every_invalid_row_says_why_and_duplicates_name_the_first() -> None:
    set_language("en")
    table = [
        ["key", "tier"],
        ["123.456.789-00", ""],  # wrong check digits
        ["", "hot"],  # no key
        ["not a key", ""],
        ["24030501052", "lukewarm"],  # unknown tier
        ["240.305.010-52", ""],
        ["24030501052", "cold"],  # the same CPF again
        ["QXF3B5Y1000185", ""],  # alphanumeric CNPJ
        ["OAB/SP 311.007", ""],
        ["", ""],  # blank: skipped
    ]
    check = check_rows(table, CHOICE)
    problems = {row.number: row.problem for row in check.invalid}
    assert sorted(problems) == [2, 3, 4, 5]
    assert problems[2] is not None and problems[2].code == "check_digits"
    assert "09" in problems[2].message
    assert problems[3] is not None and problems[3].code == "empty"
    assert problems[5] is not None and "lukewarm" in problems[5].message
    assert [(row.number, row.duplicate_of) for row in check.duplicates] == [(7, 6)]
    assert [row.number for row in check.valid] == [6, 8, 9]
    assert len(check.rows) == 8


def test_runs_a_month_per_tier() -> None:
    table = [["key", "tier"], [CNJ, "hot"], ["24030501052", "warm"], ["73578838000130", "frio"]]
    check = check_rows(table, CHOICE)
    assert check.by_tier() == {"hot": 1, "warm": 1, "cold": 1}
    runs = check.monthly_runs()
    assert runs == {"hot": 30.0, "warm": 30 / 7, "cold": 1.0}


def test_headers_fold_accents_case_and_bom() -> None:
    assert fold_header("\ufeffNÍVEL ") == "nivel"
    assert fold_header("Razão  Social") == "razao social"
    assert split_labels("a, b| a ;c") == ("a", "b", "c")
