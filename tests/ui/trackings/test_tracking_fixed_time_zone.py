"""A tracking's fixed time is shown in the user's zone, named (D146); the service keeps UTC."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from lawsuit_tui.domain.formatting import set_display_zone
from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import set_language
from lawsuit_tui.ui.trackings.tracking_text import recurrence_text


def _record() -> TrackingRecord:
    return TrackingRecord.model_validate(
        {
            "tracking_id": "t1",
            "recurrence": 7,
            "fixed_time": True,
            "hour_range": 8,
            "execution_minute": 30,
        }
    )


def test_fixed_time_in_brasilia_and_named() -> None:
    set_display_zone(ZoneInfo("America/Sao_Paulo"))
    assert recurrence_text(_record()) == "every 7 days, 05:30 (Brasília time)"
    assert recurrence_text(_record(), short=True) == "7 d 05:30"
    set_language("pt-BR")
    assert recurrence_text(_record()).endswith("05:30 (horário de Brasília)")


def test_fixed_time_in_another_zone() -> None:
    set_display_zone(ZoneInfo("Asia/Tokyo"))  # no daylight saving: the same every day
    assert recurrence_text(_record()).endswith(", 17:30 (Asia/Tokyo)")
    assert "UTC" not in recurrence_text(_record())
