"""The words people read for the service's values: statuses, types, kinds, tiers.

The service speaks in codes (``completed``, ``not exists``, ``judgement-bond``,
``precatory_dispatched``); a screen, an export header or a command's table shows these words
instead, in the reader's language. One table per list of values, every word marked ``N_`` and
translated at use, so a language switch mid-session changes them all. A value the service adds
later, and that no table knows, is shown as it came (never hidden, never guessed).

Add a list here when a new field of the service reaches the screen; never map codes to words in
a screen or a command.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from lawsuit_tui.domain.certificates import CertificateFault
from lawsuit_tui.domain.dossier import AmountBand, DossierStep, StepStatus, Verdict
from lawsuit_tui.domain.enums import (
    AmountTier,
    ArrestType,
    CountKind,
    CountTag,
    CredentialMessage,
    CredentialStatus,
    EntityType,
    ExecutionPhase,
    MinerRequestStatus,
    Nature,
    PlanConfigType,
    PrisonRegime,
    RequestStatus,
    ResponseType,
    RevenueStatus,
    SearchType,
    Side,
    TierName,
    TrackingStatus,
    TransferFileStatus,
    WarrantStatus,
    WarrantType,
    coerce_enum,
)
from lawsuit_tui.domain.inbox import MovementKind
from lawsuit_tui.i18n import N_, _

__all__ = [
    "AMOUNT_BAND_WORDS",
    "AMOUNT_TIER_WORDS",
    "ARREST_TYPE_WORDS",
    "CERTIFICATE_FAULT_WORDS",
    "COUNT_KIND_WORDS",
    "COUNT_TAG_WORDS",
    "CREDENTIAL_MESSAGE_WORDS",
    "CREDENTIAL_STATUS_WORDS",
    "DOSSIER_STEP_WORDS",
    "ENTITY_TYPE_WORDS",
    "EXECUTION_PHASE_WORDS",
    "MINER_ERROR_WORDS",
    "MINER_STATUS_WORDS",
    "MOVEMENT_KIND_WORDS",
    "NATURE_WORDS",
    "PLAN_CONFIG_WORDS",
    "PRISON_REGIME_WORDS",
    "REQUEST_STATUS_WORDS",
    "RESPONSE_TYPE_WORDS",
    "REVENUE_STATUS_WORDS",
    "SEARCH_TYPE_WORDS",
    "SIDE_WORDS",
    "STEP_STATUS_WORDS",
    "TIER_WORDS",
    "TRACKING_STATUS_WORDS",
    "TRANSFER_FILE_STATUS_WORDS",
    "VAULT_REFUSAL_WORDS",
    "VERDICT_WORDS",
    "WARRANT_STATUS_WORDS",
    "WARRANT_TYPE_WORDS",
    "MinerErrorCode",
    "VaultRefusalCode",
    "word",
]

REQUEST_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    RequestStatus.PENDING: N_("pending"),
    RequestStatus.STARTED: N_("in progress"),
    RequestStatus.CANCELLING: N_("cancelling"),
    RequestStatus.CANCELLED: N_("cancelled"),
    RequestStatus.COMPLETED: N_("completed"),
}

TRACKING_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    TrackingStatus.CREATED: N_("created"),
    TrackingStatus.UPDATING: N_("updating"),
    TrackingStatus.UPDATED: N_("up to date"),
    TrackingStatus.PAUSED: N_("paused"),
    TrackingStatus.DELETED: N_("deleted"),
    TrackingStatus.SUSPENDED: N_("suspended"),
}

CREDENTIAL_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    CredentialStatus.NOT_EXISTS: N_("none registered"),
    CredentialStatus.ACTIVE: N_("active"),
    CredentialStatus.INACTIVE: N_("inactive"),
}

RESPONSE_TYPE_WORDS: Final[Mapping[StrEnum, str]] = {
    ResponseType.LAWSUIT: N_("lawsuit"),
    ResponseType.PARTIES: N_("parties"),
    ResponseType.ATTACHMENTS: N_("attachments"),
    ResponseType.STEP: N_("steps"),
    ResponseType.LAWSUITS: N_("lawsuits"),
    ResponseType.APPLICATION_ERROR: N_("application error"),
    ResponseType.ENTITY: N_("registration data"),
    ResponseType.WARRANT: N_("arrest warrant"),
    ResponseType.EXECUTION: N_("penal execution"),
    ResponseType.SANCTION: N_("sanctions lists"),
    ResponseType.COMMUNICATION: N_("court communications"),
    ResponseType.APPLICATION_INFO: N_("notice"),
    ResponseType.APPLICATION_WARNING: N_("warning"),
    ResponseType.SUMMARY: N_("AI summary"),
}

SEARCH_TYPE_WORDS: Final[Mapping[StrEnum, str]] = {
    SearchType.CPF: "CPF",
    SearchType.CNPJ: "CNPJ",
    SearchType.OAB: "OAB",
    SearchType.LAWSUIT_CNJ: "CNJ",
    SearchType.LAWSUIT_ID: N_("lawsuit id"),
    SearchType.NAME: N_("name"),
    SearchType.RJI: "RJI",
    SearchType.CUSTOM: N_("custom (filters)"),
    SearchType.LAWSUIT_ATTACHMENT: N_("lawsuit attachment"),
    SearchType.EXECUTION_ATTACHMENT: N_("execution attachment"),
}

SIDE_WORDS: Final[Mapping[StrEnum, str]] = {
    # The lawyer's words: "polo ativo" / "polo passivo".
    Side.ACTIVE: N_("active side"),
    Side.PASSIVE: N_("passive side"),
    Side.INTERESTED: N_("interested third party"),
    Side.UNKNOWN: N_("side not stated"),
}

COUNT_KIND_WORDS: Final[Mapping[StrEnum, str]] = {
    CountKind.JUDGEMENT_BOND: N_("court-ordered debt (precatório)"),
    CountKind.SENTENCE_EXECUTION: N_("enforcement of judgment"),
}

NATURE_WORDS: Final[Mapping[StrEnum, str]] = {
    Nature.ALIMENTARY: N_("maintenance (alimentar)"),
    Nature.COMMON: N_("common"),
}

COUNT_TAG_WORDS: Final[Mapping[StrEnum, str]] = {
    CountTag.PRECATORY_DISPATCHED: N_("precatório issued"),
    CountTag.POSSIBLE_PRECATORY: N_("possible precatório"),
    CountTag.POSSIBLE_APPROVED_CALCULATION: N_("calculation possibly approved"),
}

AMOUNT_TIER_WORDS: Final[Mapping[StrEnum, str]] = {
    AmountTier.UP_TO_100K: N_("up to R$ 100 thousand"),
    AmountTier.FROM_100K_TO_250K: N_("R$ 100 to 250 thousand"),
    AmountTier.FROM_250K_TO_500K: N_("R$ 250 to 500 thousand"),
    AmountTier.FROM_500K_TO_750K: N_("R$ 500 to 750 thousand"),
    AmountTier.FROM_750K_TO_1_5M: N_("R$ 750 thousand to 1.5 million"),
    AmountTier.ABOVE_1_5M: N_("over R$ 1.5 million"),
}

# D116: what a warrant's status means for the person named in it.
WARRANT_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    WarrantStatus.PENDING: N_("open (to be served)"),
    WarrantStatus.SERVED: N_("served"),
    WarrantStatus.SUSPENDED: N_("suspended"),
    WarrantStatus.REVOKED: N_("revoked"),
    WarrantStatus.EXPIRED: N_("expired"),
}

ARREST_TYPE_WORDS: Final[Mapping[StrEnum, str]] = {
    ArrestType.PROVISIONAL: N_("provisional (before conviction)"),
    ArrestType.DEFINITIVE: N_("definitive (serving a sentence)"),
    ArrestType.PREVENTIVE: N_("preventive"),
    ArrestType.TEMPORARY: N_("temporary"),
}

PRISON_REGIME_WORDS: Final[Mapping[StrEnum, str]] = {
    PrisonRegime.CLOSED: N_("closed regime"),
    PrisonRegime.SEMI_OPEN: N_("semi-open regime"),
    PrisonRegime.OPEN: N_("open regime"),
}

EXECUTION_PHASE_WORDS: Final[Mapping[StrEnum, str]] = {
    ExecutionPhase.INITIAL: N_("starting"),
    ExecutionPhase.SERVING: N_("sentence being served"),
    ExecutionPhase.SUSPENDED: N_("suspended"),
    ExecutionPhase.APPEAL: N_("appeal pending"),
    ExecutionPhase.FINAL: N_("final decision or settlement"),
    ExecutionPhase.ARCHIVED: N_("archived"),
}

TRANSFER_FILE_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    TransferFileStatus.PENDING: N_("pending"),
    TransferFileStatus.IN_PROGRESS: N_("being prepared"),
    TransferFileStatus.COMPLETED: N_("ready"),
    TransferFileStatus.DOWNLOADED: N_("downloaded"),
    TransferFileStatus.ERROR: N_("reported error"),
    TransferFileStatus.FAILED: N_("failed"),
}

WARRANT_TYPE_WORDS: Final[Mapping[StrEnum, str]] = {
    WarrantType.WARRANT_OF_ARREST: N_("arrest warrant"),
    WarrantType.CANCELLATION_WARRANT: N_("warrant cancellation"),
    WarrantType.IMPRISONMENT_GUIDE: N_("imprisonment guide"),
    WarrantType.INTERNMENT_GUIDE: N_("internment guide"),
    WarrantType.RELEASE_WARRANT: N_("release order"),
    WarrantType.DISINTERNMENT_ORDER: N_("disinternment order"),
    WarrantType.CERTIFICATE_COMPLETION_ARREST_WARRANT: N_("certificate: arrest warrant served"),
    WarrantType.CERTIFICATE_EXTINCTION_PUNISHMENT_DEATH: N_(
        "certificate: punishment extinguished by death"
    ),
    WarrantType.CERTIFICATE_COMPLETION_INTERNMENT_WARRANT: N_(
        "certificate: internment warrant served"
    ),
    WarrantType.WARRANT_OF_INTERNMENT: N_("internment warrant"),
    WarrantType.IMPRISONMENT_GUIDE_EXECUTION_COLLECTION: N_(
        "imprisonment guide (execution collection)"
    ),
    WarrantType.CERTIFICATE_GUIDE_ARCHIVING: N_("certificate: guide archived"),
    WarrantType.INTERNMENT_GUIDE_EXECUTION_COLLECTION: N_(
        "internment guide (execution collection)"
    ),
    WarrantType.CERTIFICATE_CHANGE_UNIT_PRISON_REGIME: N_(
        "certificate: change of prison unit or regime"
    ),
    WarrantType.DEFINITIVE_EXECUTION_GUIDE: N_("definitive execution guide"),
    WarrantType.WARRANT_ELECTRONIC_MONITORING_PRECAUTIONARY: N_(
        "electronic monitoring order (precautionary)"
    ),
    WarrantType.CERTIFICATE_COMPLETION_ELECTRONIC_MONITORING_WARRANT: N_(
        "certificate: electronic monitoring order served"
    ),
    WarrantType.CERTIFICATE_COMPLETION_RELEASE_WARRANT: N_("certificate: release order served"),
    WarrantType.CERTIFICATE_COMPLETION_DISINTERNMENT_ORDER: N_(
        "certificate: disinternment order served"
    ),
    WarrantType.REVOCATION_ELECTRONIC_MONITORING_WARRANT: N_("electronic monitoring order revoked"),
    WarrantType.WARRANT_MONITORING_VARIOUS_MEASURES_PRISON: N_(
        "order of precautionary measures other than prison"
    ),
    WarrantType.REVOCATION_WARRANT_MONITORING_VARIOUS_MEASURES_PRISON: N_(
        "precautionary measures revoked"
    ),
    WarrantType.OUTPATIENT_TREATMENT_EXECUTION_GUIDE: N_("outpatient treatment guide"),
    WarrantType.WARRANT_ELECTRONIC_MONITORING_EXECUTION: N_(
        "electronic monitoring order (execution)"
    ),
    WarrantType.WARRANT_MONITORING_VARIOUS_MEASURES_PRISON_EXECUTION: N_(
        "order of measures other than prison (execution)"
    ),
    WarrantType.WARRANT_OF_ARREST_RECAPTURE: N_("recapture warrant"),
    WarrantType.WARRANT_OF_INTERNMENT_RECAPTURE: N_("internment recapture warrant"),
    WarrantType.CERTIFICATE_COMPLETION_ARREST_WARRANT_RECAPTURE: N_(
        "certificate: recapture warrant served"
    ),
    WarrantType.CERTIFICATE_COMPLETION_INTERNMENT_WARRANT_RECAPTURE: N_(
        "certificate: internment recapture warrant served"
    ),
    WarrantType.RECAPTURE: N_("recapture warrant"),
}


CREDENTIAL_MESSAGE_WORDS: Final[Mapping[StrEnum, str]] = {
    CredentialMessage.CREDENTIAL_CREATED: N_("registered"),
    CredentialMessage.CREDENTIAL_UPDATED: N_("updated"),
    CredentialMessage.CREDENTIAL_DELETED: N_("deleted"),
    CredentialMessage.CERTIFICATE_CREATED: N_("certificate registered"),
    CredentialMessage.CERTIFICATE_UPDATED: N_("certificate replaced"),
}

# What the vault says of a certificate it refuses (D67), as the person who chose it reads it.
CERTIFICATE_FAULT_WORDS: Final[Mapping[StrEnum, str]] = {
    CertificateFault.MALFORMED: N_("This file is not an A1 certificate (PKCS#12 .pfx/.p12)."),
    CertificateFault.TOO_LARGE: N_("The file is larger than the 64 KB the vault accepts."),
    CertificateFault.PASSWORD_INVALID: N_("Wrong password: it does not open this certificate."),
    CertificateFault.NO_PRIVATE_KEY: N_(
        "The file has no private key: export it again with the private key."
    ),
    CertificateFault.NO_CERTIFICATE: N_("The file has a key but no certificate."),
    CertificateFault.EXPIRED: N_("The certificate has expired."),
    CertificateFault.NOT_YET_VALID: N_("The certificate is not valid yet."),
}


class VaultRefusalCode(StrEnum):
    """The vault's refusals beyond the certificate file's own faults (D67)."""

    CERTIFICATE_HOLDER_MISMATCH = "CERTIFICATE_HOLDER_MISMATCH"
    CREDENTIAL_TYPE_CONFLICT = "CREDENTIAL_TYPE_CONFLICT"
    CERTIFICATE_FIELDS_NOT_ALLOWED = "CERTIFICATE_FIELDS_NOT_ALLOWED"


VAULT_REFUSAL_WORDS: Final[Mapping[StrEnum, str]] = {
    VaultRefusalCode.CERTIFICATE_HOLDER_MISMATCH: N_(
        "The vault holds a certificate of another holder for this system and key: delete it "
        "first to register this one."
    ),
    VaultRefusalCode.CREDENTIAL_TYPE_CONFLICT: N_(
        "This system and key have a username and password: delete that credential first to "
        "register a certificate."
    ),
    VaultRefusalCode.CERTIFICATE_FIELDS_NOT_ALLOWED: N_(
        "Certificates go through their own route, not with a username and password."
    ),
}

MINER_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    MinerRequestStatus.PENDING: N_("processing"),
    MinerRequestStatus.COMPLETED: N_("completed"),
    MinerRequestStatus.FAILED: N_("failed"),
}


class MinerErrorCode(StrEnum):
    """The Miner's error codes (miner.yaml, credits page): the texts of ``{errors: [...]}``."""

    INSUFFICIENT_CREDITS = "INSUFFICIENT_CREDITS"
    MISSING_CREDITS = "MISSING_CREDITS"
    MISSING_CONFIGURATIONS = "MISSING_CONFIGURATIONS"
    REQUEST_NOT_FOUND = "REQUEST_NOT_FOUND"
    REQUEST_NOT_COMPLETED = "REQUEST_NOT_COMPLETED"
    INVALID_REQUEST_TYPE = "INVALID_REQUEST_TYPE"


