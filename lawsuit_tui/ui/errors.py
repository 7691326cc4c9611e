"""Failures in plain words: the one place the UI turns an exception into text.

``describe_error`` turns any exception into what a notice shows (the service's own message
for a service error, never a traceback); ``app.report_error`` is the one way such a notice is
raised, and every worker of a screen that fails reaches it. ``explain_application_error``
says what an ``application_error`` response means and what to do about it. The predicates
(``is_not_available``, ``is_conflict``) and ``service_messages`` recognise the service's
errors by their types, imported from ``services.errors`` when a failure happens (never before
the first frame).
"""

from __future__ import annotations

from dataclasses import dataclass

from lawsuit_tui.i18n import N_, _


@dataclass(frozen=True, slots=True)
class Explanation:
    code: str
    meaning: str
    action: str
    needs_credential: bool = False
    """True when going to the vault (a credential for the court system) is the fix."""


_EXPLANATIONS: dict[str, tuple[str, str, bool]] = {
    "LAWSUIT_NOT_FOUND": (
        N_("The court has no lawsuit with this number."),
        N_(
            "Check the CNJ number (digits, year, court). A lawsuit distributed in the last few "
            "days may not be public yet: try again later."
        ),
        False,
    ),
    "SECRECY_RESTRICTED": (
        N_("The lawsuit is under secrecy (segredo de justiça) and no credential can open it."),
        N_(
            "Register an active login for this court system in the vault, under the customer "
            "key of the request, then ask for fresh data again."
        ),
        True,
    ),
    "INVALID_CREDENTIAL": (
        N_("The court rejected the login stored in the vault for this system."),
        N_(
            "Update the username and password of this court system in the vault (it is now "
            "inactive), then ask for fresh data again."
        ),
        True,
    ),
    "CRAWLER_ERROR": (
        N_("The court's system was down or failed while the data was being collected."),
        N_("Nothing is wrong with the request: ask for fresh data again in a while."),
        False,
    ),
    "RATE_LIMIT_TRIBUNAL": (
        N_("The court is limiting how often its data can be collected."),
        N_("Wait some minutes before asking the same court again."),
        False,
    ),
    "HOMONYM_AMBIGUOUS": (
        N_("The name matches several people, so the service cannot tell which one you mean."),
        N_("Search by CPF or CNPJ instead of the name."),
        False,
    ),
    "ENTITY_NOT_FOUND": (
        N_("No lawsuit and no person or company were found for this document."),
        N_("Check the CPF, CNPJ or OAB; if it is right, there is simply nothing on record."),
        False,
    ),
}


def explain_application_error(code: str | int | None) -> Explanation:
    """What an application-error code means and what to do; a generic text for others."""
    text = "" if code is None else str(code)
    found = _EXPLANATIONS.get(text.upper())
    if found is None:
        return Explanation(
            text,
            _("The service could not answer this search."),
            _("Read the details below; asking for fresh data again may help."),
        )
    meaning, action, credential = found
    return Explanation(text.upper(), _(meaning), _(action), credential)


def credential_problem(error: BaseException) -> Explanation | None:
    """The explanation when a failed call means a court credential is missing or invalid."""
    from lawsuit_tui.services.errors import ApiError

    if not isinstance(error, ApiError):
        return None
    for code in (error.code, error.name, error.message):
        if code is not None and str(code).upper() in ("SECRECY_RESTRICTED", "INVALID_CREDENTIAL"):
            return explain_application_error(str(code))
    return None


def describe_error(error: BaseException) -> str:
    """One line for a notice: what failed, in the service's own words when it gave some."""
    from lawsuit_tui.services.errors import ApiError

    if isinstance(error, ApiError):
        code = error.code if error.code is not None else error.name
        if code is not None and str(code).upper() in _EXPLANATIONS:
            explanation = explain_application_error(code)
            return f"{error.summary}\n{explanation.meaning} {explanation.action}"
        return error.summary
    if isinstance(error, PermissionError | FileNotFoundError | IsADirectoryError):
        return _("{path}: {problem}").format(
            path=error.filename or "", problem=error.strerror or error
        )
    if isinstance(error, OSError):
        return str(error.strerror or error)
    text = str(error).strip()
    return text or type(error).__name__


def is_not_available(error: BaseException) -> bool:
    """The service lacks this (optional) operation: a 404/405 that names no resource."""
    from lawsuit_tui.services.errors import OperationNotAvailable

    return isinstance(error, OperationNotAvailable)


def is_conflict(error: BaseException) -> bool:
    """The service refused because the thing exists already (409)."""
    from lawsuit_tui.services.errors import Conflict

    return isinstance(error, Conflict)


def service_messages(error: BaseException) -> list[str]:
    """Every message of a count-style ``{errors: [...]}`` answer (else the one line)."""
    from lawsuit_tui.services.errors import ApiError

    if isinstance(error, ApiError):
        if error.messages:
            return list(error.messages)
        if error.items:
            lines = []
            for item in error.items:
                text = item.message or item.rule or ""
                lines.append(f"{item.field}: {text}" if item.field else text)
            return lines
    return [describe_error(error)]


def http_status(error: BaseException) -> int | None:
    """The HTTP status of the service's answer, None when there was none."""
    from lawsuit_tui.services.errors import ApiError

    return error.status if isinstance(error, ApiError) else None
