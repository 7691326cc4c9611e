"""Registration data of a person or company (``POST /entities``, and ``response_type: entity``).

The shapes follow ``Entities.Response.Post`` of openapi/lawsuits.json and the examples of
en/registration-data/registration-data.mdx. Every model keeps unknown fields; every field is
optional except what every example carries. ``partners`` is untyped in the OAS: it is read as
:class:`Partner` items when they are objects and kept as they came otherwise.

Partnership links (D104): a company's ``partners`` is its QSA (quadro de sócios e
administradores); a person's ``partners`` lists the companies in which that person is a
partner or administrator, each with the person's ``position`` there.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from pydantic import Field, field_validator

from lawsuit_tui.domain.base import ApiModel, Code, JsonObject, Number, Timestamp, as_datetime
from lawsuit_tui.domain.enums import EntityType, Open, RevenueStatus, SearchType, enum_or_none
from lawsuit_tui.domain.lawsuit import EntityFields, PartyDocument

__all__ = [
    "Address",
    "BranchActivity",
    "Contact",
    "EntitiesAnswer",
    "Entity",
    "LatestSearch",
    "Parent",
    "Partner",
    "Pep",
    "is_masked_document",
    "mask_document",
]

_NOT_ALNUM = re.compile(r"[^0-9A-Za-z*]")
# D78: "male"/"female" on the wire; the client reads the one-letter forms too.
_GENDERS = {"m": "male", "masculino": "male", "f": "female", "feminino": "female"}


def mask_document(document: str) -> str:
    """A CPF as the service masks a partner's (D78): ``***`` + digits 4-9 + ``**``."""
    digits = _NOT_ALNUM.sub("", document)
    if len(digits) != 11:
        return document
    return f"***{digits[3:9]}**"


def is_masked_document(document: str | None) -> bool:
    return bool(document) and "*" in str(document)


class Address(ApiModel):
    street: str | None = None
    number: str | int | None = None
    complement: str | None = None
    neighborhood: str | None = None
    city: str | None = None
    state: str | None = None
    zip_code: str | None = None
    ibge_code: Number | None = None
    country: str | None = None

    def one_line(self) -> str:
        """``Rua X, 12, Sala 3 - Centro, São Paulo/SP, 01001-000`` (parts that exist)."""
        street = ", ".join(str(p) for p in (self.street, self.number, self.complement) if p)
        place = "/".join(p for p in (self.city, self.state) if p)
        head = " - ".join(p for p in (street, self.neighborhood) if p)
        return ", ".join(p for p in (head, place, _zip(self.zip_code)) if p)


def _zip(value: str | None) -> str:
    digits = re.sub(r"\D", "", value or "")
    return f"{digits[:5]}-{digits[5:]}" if len(digits) == 8 else (value or "")


class Contact(ApiModel):
    """``{contact_type: email|phone|other, description}``."""

    contact_type: str | None = None
    description: str | None = None


class Parent(ApiModel):
    entity_id: str | None = None
    name: str | None = None
    kinship: str | None = None


class BranchActivity(ApiModel):
    """A CNAE activity of a company: ``main_activity`` marks the principal one."""

    code: Code | None = None
    name: str | None = None
    main_activity: bool | None = None
    tree_history: str | None = None
    active: bool | None = None


class Pep(ApiModel):
    """A politically exposed person's office."""

    function: str | None = None
    function_acronym: str | None = None
    organ_name: str | None = None
    start_date: Timestamp | None = None
    end_date: Timestamp | None = None
    grace_period_end: Timestamp | None = None


class LatestSearch(ApiModel):
    search_type: Open[SearchType] | None = None
    updated_at: Timestamp | None = None


class Partner(ApiModel):
    """One end of a partnership link (D104): a partner in a company's QSA, or a company a
    person is a partner of. ``main_document`` of a person is masked unless revealed (D78)."""

    entity_id: str | None = None
    entity_type: Open[EntityType] | None = None
    name: str | None = None
    main_document: str | None = None
    documents: list[PartyDocument] | None = None
    position: str | None = None
    tags: JsonObject | None = None

    @property
    def since(self) -> datetime | None:
        """When the link began (``tags.start_date`` in the docs' example)."""
        value = (self.tags or {}).get("start_date")
        return as_datetime(value) if isinstance(value, str) else None

    @property
    def masked(self) -> bool:
        return is_masked_document(self.main_document)


class Entity(EntityFields):
    """A person or company as the registration data describe it.

    The fields are a party's, in their order (:class:`EntityFields`); those below are typed
    as the registration data pages show them."""

    entity_type: Open[EntityType] | None = None
    addresses: list[Address] | None = None
    contacts: list[Contact] | None = None
    aka_names: list[str] | None = None
    parents: list[Parent] | None = None
    place_of_birth: str | None = None
    nationality: str | None = None
    regime: str | None = None
    gender: str | None = None
    ethnicity: str | None = None
    latest_searches: list[LatestSearch] | None = None
    branch_activities: list[BranchActivity] | None = None
    position: str | None = None
    profession: str | None = None
    size: str | None = None
    deficiency: str | None = None
    revenue_service_status: Open[RevenueStatus] | None = None
    special_status: str | None = None
    responsible_qualification_id: Code | None = None
    age_group: str | None = None
    pep: list[Pep] | None = None
    partners: list[Partner | Any] | None = None

    @field_validator("gender", mode="before")
    @classmethod
    def _gender_words(cls, value: Any) -> Any:
        if isinstance(value, str):
            return _GENDERS.get(value.strip().casefold(), value)
        return value

    @property
    def is_company(self) -> bool:
        return enum_or_none(EntityType, self.entity_type) is EntityType.COMPANY

    @property
    def document(self) -> str:
        """``main_document`` without punctuation (the service may format it, D78)."""
        return _NOT_ALNUM.sub("", self.main_document or "").upper()

    @property
    def revenue_updated_at(self) -> datetime | None:
        """When the Receita's data were last read: the field, else ``tags.revenue_update_date``
        (the docs' examples)."""
        found = as_datetime(self.revenue_service_updated_at)
        if found is None:
            value = (self.tags or {}).get("revenue_update_date")
            found = as_datetime(value) if isinstance(value, str) else None
        return found

    @property
    def partner_links(self) -> list[Partner]:
        """The partners given as objects (D104), in order."""
        return [p for p in self.partners or [] if isinstance(p, Partner)]

    @property
    def main_activity(self) -> BranchActivity | None:
        activities = self.branch_activities or []
        return next(
            (a for a in activities if a.main_activity), activities[0] if activities else None
        )


class EntitiesAnswer(ApiModel):
    """``POST /entities``: ``{request_id, has_lawsuits?, response_data: [entity]}``; an empty
    list when nothing is known (D78)."""

    request_id: str | None = None
    has_lawsuits: bool | None = None
    response_data: list[Entity] = Field(default_factory=list)
