"""The lawsuit and everything inside it: courts, parties and lawyers, steps, attachments.

Every field is optional (the service omits fields freely) except a lawsuit's ``code``.
Items whose structure the spec does not show (addresses, contacts, pep, partners...) are
kept as raw JSON values.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from lawsuit_tui.domain.base import ApiModel, Code, JsonObject, Number, Timestamp
from lawsuit_tui.domain.enums import DocumentType, Open, Side

__all__ = [
    "Appeal",
    "AppealJudgement",
    "Attachment",
    "Classification",
    "Court",
    "Crawler",
    "Custody",
    "Distribution",
    "EntityFields",
    "FullLawsuitFile",
    "LastStep",
    "Lawsuit",
    "LawsuitData",
    "Lawyer",
    "LegalNature",
    "Party",
    "PartyDocument",
    "PhaseHistoryItem",
    "RelatedLawsuit",
    "Sentence",
    "Step",
    "Subject",
]


class Court(ApiModel):
    code: Code | None = None
    date: Timestamp | None = None
    name: str | None = None


class Crawler(ApiModel):
    source_name: str | None = None
    crawl_id: str | None = None
    weight: int | None = None
    updated_at: Timestamp | None = None


class Classification(ApiModel):
    """A class (classe processual) or subject (assunto): {code, local_code, date, name}."""

    code: Code | None = None
    local_code: Code | None = None
    date: Timestamp | None = None
    name: str | None = None


Subject = Classification


class PartyDocument(ApiModel):
    document: str | None = None
    document_type: Open[DocumentType] | None = None


class LegalNature(ApiModel):
    code: Code | None = None
    name: str | None = None
    active: bool | None = None


class EntityFields(ApiModel):
    """The person or company object the docs repeat for a party, its lawyers and registration
    data (the same 42 fields in requests.json and lawsuits.json). Types the spec does not give
    are Any; :class:`~lawsuit_tui.domain.entities.Entity` types them as registration data
    show them."""

    entity_id: str | None = None
    entity_type: str | None = None
    name: str | None = None
    social_name: str | None = None
    main_document: str | None = None
    documents: list[PartyDocument] | None = None
    addresses: list[Any] | None = None
    contacts: list[Any] | None = None
    aka_names: list[Any] | None = None
    parents: list[Any] | None = None
    birth_date: Timestamp | None = None
    place_of_birth: Any = None
    nationality: Any = None
    regime: Any = None
    gender: Any = None
    ethnicity: Any = None
    tags: JsonObject | None = None
    latest_searches: list[Any] | None = None
    legal_nature: LegalNature | None = None
    head_office: bool | None = None
    branch_activities: list[Any] | None = None
    position: Any = None
    profession: Any = None
    size: Any = None
    is_public: bool | None = None
    closing_date: Timestamp | None = None
    disabled_person: bool | None = None
    deficiency: Any = None
    revenue_service_updated_at: Timestamp | None = None
    revenue_service_active: bool | None = None
    revenue_service_status: Any = None
    share_capital: Number | None = None
    special_status: Any = None
    special_status_date: Timestamp | None = None
    responsible_qualification_id: Any = None
    age_group: Any = None
    pep: Any = None
    entry_date: Timestamp | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    partners: list[Any] | None = None
    associated_people: list[Any] | None = None


class Lawyer(EntityFields):
    """A party's lawyer: the party fields without side, person_type and was_inferred."""


class Party(EntityFields):
    side: Open[Side] | None = None
    person_type: str | None = None
    lawyers: list[Lawyer] | None = None
    was_inferred: bool | None = None


class Attachment(ApiModel):
    attachment_id: str | None = None
    attachment_type: str | None = None
    attachment_name: str | None = None
    step_id: str | None = None
    content: str | None = None
    extension: str | None = None
    status: str | None = None
    private: bool | None = None
    corrupted: bool | None = None
    tags: JsonObject | None = None
    user_data: JsonObject | None = None
    attachment_date: Timestamp | None = None


class Step(ApiModel):
    """A movement (andamento). ``source_name`` is absent in the alternate lookup."""

    lawsuit_cnj: str | None = None
    lawsuit_instance: int | None = None
    step_id: str | None = None
    content: str | None = None
    step_type: str | None = None
    attachment_url: str | None = None
    attachment_extension: str | None = None
    source_name: str | None = None
    private: bool | None = None
    step_date: Timestamp | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    tags: JsonObject | None = None


class LastStep(Step):
    steps_count: int | None = None


class RelatedLawsuit(ApiModel):
    """An element of related_lawsuits, and the shape of main_lawsuit."""

    code: str | None = None
    instance: int | None = None
    name: str | None = None
    classification: Classification | None = None
    tags: JsonObject | None = None


class PhaseHistoryItem(ApiModel):
    name: str | None = None
    phase_date: Timestamp | None = None
    step_id: str | None = None


class Sentence(ApiModel):
    sentence_type: str | None = None
    sentence_date: Timestamp | None = None
    step_id: str | None = None


class AppealJudgement(ApiModel):
    appeal_judgement_type: str | None = None
    appeal_judgement_date: Timestamp | None = None
    step_id: str | None = None


class Custody(ApiModel):
    custody_type: str | None = None
    custody_date: Timestamp | None = None
    step_id: str | None = None


class Appeal(ApiModel):
    appeal_date: Timestamp | None = None
    step_id: str | None = None


class Distribution(ApiModel):
    distribution_type: str | None = None
    distribution_date: Timestamp | None = None
    step_id: str | None = None


class FullLawsuitFile(ApiModel):
    status: str | None = None
    updated_at: Timestamp | None = None


class Lawsuit(ApiModel):
    """A lawsuit: element of the lookup's ``lawsuits`` and ``response_data`` of a lawsuit."""

    code: str = Field(description="CNJ number")
    instance: int | None = None
    courts: list[Court] | None = None
    justice: str | None = None
    tribunal: str | None = None
    crawler: Crawler | None = None
    classifications: list[Classification] | None = None
    subjects: list[Classification] | None = None
    parties: list[Party] | None = None
    attachments: list[Attachment] | None = None
    related_lawsuits: list[RelatedLawsuit] | None = None
    steps: list[Step] | None = None
    name: str | None = None
    tribunal_acronym: str | None = None
    county: str | None = None
    state: str | None = None
    city: str | None = None
    judge: str | None = None
    justice_description: str | None = None
    status: str | None = None
    phase: str | None = None
    situation: str | None = None
    area: str | None = None
    system: str | None = None
    tribunal_url: str | None = None
    free_justice: bool | None = None
    secrecy_level: int | None = None
    distribution_date: Timestamp | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    last_step: LastStep | None = None
    main_lawsuit: RelatedLawsuit | None = None
    tags: JsonObject | None = None
    metadata: JsonObject | None = None
    phase_history: list[PhaseHistoryItem] | None = None
    sentence: Sentence | None = None
    appeal_judgement: AppealJudgement | None = None
    custody: Custody | None = None
    appeal: Appeal | None = None
    distribution: Distribution | None = None
    pipelines: list[Any] | None = None
    full_lawsuit_file: FullLawsuitFile | None = None
    amount: Number | None = None
    # The stored copy (GET /lawsuits/{cnj}, D101) with saved_att: the attachments kept.
    saved_attachments: list[Attachment] | None = None

    @property
    def is_secret(self) -> bool:
        """True when the lawsuit is under secrecy (secrecy_level above 0)."""
        return (self.secrecy_level or 0) > 0


LawsuitData = Lawsuit
