"""The responses of one request as a list: what replaced what, and what each one brought.

The rules of reading them, for the TUI's list of a request's responses:

- a definitive response replaces the provisional one about the same lawsuit
  (:func:`lawsuit_tui.services.requests.replacement_key`, the same rule the follow loop uses);
- once the request is over, a provisional copy nobody replaced is the current one (the court
  had nothing newer), unless the request could not reach that lawsuit's court (D92: a
  ``CRAWLER_ERROR`` or ``RATE_LIMIT_TRIBUNAL`` naming the court, or naming none): then the
  copy stays provisional and says why
  (:class:`~lawsuit_tui.services.court_failures.CourtFailures`);
- a response read back from the cache recalls what the cache's stored version of its lawsuit
  says about it (:func:`recall`): whether the court's answer later replaced or confirmed the
  copy, and which steps and attachments the definitive answer brought.

:class:`ResponseLedger` keeps that bookkeeping for one request while its list is shown; the
rows it hands out are what the screen draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol, TypeAlias

from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.services.court_failures import CourtFailure, CourtFailures
from lawsuit_tui.services.requests import replacement_key

if TYPE_CHECKING:
    from lawsuit_tui.domain.responses import ResponseRecord
    from lawsuit_tui.store import LawsuitState

__all__ = [
    "Change",
    "LawsuitStates",
    "RecalledChange",
    "ResponseLedger",
    "ResponseRow",
    "confirm_unreplaced",
    "order_key",
    "recall",
    "subject_code",
    "vault_system",
]

LawsuitStates: TypeAlias = Mapping[tuple[str, int | None], "LawsuitState"]
"""The cache's state of each lawsuit of a page of responses, by (code, instance)."""


class Change(Protocol):
    """What a stored version brought (the store's LawsuitChange has these fields)."""

    new_step_ids: list[str]
    new_attachment_ids: list[str]
    new_party_names: list[str]
    replaced_provisional: bool
    first_version: bool
    ignored: bool


@dataclass
class RecalledChange:
    """A Change rebuilt from the cache for a response that arrived before the list was read."""

    new_step_ids: list[str] = field(default_factory=list)
    new_attachment_ids: list[str] = field(default_factory=list)
    new_party_names: list[str] = field(default_factory=list)
    replaced_provisional: bool = False
    first_version: bool = False
    ignored: bool = False


@dataclass
class ResponseRow:
    """One response of the request and what is known about it."""

    number: int
    response: ResponseRecord
    replaced_by: str | None = None
    change: Change | None = None
    confirmed: bool = False
    """A provisional response the request ended without replacing: the stored copy is current."""
    summarises: str | None = None
    """An AI summary (D80): the CNJ number of the lawsuit response it summarises, when known."""
    unreachable: CourtFailure | None = None
    """A provisional response the request ended without replacing because it could not reach
    the lawsuit's court (D92): which court and why; the copy may be out of date."""

    @property
    def key(self) -> str:
        return self.response.response_id or f"#{self.number}"

    @property
    def provisional(self) -> bool:
        return self.response.is_cached


def order_key(response: ResponseRecord) -> tuple[str, str]:
    """Where a response falls in the cache's order of a request's responses."""
    created = response.created_at
    if isinstance(created, datetime):
        stamp = created.astimezone(UTC).isoformat() if created.tzinfo else created.isoformat()
    else:
        stamp = str(created or "")
    return (stamp, response.response_id or "")


def recall(row: ResponseRow, state: LawsuitState, request_id: str) -> None:
    """What the stored version of a row's lawsuit says about a row read from the cache."""
    if row.provisional:
        if not state.provisional:
            # The court answered: within this request (it confirmed the copy) or later.
            if state.source == request_id:
                row.confirmed = True
            else:
                row.replaced_by = state.source or "?"
        return
    if state.provisional or state.source != row.key:
        return
    changes = state.changes
    row.change = RecalledChange(
        new_step_ids=sorted(changes.new_step_ids) if changes else [],
        new_attachment_ids=sorted(changes.new_attachment_ids) if changes else [],
        replaced_provisional=bool(changes and changes.replaced_provisional),
    )


