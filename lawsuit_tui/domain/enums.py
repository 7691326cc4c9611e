"""Closed value lists of the spec, and the open-world type that parses them.

Every list the spec closes is a ``StrEnum``. Fields are typed ``Open[E]``, not ``E``: a value
the service adds later is kept as a plain ``str`` instead of failing the payload.

Case variants: the real service is not consistent about case (``Active``/``ACTIVE``,
``not exists``/``NOT_EXISTS``). ``Open[E]`` maps a value to the member whose value matches
ignoring case and the separators ``-``, ``_`` and space. Such a value is stored, and dumped,
as the member's canonical value: ``"ACTIVE"`` round-trips as ``"Active"``. This is the one
deliberate exception to the round-trip law; an unknown value round-trips untouched.
"""

from __future__ import annotations

import typing
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, TypeVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from lawsuit_tui.domain.folding import fold

__all__ = [
    "AmountTier",
    "ApplicationErrorCode",
    "ArrestType",
    "CountKind",
    "CountTag",
    "CredentialMessage",
    "CredentialStatus",
    "DocumentType",
    "EntityType",
    "EventType",
    "ExecutionPhase",
    "MinerRequestStatus",
    "MinerRequestType",
    "Nature",
    "Open",
    "Origin",
    "PlanConfigType",
    "PrisonRegime",
    "RequestStatus",
    "ResponseType",
    "RevenueStatus",
    "SearchType",
    "ServiceIa",
    "Side",
    "TierName",
    "TrackingStatus",
    "TransferFileStatus",
    "TransferFileType",
    "WarrantStatus",
    "WarrantType",
    "coerce_enum",
    "enum_or_none",
]

E = TypeVar("E", bound=StrEnum)


class RequestStatus(StrEnum):
    PENDING = "pending"
    STARTED = "started"
    CANCELLING = "cancelling"
    CANCELLED = "cancelled"
    COMPLETED = "completed"


class TrackingStatus(StrEnum):
    CREATED = "created"
    UPDATING = "updating"
    UPDATED = "updated"
    PAUSED = "paused"
    DELETED = "deleted"
    SUSPENDED = "suspended"


class TierName(StrEnum):
    """The portfolio's default tiers (domain/tiers.py); a configured tier keeps its own name."""

    HOT = "hot"
    WARM = "warm"
    COLD = "cold"


class Origin(StrEnum):
    API = "api"
    TRACKING = "tracking"
    DASHBOARD = "dashboard"


class Side(StrEnum):
    PASSIVE = "Passive"
    ACTIVE = "Active"
    # The datalake's filter and parties also name these (openapi/lawsuits.json).
    INTERESTED = "Interested"
    UNKNOWN = "Unknown"