MINER_ERROR_WORDS: Final[Mapping[StrEnum, str]] = {
    MinerErrorCode.INSUFFICIENT_CREDITS: N_(
        "Not enough credits for this find: lower the cap, narrow the filter or top up."
    ),
    MinerErrorCode.MISSING_CREDITS: N_("The account has no Miner credits."),
    MinerErrorCode.MISSING_CONFIGURATIONS: N_("The account has no Miner plan configured."),
    MinerErrorCode.REQUEST_NOT_FOUND: N_("The Miner has no request with this number."),
    MinerErrorCode.REQUEST_NOT_COMPLETED: N_("The find request is still processing."),
    MinerErrorCode.INVALID_REQUEST_TYPE: N_("This is a count, not a find: it has no lawsuits."),
}


PLAN_CONFIG_WORDS: Final[Mapping[StrEnum, str]] = {
    # What a request or a tracking is billed as (issue 19: a tracking's plan was shown raw).
    PlanConfigType.DATALAKE_LAWSUIT_SEARCH: N_("lawsuit search in the stored base"),
    PlanConfigType.DOWNLOAD_ATTACHMENT: N_("attachment download"),
    PlanConfigType.DOWNLOAD_FULL_LAWSUIT: N_("whole lawsuit download"),
    PlanConfigType.DOWNLOAD_EXECUTION_ATTACHMENT: N_("penal execution attachment download"),
    PlanConfigType.SIMPLE_LAWSUIT_SEARCH: N_("lawsuit search, simple"),
    PlanConfigType.SIMPLE_LAWSUIT_SEARCH_WITH_SUMMARY: N_("lawsuit search, simple, with summary"),
    PlanConfigType.COMPLETE_LAWSUIT_SEARCH: N_("lawsuit search, complete"),
    PlanConfigType.COMPLETE_LAWSUIT_SEARCH_WITH_SUMMARY: N_(
        "lawsuit search, complete, with summary"
    ),
    PlanConfigType.FULL_LAWSUIT_SEARCH: N_("lawsuit search, full"),
    PlanConfigType.FULL_LAWSUIT_SEARCH_WITH_SUMMARY: N_("lawsuit search, full, with summary"),
    PlanConfigType.SIMPLE_WARRANT_SEARCH: N_("arrest warrant search, simple"),
    PlanConfigType.COMPLETE_WARRANT_SEARCH: N_("arrest warrant search, complete"),
    PlanConfigType.SIMPLE_EXECUTION_SEARCH: N_("penal execution search, simple"),
    PlanConfigType.COMPLETE_EXECUTION_SEARCH: N_("penal execution search, complete"),
    PlanConfigType.BINARY_DOCUMENT_SEARCH: N_("document search, yes or no"),
    PlanConfigType.COUNT_DOCUMENT_SEARCH: N_("document search, count"),
    PlanConfigType.AGGREGATE_DOCUMENT_SEARCH: N_("document search, aggregated"),
    PlanConfigType.SIMPLE_DOCUMENT_SEARCH: N_("document search, simple"),
    PlanConfigType.SIMPLE_DOCUMENT_SEARCH_WITH_SUMMARY: N_("document search, simple, with summary"),
    PlanConfigType.COMPLETE_DOCUMENT_SEARCH: N_("document search, complete"),
    PlanConfigType.COMPLETE_DOCUMENT_SEARCH_WITH_SUMMARY: N_(
        "document search, complete, with summary"
    ),
    PlanConfigType.COMPLETE_DOCUMENT_SEARCH_ON_DEMAND: N_("document search, complete, on demand"),
    PlanConfigType.COMPLETE_DOCUMENT_SEARCH_ON_DEMAND_WITH_SUMMARY: N_(
        "document search, complete, on demand, with summary"
    ),
    PlanConfigType.CUSTOM_SEARCH: N_("custom search"),
    PlanConfigType.ENTITY_PERSON_SEARCH: N_("registration data of a person"),
    PlanConfigType.ENTITY_PERSON_SEARCH_ON_DEMAND: N_("registration data of a person, on demand"),
    PlanConfigType.ENTITY_PERSON_NAME_SEARCH: N_("registration data of a person, by name"),
    PlanConfigType.ENTITY_PERSON_NAME_SEARCH_ON_DEMAND: N_(
        "registration data of a person, by name, on demand"
    ),
    PlanConfigType.ENTITY_COMPANY_SEARCH: N_("registration data of a company"),
    PlanConfigType.ENTITY_COMPANY_SEARCH_ON_DEMAND: N_("registration data of a company, on demand"),
    PlanConfigType.COMPLETE_COMPANY_SEARCH_WITH_BRANCHES: N_(
        "company search, complete, with branches"
    ),
    PlanConfigType.COMPLETE_COMPANY_SEARCH_WITH_BRANCHES_ON_DEMAND: N_(
        "company search, complete, with branches, on demand"
    ),
    PlanConfigType.SANCTIONS_LISTS_SEARCH: N_("sanctions lists search"),
    PlanConfigType.SYNC_COMPLETE_DOCUMENT_SEARCH: N_("document search, complete, synchronous"),
    PlanConfigType.ERROR: N_("error"),
    PlanConfigType.SIMPLE_LAWSUIT_TRACKING: N_("lawsuit tracking, simple"),
    PlanConfigType.SIMPLE_LAWSUIT_TRACKING_FIXED_TIME: N_("lawsuit tracking, simple, fixed time"),
    PlanConfigType.COMPLETE_LAWSUIT_TRACKING: N_("lawsuit tracking, complete"),
    PlanConfigType.COMPLETE_LAWSUIT_TRACKING_FIXED_TIME: N_(
        "lawsuit tracking, complete, fixed time"
    ),
    PlanConfigType.FULL_LAWSUIT_TRACKING: N_("lawsuit tracking, full"),
    PlanConfigType.FULL_LAWSUIT_TRACKING_FIXED_TIME: N_("lawsuit tracking, full, fixed time"),
    PlanConfigType.DOCUMENT_TRACKING: N_("tracking of a document's new lawsuits"),
    PlanConfigType.DOCUMENT_TRACKING_FIXED_TIME: N_(
        "tracking of a document's new lawsuits, fixed time"
    ),
    PlanConfigType.PUBLIC_DOCUMENT_TRACKING: N_("tracking of a document's public lawsuits"),
    PlanConfigType.PUBLIC_DOCUMENT_TRACKING_FIXED_TIME: N_(
        "tracking of a document's public lawsuits, fixed time"
    ),
    PlanConfigType.CUSTOM_TRACKING: N_("custom tracking"),
    PlanConfigType.CUSTOM_TRACKING_FIXED_TIME: N_("custom tracking, fixed time"),
    PlanConfigType.COMMUNICATION_TRACKING: N_("tracking of court communications"),
}

