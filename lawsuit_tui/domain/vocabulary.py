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

from lawsuit_tui.domain.enums import (
    AmountTier,
    CountKind,
    CountTag,
    CredentialStatus,
    Nature,
    RequestStatus,
    ResponseType,
    SearchType,
    Side,
    TierName,
    TrackingStatus,
    coerce_enum,
)
from lawsuit_tui.domain.inbox import MovementKind
from lawsuit_tui.i18n import N_, _

__all__ = [
    "AMOUNT_TIER_WORDS",
    "COUNT_KIND_WORDS",
    "COUNT_TAG_WORDS",
    "CREDENTIAL_STATUS_WORDS",
    "MOVEMENT_KIND_WORDS",
    "NATURE_WORDS",
    "REQUEST_STATUS_WORDS",
    "RESPONSE_TYPE_WORDS",
    "SEARCH_TYPE_WORDS",
    "SIDE_WORDS",
    "TIER_WORDS",
    "TRACKING_STATUS_WORDS",
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
}

SEARCH_TYPE_WORDS: Final[Mapping[StrEnum, str]] = {
    SearchType.CPF: "CPF",
    SearchType.CNPJ: "CNPJ",
    SearchType.OAB: "OAB",
    SearchType.LAWSUIT_CNJ: "CNJ",
    SearchType.LAWSUIT_ID: N_("lawsuit id"),
    SearchType.NAME: N_("name"),
}

SIDE_WORDS: Final[Mapping[StrEnum, str]] = {
    # The lawyer's words: "polo ativo" / "polo passivo".
    Side.ACTIVE: N_("active side"),
    Side.PASSIVE: N_("passive side"),
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

TIER_WORDS: Final[Mapping[StrEnum, str]] = {
    # A tier the user named in the configuration is shown as they named it.
    TierName.HOT: N_("hot"),
    TierName.WARM: N_("warm"),
    TierName.COLD: N_("cold"),
}

MOVEMENT_KIND_WORDS: Final[Mapping[StrEnum, str]] = {
    MovementKind.STEPS: N_("new steps"),
    MovementKind.LAWSUIT: N_("new lawsuit"),
    MovementKind.ERROR: N_("could not look"),
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