class PlanConfigType(StrEnum):
    DATALAKE_LAWSUIT_SEARCH = "datalake_lawsuit_search"
    DOWNLOAD_ATTACHMENT = "download_attachment"
    DOWNLOAD_FULL_LAWSUIT = "download_full_lawsuit"
    DOWNLOAD_EXECUTION_ATTACHMENT = "download_execution_attachment"
    SIMPLE_LAWSUIT_SEARCH = "simple_lawsuit_search"
    SIMPLE_LAWSUIT_SEARCH_WITH_SUMMARY = "simple_lawsuit_search_with_summary"
    COMPLETE_LAWSUIT_SEARCH = "complete_lawsuit_search"
    COMPLETE_LAWSUIT_SEARCH_WITH_SUMMARY = "complete_lawsuit_search_with_summary"
    FULL_LAWSUIT_SEARCH = "full_lawsuit_search"
    FULL_LAWSUIT_SEARCH_WITH_SUMMARY = "full_lawsuit_search_with_summary"
    SIMPLE_LAWSUIT_TRACKING = "simple_lawsuit_tracking"
    SIMPLE_LAWSUIT_TRACKING_FIXED_TIME = "simple_lawsuit_tracking_fixed_time"
    COMPLETE_LAWSUIT_TRACKING = "complete_lawsuit_tracking"
    COMPLETE_LAWSUIT_TRACKING_FIXED_TIME = "complete_lawsuit_tracking_fixed_time"
    FULL_LAWSUIT_TRACKING = "full_lawsuit_tracking"
    FULL_LAWSUIT_TRACKING_FIXED_TIME = "full_lawsuit_tracking_fixed_time"
    SIMPLE_WARRANT_SEARCH = "simple_warrant_search"
    COMPLETE_WARRANT_SEARCH = "complete_warrant_search"
    SIMPLE_EXECUTION_SEARCH = "simple_execution_search"
    COMPLETE_EXECUTION_SEARCH = "complete_execution_search"
    BINARY_DOCUMENT_SEARCH = "binary_document_search"
    COUNT_DOCUMENT_SEARCH = "count_document_search"
    AGGREGATE_DOCUMENT_SEARCH = "aggregate_document_search"
    SIMPLE_DOCUMENT_SEARCH = "simple_document_search"
    SIMPLE_DOCUMENT_SEARCH_WITH_SUMMARY = "simple_document_search_with_summary"
    COMPLETE_DOCUMENT_SEARCH = "complete_document_search"
    COMPLETE_DOCUMENT_SEARCH_WITH_SUMMARY = "complete_document_search_with_summary"
    COMPLETE_DOCUMENT_SEARCH_ON_DEMAND = "complete_document_search_on_demand"
    COMPLETE_DOCUMENT_SEARCH_ON_DEMAND_WITH_SUMMARY = (
        "complete_document_search_on_demand_with_summary"
    )
    DOCUMENT_TRACKING = "document_tracking"
    DOCUMENT_TRACKING_FIXED_TIME = "document_tracking_fixed_time"
    PUBLIC_DOCUMENT_TRACKING = "public_document_tracking"
    PUBLIC_DOCUMENT_TRACKING_FIXED_TIME = "public_document_tracking_fixed_time"
    CUSTOM_SEARCH = "custom_search"
    CUSTOM_TRACKING = "custom_tracking"
    CUSTOM_TRACKING_FIXED_TIME = "custom_tracking_fixed_time"
    COMMUNICATION_TRACKING = "communication_tracking"
    ENTITY_PERSON_SEARCH = "entity_person_search"
    ENTITY_PERSON_SEARCH_ON_DEMAND = "entity_person_search_on_demand"
    ENTITY_PERSON_NAME_SEARCH = "entity_person_name_search"
    ENTITY_PERSON_NAME_SEARCH_ON_DEMAND = "entity_person_name_search_on_demand"
    ENTITY_COMPANY_SEARCH = "entity_company_search"
    ENTITY_COMPANY_SEARCH_ON_DEMAND = "entity_company_search_on_demand"
    COMPLETE_COMPANY_SEARCH_WITH_BRANCHES = "complete_company_search_with_branches"
    COMPLETE_COMPANY_SEARCH_WITH_BRANCHES_ON_DEMAND = (
        "complete_company_search_with_branches_on_demand"
    )
    SANCTIONS_LISTS_SEARCH = "sanctions_lists_search"
    SYNC_COMPLETE_DOCUMENT_SEARCH = "sync_complete_document_search"
    ERROR = "error"


class CredentialStatus(StrEnum):
    NOT_EXISTS = "not exists"
    ACTIVE = "active"
    INACTIVE = "inactive"


class CredentialMessage(StrEnum):
    CREDENTIAL_CREATED = "CREDENTIAL_CREATED"
    CREDENTIAL_UPDATED = "CREDENTIAL_UPDATED"
    # Answer of DELETE /credentials (D34; the route is our decision, not the spec's).
    CREDENTIAL_DELETED = "CREDENTIAL_DELETED"
    # Answers of POST /credentials/certificate (vault.json, D67).
    CERTIFICATE_CREATED = "CERTIFICATE_CREATED"
    CERTIFICATE_UPDATED = "CERTIFICATE_UPDATED"


class CountKind(StrEnum):
    JUDGEMENT_BOND = "judgement-bond"
    SENTENCE_EXECUTION = "sentence-execution"


class AmountTier(StrEnum):
    UP_TO_100K = "0-100k"
    FROM_100K_TO_250K = "100k-250k"
    FROM_250K_TO_500K = "250k-500k"
    FROM_500K_TO_750K = "500k-750k"
    FROM_750K_TO_1_5M = "750k-1.5M"
    ABOVE_1_5M = "1.5M+"


class Nature(StrEnum):
    ALIMENTARY = "alimentary"
    COMMON = "common"


class CountTag(StrEnum):
    PRECATORY_DISPATCHED = "precatory_dispatched"
    POSSIBLE_PRECATORY = "possible_precatory"
    POSSIBLE_APPROVED_CALCULATION = "possible_approved_calculation"


class ApplicationErrorCode(StrEnum):
    LAWSUIT_NOT_FOUND = "LAWSUIT_NOT_FOUND"
    ENTITY_NOT_FOUND = "ENTITY_NOT_FOUND"
    WARRANT_NOT_FOUND = "WARRANT_NOT_FOUND"
    EXECUTION_NOT_FOUND = "EXECUTION_NOT_FOUND"
    INVALID_CREDENTIAL = "INVALID_CREDENTIAL"
    CRAWLER_ERROR = "CRAWLER_ERROR"
    RATE_LIMIT_TRIBUNAL = "RATE_LIMIT_TRIBUNAL"
    SECRECY_RESTRICTED = "SECRECY_RESTRICTED"
    HOMONYM_AMBIGUOUS = "HOMONYM_AMBIGUOUS"


