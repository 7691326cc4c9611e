"""The count filter in words: its type of credit, courts, amounts and tags on one line."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from lawsuit_tui.domain.formatting import format_money
from lawsuit_tui.domain.vocabulary import (
    AMOUNT_TIER_WORDS,
    COUNT_KIND_WORDS,
    COUNT_TAG_WORDS,
    NATURE_WORDS,
    word,
)

__all__ = ["filter_summary", "money_value"]


def money_value(amount: Decimal) -> int | float:
    """A Decimal as the JSON number the body carries (whole amounts as integers)."""
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def filter_summary(flt: Mapping[str, Any] | None, courts: Mapping[int, str] | None = None) -> str:
    """``precatório · TJSP, TRF3 · R$ 1.000,00–R$ 5.000,00 · 2024 · alimentar``: every code
    in words (vocabulary), courts by acronym (``courts``: Miner id -> acronym; an id not in it
    is shown as its number)."""
    if not flt:
        return ""
    names = courts or {}
    parts: list[str] = []
    if flt.get("kind"):
        parts.append(word(COUNT_KIND_WORDS, flt["kind"]))
    if flt.get("tribunals"):
        parts.append(", ".join(names.get(t, str(t)) for t in flt["tribunals"]))
    low, high = flt.get("amount_min"), flt.get("amount_max")
    if low is not None or high is not None:
        left = format_money(low) if low is not None else "…"
        right = format_money(high) if high is not None else "…"
        parts.append(f"{left}–{right}")
    if flt.get("amount_tier"):
        parts.append(word(AMOUNT_TIER_WORDS, flt["amount_tier"]))
    if flt.get("budget_years"):
        parts.append(", ".join(str(y) for y in flt["budget_years"]))
    if flt.get("natures"):
        parts.append(", ".join(word(NATURE_WORDS, n) for n in flt["natures"]))
    if flt.get("tags"):
        parts.append(", ".join(word(COUNT_TAG_WORDS, t) for t in flt["tags"]))
    return " · ".join(parts)
