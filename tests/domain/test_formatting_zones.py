"""Times in the reader's zone (D146): one setting, a default by language, the zone named."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from lawsuit_tui.config import ConfigError, display_zone, load_settings, system_zone
from lawsuit_tui.domain.formatting import (
    format_date,
    format_datetime,
    local_clock_to_utc,
    set_display_zone,
    utc_clock_to_local,
    zone_label,
)
from lawsuit_tui.i18n import set_language

MOMENT = datetime(2026, 11, 22, 1, 30, tzinfo=UTC)


def test_instants_follow_the_display_zone() -> None:
    assert format_datetime(MOMENT) == "21/11/2026 22:30"  # Brasília until something is set
    set_display_zone(ZoneInfo("Europe/Lisbon"))
    assert format_datetime(MOMENT) == "22/11/2026 01:30"
    assert format_date(MOMENT) == "22/11/2026"  # the date of the instant, there
    set_display_zone(ZoneInfo("Asia/Tokyo"))
    assert format_datetime("2026-11-22T01:30:00Z") == "22/11/2026 10:30"
    set_display_zone(None)
    assert format_datetime(MOMENT) == "21/11/2026 22:30"


def test_a_fixed_time_of_day_moves_both_ways() -> None:
    set_display_zone(ZoneInfo("America/Sao_Paulo"))
    assert utc_clock_to_local(8, 30) == (5, 30)
    assert local_clock_to_utc(5, 30) == (8, 30)
    assert utc_clock_to_local(1, 0) == (22, 0)  # the day before, same time of day
    set_display_zone(ZoneInfo("Asia/Kolkata"))
    assert utc_clock_to_local(8, 30) == (14, 0)  # a zone half an hour off moves minutes too
    assert local_clock_to_utc(14, 0) == (8, 30)


def test_the_zone_is_named_as_its_reader_says_it() -> None:
    assert zone_label(ZoneInfo("America/Sao_Paulo")) == "Brasília time"
    assert zone_label(ZoneInfo("UTC")) == "UTC"
    assert zone_label(ZoneInfo("Europe/Lisbon")) == "Europe/Lisbon"
    set_language("pt-BR")
    assert zone_label(ZoneInfo("America/Sao_Paulo")) == "horário de Brasília"


def test_default_zone_brasilia_in_portuguese_the_system_zone_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    assert display_zone(None, "pt-BR") == ZoneInfo("America/Sao_Paulo")
    assert display_zone(None, "en") == ZoneInfo("Europe/Lisbon")
    assert display_zone("Asia/Tokyo", "pt-BR") == ZoneInfo("Asia/Tokyo")  # the setting wins
    assert system_zone({"TZ": ":America/Manaus"}) == ZoneInfo("America/Manaus")


def test_the_timezone_setting_is_an_iana_name(isolated_config: Path) -> None:
    isolated_config.parent.mkdir(parents=True, exist_ok=True)
    isolated_config.write_text('timezone = "America/Manaus"\n', encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("LAWSUIT_TUI_TIMEZONE")
        assert load_settings().timezone == "America/Manaus"
        mp.setenv("LAWSUIT_TUI_TIMEZONE", "auto")
        assert load_settings().timezone is None
        mp.setenv("LAWSUIT_TUI_TIMEZONE", "Brasilia")
        with pytest.raises(ConfigError, match="LAWSUIT_TUI_TIMEZONE: timezone: expected a time"):
            load_settings()


def test_a_calendar_date_written_as_midnight_utc_keeps_its_day() -> None:
    # The service writes a birth date as 1980-05-17T00:00:00.000Z; in Brasília that instant is
    # the evening of the 16th, and a lawyer reading "16/05/1980" would be misled.
    set_display_zone(ZoneInfo("America/Sao_Paulo"))
    try:
        assert format_date("1980-05-17T00:00:00.000Z") == "17/05/1980"
        assert format_date(datetime(1980, 5, 17, tzinfo=UTC)) == "17/05/1980"
        assert format_date("2026-11-22T01:30:00Z") == "21/11/2026"  # an instant still moves
        assert format_date("2026-11-22T00:00:00-03:00") == "22/11/2026"
    finally:
        set_display_zone(None)