class ResponseType(StrEnum):
    LAWSUIT = "lawsuit"
    PARTIES = "parties"
    ATTACHMENTS = "attachments"
    STEP = "step"
    LAWSUITS = "lawsuits"
    APPLICATION_ERROR = "application_error"
    ENTITY = "entity"
    WARRANT = "warrant"
    EXECUTION = "execution"
    # D68: accepted by the client's models, not produced by the sandbox.
    SANCTION = "sanction"
    COMMUNICATION = "communication"
    APPLICATION_INFO = "application_info"
    APPLICATION_WARNING = "application_warning"
    SUMMARY = "summary"


class SearchType(StrEnum):
    """The search types the spec shows; its full list is "not shown", hence Open[]."""

    CPF = "cpf"
    CNPJ = "cnpj"
    OAB = "oab"
    LAWSUIT_CNJ = "lawsuit_cnj"
    LAWSUIT_ID = "lawsuit_id"
    NAME = "name"
    # D68: the other search types of requests.json.
    RJI = "rji"
    CUSTOM = "custom"
    LAWSUIT_ATTACHMENT = "lawsuit_attachment"
    EXECUTION_ATTACHMENT = "execution_attachment"


class WarrantStatus(StrEnum):
    """A warrant's situation in the BNMP (warrant page; D116). Open: the service may add."""

    PENDING = "Pendente de Cumprimento"
    SERVED = "Cumprido"
    SUSPENDED = "Suspenso"
    REVOKED = "Revogado"
    EXPIRED = "Expirado"


class WarrantType(StrEnum):
    """requests.json's ``warrant_type`` values (the BNMP's kinds of documents)."""

    WARRANT_OF_ARREST = "warrant_of_arrest"
    CANCELLATION_WARRANT = "cancellation_warrant"
    IMPRISONMENT_GUIDE = "imprisonment_guide"
    INTERNMENT_GUIDE = "internment_guide"
    RELEASE_WARRANT = "release_warrant"
    DISINTERNMENT_ORDER = "disinternment_order"
    CERTIFICATE_COMPLETION_ARREST_WARRANT = "certificate_completion_arrest_warrant"
    CERTIFICATE_EXTINCTION_PUNISHMENT_DEATH = "certificate_extinction_punishment_death"
    CERTIFICATE_COMPLETION_INTERNMENT_WARRANT = "certificate_completion_internment_warrant"
    WARRANT_OF_INTERNMENT = "warrant_of_internment"
    IMPRISONMENT_GUIDE_EXECUTION_COLLECTION = "imprisonment_guide_execution_collection"
    CERTIFICATE_GUIDE_ARCHIVING = "certificate_guide_archiving"
    INTERNMENT_GUIDE_EXECUTION_COLLECTION = "internment_guide_execution_collection"
    CERTIFICATE_CHANGE_UNIT_PRISON_REGIME = "certificate_change_unit_prison_regime"
    DEFINITIVE_EXECUTION_GUIDE = "definitive_execution_guide"
    WARRANT_ELECTRONIC_MONITORING_PRECAUTIONARY = "warrant_electronic_monitoring_precautionary"
    CERTIFICATE_COMPLETION_ELECTRONIC_MONITORING_WARRANT = (
        "certificate_completion_electronic_monitoring_warrant"
    )
    CERTIFICATE_COMPLETION_RELEASE_WARRANT = "certificate_completion_release_warrant"
    CERTIFICATE_COMPLETION_DISINTERNMENT_ORDER = "certificate_completion_disinternment_order"
    REVOCATION_ELECTRONIC_MONITORING_WARRANT = "revocation_electronic_monitoring_warrant"
    WARRANT_MONITORING_VARIOUS_MEASURES_PRISON = "warrant_monitoring_various_measures_prison"
    REVOCATION_WARRANT_MONITORING_VARIOUS_MEASURES_PRISON = (
        "revocation_warrant_monitoring_various_measures_prison"
    )
    OUTPATIENT_TREATMENT_EXECUTION_GUIDE = "outpatient_treatment_execution_guide"
    WARRANT_ELECTRONIC_MONITORING_EXECUTION = "warrant_electronic_monitoring_execution"
    WARRANT_MONITORING_VARIOUS_MEASURES_PRISON_EXECUTION = (
        "warrant_monitoring_various_measures_prison_execution"
    )
    WARRANT_OF_ARREST_RECAPTURE = "warrant_of_arrest_recapture"
    WARRANT_OF_INTERNMENT_RECAPTURE = "warrant_of_internment_recapture"
    CERTIFICATE_COMPLETION_ARREST_WARRANT_RECAPTURE = (
        "certificate_completion_arrest_warrant_recapture"
    )
    CERTIFICATE_COMPLETION_INTERNMENT_WARRANT_RECAPTURE = (
        "certificate_completion_internment_warrant_recapture"
    )
    # The warrant page's and glossary's shorter name for the recapture kind.
    RECAPTURE = "recapture"


