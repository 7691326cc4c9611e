"""Arrest warrants (BNMP) and penal executions as the service answers them.

A ``warrant`` response's ``response_data`` is a :class:`Warrant` (requests.json's warrant
object; the warrant page and the glossary name its fields too). A penal execution is a
lawsuit (D70): an ``execution`` response carries a :class:`~lawsuit_tui.domain.lawsuit.Lawsuit`
with class EXECUÇÃO DA PENA, an active ``AUTORIDADE`` and a passive ``EXECUTADO`` or
``REEDUCANDO``. What each means to an analyst is said by :func:`warrant_is_open` and
:func:`execution_is_active`; the words shown are in :mod:`lawsuit_tui.domain.vocabulary`.

Every field is optional and unknown ones are kept (D85): no document shows a whole warrant.
"""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

from lawsuit_tui.domain.base import ApiModel, JsonObject, Number, Timestamp
from lawsuit_tui.domain.enums import (
    ArrestType,
    ExecutionPhase,
    Open,
    PrisonRegime,
    WarrantStatus,
    enum_or_none,
)
from lawsuit_tui.domain.lawsuit import Attachment, Lawsuit

__all__ = [
    "EXECUTION_CLASS_CODE",
    "LawType",
    "Warrant",
    "execution_is_active",
    "prison_regime",
    "warrant_is_open",
]

EXECUTION_CLASS_CODE = "386"
"""EXECUÇÃO DA PENA in the CNJ's table of classes (execution page)."""


class LawType(ApiModel):
    """The law and article a warrant cites: ``{number, description}`` (requests.json)."""

    number: str | None = None
    description: str | None = None

    @field_validator("number", mode="before")
    @classmethod
    def _number_as_text(cls, value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        return value

    @property
    def text(self) -> str:
        parts = [p for p in (self.description, self.number) if p]
        if len(parts) == 2 and parts[1] in parts[0]:
            return parts[0]
        return " · ".join(parts)


class Warrant(ApiModel):
    """A warrant of the BNMP (requests.json's warrant object)."""

    warrant_id: str | None = None
    entity: JsonObject | None = None
    tribunal_id: str | None = None
    individual_id: str | None = None
    warrant_type: str | None = None
    arrest_type: Open[ArrestType] | None = None
    # An object in requests.json, a list of them in some answers (D85): both are read and
    # kept as they came; ``laws`` reads either.
    law_type: LawType | list[LawType] | None = None
    number: str | None = None
    previous_number: str | None = None
    issue_date: Timestamp | None = None
    create_date: Timestamp | None = None
    expiration_date: Timestamp | None = None
    status: Open[WarrantStatus] | None = None
    code: str | None = None
    tribunal: str | None = None
    justice: str | None = None
    tribunal_acronym: str | None = None
    court: str | None = None
    judge: str | None = None
    judgementSummary: str | None = None  # the service's own (camel case) name
    reason: str | None = None
    post_warnings: str | None = None
    document_content: str | None = None
    duration: str | None = None
    duration_years: Number | None = None
    duration_months: Number | None = None
    duration_days: Number | None = None
    observations: str | None = None
    regime: str | None = None
    recapture: bool | None = None
    certificate_file: str | None = None
    attachments: list[Attachment] | None = None
    tags: JsonObject | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None

    @property
    def laws(self) -> list[LawType]:
        """The laws cited, whichever form ``law_type`` came in."""
        if self.law_type is None:
            return []
        return [self.law_type] if isinstance(self.law_type, LawType) else list(self.law_type)

    @property
    def person_name(self) -> str:
        entity = self.entity or {}
        return str(entity.get("name") or "")

    @property
    def sentence_parts(self) -> tuple[int, int, int]:
        """The sentence as (years, months, days); zeros when not given."""
        return (
            int(self.duration_years or 0),
            int(self.duration_months or 0),
            int(self.duration_days or 0),
        )


def warrant_is_open(warrant: Warrant) -> bool:
    """An arrest warrant still to be served: the person is wanted (status "Pendente de
    Cumprimento"). A warrant without a status is taken as open: the safer reading."""
    status = enum_or_none(WarrantStatus, warrant.status)
    return warrant.status is None or status is WarrantStatus.PENDING


def execution_is_active(execution: Lawsuit) -> bool:
    """A penal execution being served (status ``Ativo`` and not archived)."""
    phase = enum_or_none(ExecutionPhase, execution.phase)
    status = str(execution.status or "").casefold()
    return status != "finalizado" and phase is not ExecutionPhase.ARCHIVED


# The warrant page writes the regimes in English; the glossary (and the BNMP) in Portuguese.
_ENGLISH_REGIMES = {
    "closed": PrisonRegime.CLOSED,
    "semi-open": PrisonRegime.SEMI_OPEN,
    "semiopen": PrisonRegime.SEMI_OPEN,
    "open": PrisonRegime.OPEN,
}


def prison_regime(value: object) -> PrisonRegime | str | None:
    """The regime as a member when known in either language (D116), else as it came."""
    if not isinstance(value, str) or not value.strip():
        return None
    found = enum_or_none(PrisonRegime, value) or _ENGLISH_REGIMES.get(value.strip().casefold())
    return found if found is not None else value
