"""What a search may ask for and what it costs (D3, D7, D10-D12, D18, D19).

The rules both engines and the lookup route apply to a search before anything runs.
"""

from __future__ import annotations

from typing import Any

from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_search_key
from lawsuit_tui.sandbox.errors import ServiceError

__all__ = [
    "DOCUMENT_SEARCHES",
    "LAWSUIT_SEARCHES",
    "application_error",
    "chosen_response_type",
    "cost_of",
    "entity_plan_config_type",
    "normalize_search_key",
    "plan_config_type",
    "request_response_types",
    "response_types_for",
]

LAWSUIT_SEARCHES = ("lawsuit_cnj", "lawsuit_id")
DOCUMENT_SEARCHES = ("cpf", "cnpj", "oab", "name")

# D11: accepted response types per search type, the first being the default; D68's
# `entity` row (registration data) for cpf, cnpj and name.
_RESPONSE_TYPES: dict[str, tuple[str, ...]] = {
    "lawsuit_cnj": ("lawsuit", "parties", "attachments", "step"),
    "lawsuit_id": ("lawsuit", "parties", "attachments", "step"),
    "cpf": ("lawsuits", "lawsuit", "parties", "entity"),
    "cnpj": ("lawsuits", "lawsuit", "parties", "entity"),
    "oab": ("lawsuits", "lawsuit", "parties"),
    "name": ("lawsuits", "lawsuit", "parties", "entity"),
}

# D68 (amends D11): what requests add to D11's table (trackings keep D11's).
_REQUEST_RESPONSE_TYPES: dict[str, tuple[str, ...]] = {
    "lawsuit_cnj": ("execution",),
    "lawsuit_id": ("execution",),
    "cpf": ("warrant", "execution"),
    "cnpj": ("execution",),
    "name": ("warrant", "execution"),
    "rji": ("warrant",),
    "lawsuit_attachment": ("lawsuit",),
    "execution_attachment": ("lawsuit",),
    "custom": ("lawsuits",),
}

_ERROR_DETAILS = {
    "LAWSUIT_NOT_FOUND": "The lawsuit does not exist at the court or is not reachable.",
    "ENTITY_NOT_FOUND": "No person or company was found for this document.",
    "WARRANT_NOT_FOUND": "No arrest warrant was found in the BNMP for this search.",
    "EXECUTION_NOT_FOUND": "No penal execution was found for this search.",
    "SECRECY_RESTRICTED": (
        "The lawsuit is secret and there is no active credential for its court system "
        "under this customer_key."
    ),
    "INVALID_CREDENTIAL": "The vault credential for this court system is invalid or expired.",
    "CRAWLER_ERROR": "Collection from the court failed: the court is down.",
    "RATE_LIMIT_TRIBUNAL": (
        "The court limited collection; it will be retried automatically in the next cycle."
    ),
    "HOMONYM_AMBIGUOUS": "The name matches several people; search by document instead.",
}


def response_types_for(search_type: str) -> tuple[str, ...]:
    return _RESPONSE_TYPES.get(search_type, ())


def request_response_types(search_type: str) -> tuple[str, ...]:
    """D68: the response types a request may ask for, the default first."""
    both = response_types_for(search_type) + _REQUEST_RESPONSE_TYPES.get(search_type, ())
    return tuple(dict.fromkeys(both))


def chosen_response_type(search_type: str, asked: str | None, accepted: tuple[str, ...]) -> str:
    """D68: the response type ``asked`` for (default: the first ``accepted``), or 422 when the
    search type does not give it."""
    response_type = asked or accepted[0]
    if response_type not in accepted:
        raise ServiceError(
            422,
            f"response_type {response_type} cannot be asked for search_type {search_type} "
            f"(accepted: {', '.join(accepted)})",
            name="HttpUnprocessableEntityError",
        )
    return response_type


def normalize_search_key(search_type: str, key: str, field: str = "search.search_key") -> str:
    """D3: the normalized key, or 422 naming the field when it is not a key of that type."""
    # D94: the documented schema takes any string here; a string that is no key of its type
    # is refused as unprocessable (errors.mdx: "a mathematically invalid CNJ" is a 422).
    text = key.strip()
    if search_type == "custom":
        return text  # D115: a custom search has no key; what came is echoed
    if search_type == "rji":
        digits = "".join(ch for ch in text if ch.isdigit())
        if not 10 <= len(digits) <= 30 or any(ch.isalpha() for ch in text):
            raise ServiceError.unusable(field, "an RJI is a number of 10 to 30 digits")
        return digits
    if search_type == "name":
        if len(text) < 3:
            raise ServiceError.unusable(field, "a name needs at least 3 letters")
        return " ".join(text.split())
    # D115: the attachment searches take a CNJ number as their key.
    cnj_keyed = ("lawsuit_id", "lawsuit_attachment", "execution_attachment")
    wanted = "lawsuit_cnj" if search_type in cnj_keyed else search_type
    try:
        parsed = parse_search_key(text)
    except InvalidSearchKey as exc:
        if exc.kind is not None and exc.kind != wanted:
            # The parser's complaint is about the type the text looks like ("12345" is an
            # OAB without its state): what matters here is that it is no key of this type.
            raise ServiceError.unusable(field, f"{key!r} is not a {search_type} key") from None
        raise ServiceError.unusable(field, exc.english) from None
    if parsed.search_type != wanted:
        raise ServiceError.unusable(
            field, f"{key!r} is a {parsed.search_type} key, not a {search_type} key"
        )
    if search_type == "lawsuit_id" and not text.isdigit():
        # D10: lawsuit_id takes the 20 digits without punctuation; accept the formatted form.
        return parsed.key
    return parsed.key


def application_error(code: str, details: str | None = None) -> dict[str, Any]:
    """D7, D19: string codes, a human sentence in English as details."""
    return {"code": code, "message": code, "details": details or _ERROR_DETAILS.get(code, code)}


def plan_config_type(
    search_type: str,
    with_attachments: bool,
    on_demand: bool,
    branches: bool,
    summary: bool = False,
) -> str:
    """D18; ``summary``: the AI summary was asked for (D80, the OAS ``*_with_summary``)."""
    if branches:
        return "complete_company_search_with_branches"
    if search_type == "name":
        return "entity_person_name_search"
    if search_type in LAWSUIT_SEARCHES:
        plan = "full_lawsuit_search" if with_attachments else "complete_lawsuit_search"
    else:
        plan = "complete_document_search_on_demand" if on_demand else "complete_document_search"
    return f"{plan}_with_summary" if summary else plan


def entity_plan_config_type(search_type: str, on_demand: bool) -> str:
    """D110: a registration-data request's plan (the PlanConfigType names of requests.json)."""
    kind = {"cpf": "entity_person_search", "name": "entity_person_name_search"}.get(
        search_type, "entity_company_search"
    )
    return f"{kind}_on_demand" if on_demand else kind


def cost_of(search_type: str, with_attachments: bool) -> float:
    """D18: BRL."""
    if search_type in LAWSUIT_SEARCHES:
        return 2.0 if with_attachments else 0.5
    return 1.5