class PrisonRegime(StrEnum):
    """The regime of a sentence (glossary: Aberto, Semiaberto, Fechado; D116)."""

    CLOSED = "Fechado"
    SEMI_OPEN = "Semiaberto"
    OPEN = "Aberto"


class ArrestType(StrEnum):
    """requests.json's two values, and the warrant page's finer ones (D116)."""

    PROVISIONAL = "provisional"
    DEFINITIVE = "definitive"
    PREVENTIVE = "preventive"
    TEMPORARY = "temporary"


class ExecutionPhase(StrEnum):
    """A penal execution's phase (execution page)."""

    INITIAL = "Inicial"
    SERVING = "Em Cumprimento"
    SUSPENDED = "Suspenso"
    APPEAL = "Recurso"
    FINAL = "Trânsito em julgado ou acordo"
    ARCHIVED = "Arquivado"


class TransferFileStatus(StrEnum):
    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    DOWNLOADED = "downloaded"
    ERROR = "error"
    FAILED = "failed"


class TransferFileType(StrEnum):
    CSV = "csv"
    JSON = "json"
    PARQUET = "parquet"


class EventType(StrEnum):
    RESPONSE_CREATED = "response_created"
    REQUEST_COMPLETED = "request_completed"
    TRACKING_RESPONSE = "tracking_response"


class DocumentType(StrEnum):
    CPF = "cpf"
    CNPJ = "cnpj"
    OAB = "oab"


class ServiceIa(StrEnum):
    SUMMARY = "summary"


class EntityType(StrEnum):
    """Registration data (POST /entities): a person (CPF) or a company (CNPJ)."""

    PERSON = "person"
    COMPANY = "company"


class RevenueStatus(StrEnum):
    """The registration status at the Receita Federal, as it publishes it (D103).

    A person's CPF: regular, suspended, cancelled, pending regularisation, holder deceased,
    void. A company's CNPJ: active, closed, unfit, suspended, void."""

    REGULAR = "REGULAR"
    PENDENTE_DE_REGULARIZACAO = "PENDENTE DE REGULARIZAÇÃO"
    SUSPENSA = "SUSPENSA"
    CANCELADA = "CANCELADA"
    TITULAR_FALECIDO = "TITULAR FALECIDO"
    NULA = "NULA"
    ATIVA = "ATIVA"
    BAIXADA = "BAIXADA"
    INAPTA = "INAPTA"


def _fold(value: str) -> str:
    # Accents aside too: the Receita's words come with or without them ("REGULARIZACAO").
    return fold(value).replace("-", "_").replace(" ", "_")


@cache
def _lookup(enum_cls: type[StrEnum]) -> dict[str, StrEnum]:
    return {_fold(member.value): member for member in enum_cls}


def coerce_enum(enum_cls: type[E], value: object) -> E | object:
    """The member matching ``value`` (case and separators aside), else ``value`` unchanged."""
    if isinstance(value, enum_cls) or not isinstance(value, str):
        return value
    member = _lookup(enum_cls).get(_fold(value))
    return value if member is None else member


def enum_or_none(enum_cls: type[E], value: object) -> E | None:
    """The member for a field value, or None when the value is unknown or absent."""
    found = coerce_enum(enum_cls, value)
    return found if isinstance(found, enum_cls) else None


class _OpenEnum:
    """Annotation marker: validate ``E | str``, mapping case variants onto members of E."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        enum_cls = next(
            arg
            for arg in typing.get_args(source)
            if isinstance(arg, type) and issubclass(arg, StrEnum)
        )

        def coerce(value: Any) -> Any:
            return coerce_enum(enum_cls, value)

        return core_schema.no_info_before_validator_function(coerce, handler(source))

    def __repr__(self) -> str:
        return "OpenEnum()"


# ``Open[Side]``: a Side member when the value is known (in any case), else the plain str.
Open = Annotated[E | str, _OpenEnum()]


class MinerRequestStatus(StrEnum):
    """A Miner request's status (miner.yaml ``RequestStatus``)."""

    PENDING = "pending"
    COMPLETED = "completed"
    FAILED = "failed"


class MinerRequestType(StrEnum):
    """A Miner request's type (miner.yaml ``RequestType``): a free count or a paid find."""

    COUNT = "count"
    FIND = "find"