def confirm_unreplaced(
    rows: Iterable[ResponseRow], failures: CourtFailures | None = None
) -> list[ResponseRow]:
    """The request is over: each provisional copy nobody replaced is current, unless its
    court could not be reached (D92: it is marked ``unreachable`` instead). The rows that
    changed."""
    changed: list[ResponseRow] = []
    for row in rows:
        if row.provisional and not row.replaced_by and not (row.confirmed or row.unreachable):
            lawsuit = row.response.lawsuit
            failed = failures.failure_for(lawsuit) if failures and lawsuit else None
            if failed:
                row.unreachable = failed
            else:
                row.confirmed = True
            changed.append(row)
    return changed


def subject_code(response: ResponseRecord) -> str | None:
    """The CNJ number an error response is about, when its data names one."""
    error = response.application_error
    details = error.details if error is not None else None
    if isinstance(details, dict) and isinstance(details.get("code"), str):
        return str(details["code"])
    return None


def vault_system(response: ResponseRecord) -> str | None:
    """The court system named by a credential error, when its details say it."""
    error = response.application_error
    if error is None:
        return None
    details = error.details
    if isinstance(details, dict):
        for name in ("system_name", "system"):
            if isinstance(details.get(name), str):
                return str(details[name])
    tags = response.tags or {}
    system = tags.get("system_name")
    return system if isinstance(system, str) else None


class ResponseLedger:
    """The rows of one request's responses, as pages are read from the cache and as new
    responses arrive: each response is one row, and each definitive row marks the provisional
    row it replaces."""

    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self._by_id: dict[str, ResponseRow] = {}
        self._provisional_of: dict[tuple[str, str, int | None], ResponseRow] = {}
        self._stored_mark: tuple[str, str] | None = None
        self.failures = CourtFailures()

    def restart(self, last_stored: ResponseRecord | None) -> None:
        """The list is read again from the cache, whose last response is ``last_stored``.

        Responses up to that one are in the list already (on a page maybe not read yet): a
        follow that reports them again must not add them twice.
        """
        self._stored_mark = order_key(last_stored) if last_stored is not None else None
        self._by_id = {}
        self._provisional_of = {}
        self.failures = CourtFailures()

    def note_failures(self, errors: Iterable[ResponseRecord]) -> None:
        """The request's application errors read apart (those on pages not read yet too)."""
        for response in errors:
            self.failures.note(response)

    def page_rows(
        self,
        page: Sequence[ResponseRecord],
        states: LawsuitStates,
        offset: int,
        *,
        completed: bool,
    ) -> list[ResponseRow]:
        """The rows of a page read from the cache (responses ``offset + 1`` on), each with
        what the stored version of its lawsuit says; a row already handed out is reused."""
        rows: list[ResponseRow] = []
        for number, response in enumerate(page, start=offset + 1):
            known = self._by_id.get(response.response_id or "")
            row = known if known is not None else ResponseRow(number, response)
            data = response.response_data
            state = states.get((data.code, data.instance)) if isinstance(data, Lawsuit) else None
            if known is None and state is not None:
                recall(row, state, self.request_id)
            rows.append(row)
            if known is None:
                self._place(row)
        if completed:
            confirm_unreplaced(rows, self.failures)
        return rows

    def admit(
        self, response: ResponseRecord, number: int, change: Change | None = None
    ) -> ResponseRow | None:
        """The row of a response that arrived, numbered ``number``; None when the list has it
        already (read from the cache, or reported before)."""
        if response.response_id and response.response_id in self._by_id:
            return None
        if self._stored_mark is not None and order_key(response) <= self._stored_mark:
            return None
        row = ResponseRow(number, response, change=change)
        self._place(row)
        return row

    def replaced(self, response_id: str | None, by: str) -> None:
        """The follow says which provisional response the one keyed ``by`` replaces."""
        known = self._by_id.get(response_id or "")
        if known is not None and known.provisional and not known.replaced_by:
            known.replaced_by = by

    def _place(self, row: ResponseRow) -> None:
        if row.response.response_id:
            self._by_id[row.response.response_id] = row
        self.failures.note(row.response)
        summary = row.response.ai_summary
        if summary is not None and summary.origin_id in self._by_id:
            origin = self._by_id[summary.origin_id].response.lawsuit
            row.summarises = origin.code if origin is not None else None
        subject = replacement_key(row.response)
        if subject is None:
            return
        if row.provisional:
            self._provisional_of[subject] = row
        elif subject in self._provisional_of:
            old = self._provisional_of.pop(subject)
            old.replaced_by = row.key
