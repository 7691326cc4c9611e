"""What a warrant or a penal execution means for the person, in one sentence a compliance
analyst reads at a glance: the same words on a screen and in an exported report.

Each function answers the sentence and whether it is an alarm (the person is wanted, or is
serving a sentence); the screens draw alarms in reverse video, a report in bold.
"""

from __future__ import annotations

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.enums import ExecutionPhase, WarrantStatus, WarrantType, enum_or_none
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.warrants import Warrant, execution_is_active, warrant_is_open
from lawsuit_tui.i18n import _

__all__ = ["execution_meaning_words", "warrant_meaning_words"]


def warrant_meaning_words(warrant: Warrant) -> tuple[str, bool]:
    """What this warrant means for the person; True when they are wanted."""
    recapture = warrant.recapture or enum_or_none(WarrantType, warrant.warrant_type) in (
        WarrantType.WARRANT_OF_ARREST_RECAPTURE,
        WarrantType.RECAPTURE,
    )
    status = enum_or_none(WarrantStatus, warrant.status)
    if warrant_is_open(warrant):
        if recapture:
            return (
                _(
                    "OPEN RECAPTURE WARRANT: the person escaped while serving a sentence and "
                    "is wanted."
                ),
                True,
            )
        return _("OPEN ARREST WARRANT: the person is wanted; the arrest has not been made."), True
    meanings = {
        WarrantStatus.SERVED: _("Served: the arrest was made; this warrant is no longer open."),
        WarrantStatus.SUSPENDED: _("Suspended by the court: it cannot be carried out for now."),
        WarrantStatus.REVOKED: _("Revoked: the court withdrew the order."),
        WarrantStatus.EXPIRED: _("Expired: its validity ended without the arrest being made."),
    }
    known = meanings.get(status) if status is not None else None
    if known is None:
        known = _("Status at the BNMP: {status}").format(status=warrant.status or "?")
    return known, False


def execution_meaning_words(execution: Lawsuit) -> tuple[str, bool]:
    """What this penal execution means; True while the sentence is being served."""
    phase = enum_or_none(ExecutionPhase, execution.phase)
    # The phase is said when it adds something to "being served".
    extra = (
        v.word(v.EXECUTION_PHASE_WORDS, execution.phase)
        if execution.phase and phase is not ExecutionPhase.SERVING
        else ""
    )
    if execution_is_active(execution):
        said = _("PENAL EXECUTION: a criminal conviction being served")
        return (f"{said} ({extra})." if extra else f"{said}."), True
    said = _("Penal execution closed: the sentence was served or extinguished")
    return (f"{said} ({extra})." if extra else f"{said}."), False
