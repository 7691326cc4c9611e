"""The request filter of search_params.filter, applied to lawsuit payloads (D6, D23)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from lawsuit_tui.domain.folding import fold
from lawsuit_tui.sandbox.schemas import FilterIn, KeysFilterIn, SubjectFilterIn

__all__ = ["filters_count", "matches"]


def _compact(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", text).upper()


def _parse_dt(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def filters_count(flt: FilterIn | None) -> int:
    if flt is None:
        return 0
    return sum(1 for v in flt.model_dump(exclude_none=True).values() if v not in ({}, []))


def _keys_match(values: Iterable[str], flt: KeysFilterIn | None) -> bool:
    if flt is None or not flt.keys:
        return True
    wanted = {fold(k) for k in flt.keys}
    hit = any(fold(v) in wanted for v in values)
    return not hit if flt.not_equal else hit


def _subject_match(values: Iterable[str], flt: SubjectFilterIn | None) -> bool:
    """D6: ``{keys, not_equal}`` is read as contains/not_contains."""
    if flt is None:
        return True
    folded = [fold(v) for v in values]
    included = list(flt.contains or [])
    excluded = list(flt.not_contains or [])
    if flt.keys:
        (excluded if flt.not_equal else included).extend(flt.keys)
    if included and not any(fold(k) in v for k in included for v in folded):
        return False
    return not (excluded and any(fold(k) in v for k in excluded for v in folded))


def _party_documents(party: dict[str, Any]) -> list[str]:
    docs = [str(d.get("document", "")) for d in party.get("documents") or []]
    if party.get("main_document"):
        docs.append(str(party["main_document"]))
    return [_compact(d) for d in docs if d]


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def _within(value: datetime | None, low: datetime | None, high: datetime | None) -> bool:
    value, low, high = _aware(value), _aware(low), _aware(high)
    if low is None and high is None:
        return True
    if value is None:
        return False
    if low is not None and value < low:
        return False
    return not (high is not None and value > high)


def matches(lawsuit: dict[str, Any], flt: FilterIn | None, document: str | None = None) -> bool:
    """Whether ``lawsuit`` passes ``flt``; ``document`` is the searched one (for ``side``)."""
    if flt is None:
        return True
    parties: list[dict[str, Any]] = list(lawsuit.get("parties") or [])
    if flt.side is not None and document is not None:
        key = _compact(document)
        sides = {p.get("side") for p in parties if key in _party_documents(p)}
        sides |= {
            p.get("side")
            for p in parties
            for lawyer in p.get("lawyers") or []
            if key in _party_documents(lawyer)
        }
        if flt.side not in sides:
            return False
    if flt.party_names:
        names = [fold(str(p.get("name", ""))) for p in parties]
        if not any(fold(n) in name for n in flt.party_names for name in names):
            return False
    if flt.party_documents:
        wanted = {_compact(d) for d in flt.party_documents}
        if not any(wanted & set(_party_documents(p)) for p in parties):
            return False
    distribution = _parse_dt(lawsuit.get("distribution_date"))
    if not _within(distribution, flt.distribution_date_gte, flt.distribution_date_lte):
        return False
    last_step = _parse_dt((lawsuit.get("last_step") or {}).get("step_date"))
    if not _within(last_step, flt.last_step_date_gte, flt.last_step_date_lte):
        return False
    tribunal = [str(lawsuit.get("tribunal_acronym") or ""), str(lawsuit.get("tribunal") or "")]
    if not _keys_match(tribunal, flt.tribunals):
        return False
    classifications = list(lawsuit.get("classifications") or [])
    if not _keys_match([str(c.get("code", "")) for c in classifications], flt.classification_codes):
        return False
    if not _keys_match([str(c.get("name", "")) for c in classifications], flt.classification_names):
        return False
    subjects = list(lawsuit.get("subjects") or [])
    if not _subject_match([str(s.get("code", "")) for s in subjects], flt.subject_codes):
        return False
    if not _subject_match([str(s.get("name", "")) for s in subjects], flt.subject_names):
        return False
    amount = lawsuit.get("amount")
    if flt.amount_gte is not None and not (
        isinstance(amount, int | float) and amount >= flt.amount_gte
    ):
        return False
    return flt.amount_lte is None or (isinstance(amount, int | float) and amount <= flt.amount_lte)
