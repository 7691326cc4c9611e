"""The count filter in words: court names of tribunal numbers (D36) and a one-line summary."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lawsuit_tui.domain.courts import court_for
from lawsuit_tui.domain.formatting import format_money
from lawsuit_tui.i18n import _

__all__ = ["court_acronym", "filter_summary", "money_value"]


def court_acronym(number: int) -> str | None:
    """D36: a tribunal number is the CNJ's J and TR digits (826 = TJSP); its court's acronym."""
    if number < 100:
        return None
    court = court_for(number // 100, number % 100)
    return court.acronym if court else None


def money_value(amount: Decimal) -> int | float:
    """A Decimal as the JSON number the body carries (whole amounts as integers)."""
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def _tribunals(values: list[Any]) -> str:
    parts = []
    for value in values:
        acronym = court_acronym(value) if isinstance(value, int) else None
        parts.append(f"{value} {acronym}" if acronym else str(value))
    return ", ".join(parts)


def filter_summary(flt: Mapping[str, Any] | None) -> str:
    """``judgement-bond · 826 TJSP · R$ 1.000,00–R$ 5.000,00 · 2024 · alimentary``."""
    if not flt:
        return ""
    parts: list[str] = []
    if flt.get("kind"):
        parts.append(str(flt["kind"]))
    if flt.get("tribunals"):
        parts.append(_tribunals(list(flt["tribunals"])))
    low, high = flt.get("amount_min"), flt.get("amount_max")
    if low is not None or high is not None:
        left = format_money(low) if low is not None else "…"
        right = format_money(high) if high is not None else "…"
        parts.append(f"{left}–{right}")
    if flt.get("amount_tier"):
        parts.append(_("tier {tier}").format(tier=flt["amount_tier"]))
    if flt.get("budget_years"):
        parts.append(", ".join(str(y) for y in flt["budget_years"]))
    if flt.get("natures"):
        parts.append(", ".join(str(n) for n in flt["natures"]))
    if flt.get("tags"):
        parts.append(", ".join(str(t) for t in flt["tags"]))
    return " · ".join(parts)