ENTITY_TYPE_WORDS: Final[Mapping[StrEnum, str]] = {
    EntityType.PERSON: N_("natural person"),
    EntityType.COMPANY: N_("legal entity"),
}

REVENUE_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    # The Receita Federal's own words for a CPF or a CNPJ (D103).
    RevenueStatus.REGULAR: N_("regular"),
    RevenueStatus.PENDENTE_DE_REGULARIZACAO: N_("pending regularisation"),
    # Worded apart from the request and tracking statuses: a registration's words agree
    # with "situação cadastral" (feminine) in Portuguese.
    RevenueStatus.SUSPENSA: N_("suspended registration"),
    RevenueStatus.CANCELADA: N_("cancelled registration"),
    RevenueStatus.TITULAR_FALECIDO: N_("holder deceased"),
    RevenueStatus.NULA: N_("void registration"),
    RevenueStatus.ATIVA: N_("active registration"),
    RevenueStatus.BAIXADA: N_("closed down"),
    RevenueStatus.INAPTA: N_("unfit registration"),
}


TIER_WORDS: Final[Mapping[StrEnum, str]] = {
    # The portfolio's default tiers (a configured tier shows its own name).
    TierName.HOT: N_("hot"),
    TierName.WARM: N_("warm"),
    TierName.COLD: N_("cold"),
}

