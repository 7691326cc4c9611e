"""Brazilian forms: dates in São Paulo time, money, integers, documents, form input parsing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from zoneinfo import ZoneInfoNotFoundError

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lawsuit_tui.domain import formatting
from lawsuit_tui.domain.formatting import (
    format_date,
    format_datetime,
    format_document,
    format_int,
    format_money,
    format_size,
    parse_date_br,
    parse_money_br,
    sao_paulo_tz,
)
from lawsuit_tui.domain.identifiers import make_cnj
from lawsuit_tui.i18n import set_language

# ---------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("value", "day", "moment"),
    [
        (datetime(2026, 11, 22, 2, 59, 59, tzinfo=UTC), "21/11/2026", "21/11/2026 23:59"),
        (datetime(2026, 11, 22, 3, 0, tzinfo=UTC), "22/11/2026", "22/11/2026 00:00"),
        ("2026-11-22T02:59:59Z", "21/11/2026", "21/11/2026 23:59"),
        ("2026-11-22T03:00:00.000Z", "22/11/2026", "22/11/2026 00:00"),
        ("2026-11-21T23:30:00-03:00", "21/11/2026", "21/11/2026 23:30"),
        ("2026-11-22T01:30:00+01:00", "21/11/2026", "21/11/2026 21:30"),
        (datetime(2026, 1, 1, 2, 0), "31/12/2025", "31/12/2025 23:00"),  # naive = UTC
        (date(2026, 11, 21), "21/11/2026", "21/11/2026"),
        ("2026-11-21", "21/11/2026", "21/11/2026"),
        (None, "", ""),
        ("", "", ""),
        ("not a date", "not a date", "not a date"),
    ],
)
def test_dates_in_sao_paulo(value: object, day: str, moment: str) -> None:
    assert format_date(value) == day  # type: ignore[arg-type]
    assert format_datetime(value) == moment  # type: ignore[arg-type]


def test_historic_daylight_saving_uses_the_tz_database() -> None:
    # On 2019-01-01 São Paulo was on summer time (UTC-2): 02:30Z is 00:30 local, same day.
    moment = datetime(2019, 1, 1, 2, 30, tzinfo=UTC)
    assert format_date(moment) == "01/01/2019"
    assert format_datetime(moment, seconds=True) == "01/01/2019 00:30:00"


def test_fallback_to_utc_minus_3_without_tzdata(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(_key: str) -> None:
        raise ZoneInfoNotFoundError("no tzdata")

    sao_paulo_tz.cache_clear()
    monkeypatch.setattr(formatting, "ZoneInfo", missing)
    try:
        tz = sao_paulo_tz()
        assert tz.utcoffset(None) == timedelta(hours=-3)
        assert format_datetime(datetime(2019, 1, 1, 2, 30, tzinfo=UTC)) == "31/12/2018 23:30"
    finally:
        sao_paulo_tz.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_tz() -> Iterator[None]:
    yield
    sao_paulo_tz.cache_clear()


@given(st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1)))
def test_format_date_round_trips_through_parse(moment: datetime) -> None:
    aware = moment.replace(tzinfo=UTC)
    shown = format_date(aware)
    if aware.time() == datetime.min.time():
        # Midnight UTC is how the service writes a calendar date: its day, as written.
        assert parse_date_br(shown) == aware.date()
        return
    local = aware.astimezone(sao_paulo_tz())
    assert parse_date_br(shown) == local.date()
    assert format_datetime(aware).startswith(shown + " ")


# ---------------------------------------------------------------- parse_date_br


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("21/11/2026", date(2026, 11, 21)),
        (" 1/2/2026 ", date(2026, 2, 1)),
        ("21-11-2026", date(2026, 11, 21)),
        ("21.11.2026", date(2026, 11, 21)),
        ("21112026", date(2026, 11, 21)),
        ("2026-11-21", date(2026, 11, 21)),
        ("29/02/2024", date(2024, 2, 29)),
    ],
)
def test_parse_date_br(text: str, expected: date) -> None:
    assert parse_date_br(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("31/11/2026", "Day 31 does not exist in 11/2026"),
        ("29/02/2026", "Day 29 does not exist in 02/2026"),
        ("21/13/2026", "There is no month 13"),
        ("21/11/26", "Write the year with 4 digits: 21/11/2026"),
        ("", "Type a date like 21/11/2026"),
        ("amanhã", "'amanhã' is not a date like 21/11/2026"),
    ],
)
def test_parse_date_br_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_date_br(text)
    assert str(info.value) == message


# ---------------------------------------------------------------- money and integers


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1234.56, "R$ 1.234,56"),
        (-1234.56, "-R$ 1.234,56"),
        (0, "R$ 0,00"),
        (0.1, "R$ 0,10"),
        (999, "R$ 999,00"),
        (1000, "R$ 1.000,00"),
        (Decimal("1234567890.1"), "R$ 1.234.567.890,10"),
        (10**15, "R$ 1.000.000.000.000.000,00"),
        (10**30, "R$ 1" + ".000" * 10 + ",00"),  # past decimal's default 28 digits
        (-(10**400), "-R$ 1,00E+400"),  # absurd, but shown rather than raised
        (Decimal("1e999999"), "R$ 1,00E+999999"),
        (Decimal("0.005"), "R$ 0,01"),
        (2.675, "R$ 2,68"),
        (-0.001, "R$ 0,00"),
        ("1234.56", "R$ 1.234,56"),
        ("1.234,56", "R$ 1.234,56"),
        ("n/a", "n/a"),
        (float("nan"), "nan"),
        (None, ""),
    ],
)
def test_format_money(value: object, expected: str) -> None:
    assert format_money(value) == expected  # type: ignore[arg-type]


@given(st.decimals(min_value=-(10**12), max_value=10**12, places=2))
def test_money_round_trip(amount: Decimal) -> None:
    shown = format_money(amount)
    assert shown.startswith("-R$ " if amount < 0 else "R$ ")
    assert parse_money_br(shown) == amount


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.234,56", Decimal("1234.56")),
        ("1234.56", Decimal("1234.56")),
        ("1234,5", Decimal("1234.5")),
        ("R$ 1.234,56", Decimal("1234.56")),
        ("R$\u00a01.234,56", Decimal("1234.56")),
        ("-R$ 10,00", Decimal("-10")),
        ("R$ -10,00", Decimal("-10")),
        ("1.234", Decimal("1234")),
        ("1.23", Decimal("1.23")),
        ("1.234.567,89", Decimal("1234567.89")),
        ("1234567", Decimal("1234567")),
        (",5", Decimal("0.5")),
    ],
)
def test_parse_money_br(text: str, expected: Decimal) -> None:
    assert parse_money_br(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Type an amount like 1.234,56"),
        ("abc", "'abc' is not an amount like 1.234,56"),
        ("1,234,5", "Use one comma, before the cents: 1.234,56"),
        ("12.34.567,00", "Dots separate thousands in groups of 3: 1.234.567,89"),
        ("1,234", "At most 2 decimal places (cents)"),
    ],
)
def test_parse_money_br_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_money_br(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0, "0"), (7, "7"), (999, "999"), (1234, "1.234"), (-1234567, "-1.234.567"), (None, "")],
)
def test_format_int(value: int | None, expected: str) -> None:
    set_language("pt-BR")
    assert format_int(value) == expected
    set_language("en")  # a count in English: 1,234 (issue 19: "Steps (9.967)" was Brazilian)
    assert format_int(value) == expected.replace(".", ",")


@given(st.integers(-(10**18), 10**18))
def test_format_int_groups(n: int) -> None:
    shown = format_int(n)  # English: commas
    assert int(shown.replace(",", "")) == n
    groups = shown.lstrip("-").split(",")
    assert 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])


# ---------------------------------------------------------------- documents


def test_format_document() -> None:
    cnj = make_cnj(1, 2023, 8, 26, 100)
    assert format_document("12345678909") == "123.456.789-09"
    assert format_document("12345678909", "cpf") == "123.456.789-09"
    assert format_document("12345678900", "cpf") == "123.456.789-00"  # wrong digits, still shown
    assert format_document("11222333000181", "CNPJ") == "11.222.333/0001-81"
    assert format_document("12abc34501de35") == "12.ABC.345/01DE-35"
    assert format_document("123456SP", "oab") == "OAB/SP 123.456"
    assert format_document("SP 123456") == "OAB/SP 123.456"
    assert format_document(cnj.replace("-", "").replace(".", ""), "cnj") == cnj
    assert format_document(cnj, "lawsuit_cnj") == cnj
    assert format_document("12345678909", "cnpj") == "12345678909"
    assert format_document("12345678909", "rg") == "12345678909"
    assert format_document("not a document") == "not a document"
    assert format_document(None) == ""


def test_utc_minus_3_constant_matches_modern_sao_paulo() -> None:
    modern = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
    assert sao_paulo_tz().utcoffset(modern) == timezone(timedelta(hours=-3)).utcoffset(None)


@pytest.mark.parametrize(
    ("size", "portuguese", "english"),
    [
        (None, "", ""),
        (312, "312 bytes", "312 bytes"),
        (48_400, "48 KB", "48 KB"),
        (1_234_567, "1,2 MB", "1.2 MB"),
        (1_234_567_890, "1.235 MB", "1,235 MB"),
    ],
)
def test_format_size_reads_as_the_language_writes_numbers(
    size: int | None, portuguese: str, english: str
) -> None:
    # A transfer file read "1,2 MB" beside "2,549 lawsuits" in English.
    set_language("pt-BR")
    assert format_size(size) == portuguese
    set_language("en")
    assert format_size(size) == english
