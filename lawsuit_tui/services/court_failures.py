"""The courts a request could not reach (D92), read from its application errors.

A request whose court is down (``CRAWLER_ERROR``) or throttled collection
(``RATE_LIMIT_TRIBUNAL``) ends with the stored copies of that court's lawsuits unconfirmed:
the court never said it had nothing newer. The follow loop does not confirm them in the
cache, and the responses list says why they stay provisional.

Example::

    failures = CourtFailures()
    for response in responses:
        failures.note(response)
    failures.failure_for(lawsuit)  # CourtFailure(court="TJAP", code="CRAWLER_ERROR") or None
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lawsuit_tui.domain.courts import court_by_acronym, court_for

if TYPE_CHECKING:
    from lawsuit_tui.domain.lawsuit import Lawsuit
    from lawsuit_tui.domain.responses import ResponseRecord

__all__ = ["COURT_FAILURES", "CourtFailure", "CourtFailures", "court_of_code"]

# D92: the application errors that say a court could not be reached (it is down, or it
# throttled collection): the stored copy of a lawsuit of that court is not confirmed.
COURT_FAILURES = frozenset({"CRAWLER_ERROR", "RATE_LIMIT_TRIBUNAL"})


def court_of_code(code: str) -> str | None:
    """The acronym of the court a CNJ number belongs to (its J and TR digits), or None."""
    digits = "".join(ch for ch in code if ch.isdigit())
    if len(digits) != 20:
        return None
    court = court_for(int(digits[13]), int(digits[14:16]))
    return court.acronym if court is not None else None


@dataclass(frozen=True)
class CourtFailure:
    """A court a request could not reach: its acronym (None when the error named none) and
    the error's code (``CRAWLER_ERROR``: down; ``RATE_LIMIT_TRIBUNAL``: it throttled)."""

    court: str | None
    code: str


@dataclass
class CourtFailures:
    """The courts a request could not reach (D92), from its application errors.

    A failure names its court by ``tribunal_acronym``, by the lawsuit it is about
    (``lawsuit_cnj``) or by a court's acronym in its details; one naming none counts for
    every court."""

    courts: dict[str, CourtFailure] = field(default_factory=dict)
    """by acronym, upper case"""
    unnamed: CourtFailure | None = None

    def note(self, response: ResponseRecord) -> None:
        error = response.application_error
        code = str(error.code or "").upper() if error is not None else ""
        if error is None or code not in COURT_FAILURES:
            return
        extra = error.extra_fields
        named = {str(extra["tribunal_acronym"]).upper()} if extra.get("tribunal_acronym") else set()
        if not named and isinstance(extra.get("lawsuit_cnj"), str):
            by_code = court_of_code(str(extra["lawsuit_cnj"]))
            named = {by_code.upper()} if by_code else set()
        if not named:
            words = f"{error.details or ''} {error.message or ''}"
            for token in re.findall(r"[A-Z]{2,}[0-9]*(?:-[A-Z]{2})?", words):
                court = court_by_acronym(token)
                if court is not None:
                    named.add(court.acronym.upper())
        if not named and self.unnamed is None:
            self.unnamed = CourtFailure(None, code)
        for acronym in named:
            self.courts.setdefault(acronym, CourtFailure(acronym, code))

    def failure_for(self, lawsuit: Lawsuit) -> CourtFailure | None:
        """Why the request could not reach ``lawsuit``'s court, or None when it did."""
        acronym = str(lawsuit.tribunal_acronym or "") or court_of_code(lawsuit.code) or ""
        return self.courts.get(acronym.upper()) or self.unnamed

    def failure_for_code(self, code: str) -> CourtFailure | None:
        """``failure_for`` of the lawsuit with this CNJ number (its court from the number)."""
        return self.courts.get((court_of_code(code) or "").upper()) or self.unnamed

    def __bool__(self) -> bool:
        return bool(self.courts) or self.unnamed is not None