MOVEMENT_KIND_WORDS: Final[Mapping[StrEnum, str]] = {
    MovementKind.STEPS: N_("new steps"),
    MovementKind.LAWSUIT: N_("new lawsuit"),
    MovementKind.ERROR: N_("could not look"),
}


# The steps of a dossier (domain/dossier.py), as the analyst reads them in its progress list.
DOSSIER_STEP_WORDS: Final[Mapping[StrEnum, str]] = {
    DossierStep.GATE: N_("Gate: any lawsuit at all?"),
    DossierStep.COUNT: N_("Counts"),
    DossierStep.AGGREGATIONS: N_("Aggregations"),
    DossierStep.ENTITY: N_("Registration data"),
    DossierStep.LAWSUITS: N_("Lawsuits (full listing)"),
    DossierStep.WARRANTS: N_("Arrest warrants"),
    DossierStep.EXECUTIONS: N_("Penal executions"),
}

STEP_STATUS_WORDS: Final[Mapping[StrEnum, str]] = {
    StepStatus.PLANNED: N_("to run"),
    StepStatus.RUNNING: N_("running"),
    StepStatus.DONE: N_("done"),
    StepStatus.FAILED: N_("failed"),
    StepStatus.SKIPPED: N_("skipped"),
    StepStatus.NOT_RUN: N_("not run"),
}

VERDICT_WORDS: Final[Mapping[StrEnum, str]] = {
    Verdict.APPROVE: N_("approved"),
    Verdict.APPROVE_WITH_CONDITIONS: N_("approved with conditions"),
    Verdict.REJECT: N_("rejected"),
}

# D192: short, for a chart's axis at 80 columns.
AMOUNT_BAND_WORDS: Final[Mapping[StrEnum, str]] = {
    AmountBand.UP_TO_10K: N_("up to R$ 10k"),
    AmountBand.FROM_10K_TO_50K: N_("R$ 10k-50k"),
    AmountBand.FROM_50K_TO_100K: N_("R$ 50k-100k"),
    AmountBand.FROM_100K_TO_500K: N_("R$ 100k-500k"),
    AmountBand.FROM_500K_TO_1M: N_("R$ 500k-1M"),
    AmountBand.ABOVE_1M: N_("over R$ 1M"),
    AmountBand.NO_AMOUNT: N_("no amount"),
}


def word(table: Mapping[StrEnum, str], value: object) -> str:
    """The reader's word for ``value`` in ``table``, or the value as it came when unknown.

    ``value`` may be a member or the service's text in any case (``NOT_EXISTS``)."""
    if value is None:
        return ""
    member_type = type(next(iter(table)))
    member = coerce_enum(member_type, value)
    label = table.get(member) if isinstance(member, StrEnum) else None
    if label is None:
        return str(value)
    if label.isupper():
        return label  # an acronym (CPF, CNJ): the same in every language
    return _(label)
