"""Operations on one tracking, shared by the list and the detail: pause, resume, delete."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lawsuit_tui.domain.trackings import TrackingRecord
from lawsuit_tui.i18n import N_, _
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.errors import is_not_available
from lawsuit_tui.ui.trackings.tracking_text import search_label

if TYPE_CHECKING:
    from lawsuit_tui.ui.framed_screen import FramedScreen

__all__ = ["ask_to_delete", "run_operation"]

_OPERATION_DONE = {
    "pause": N_("Tracking paused: {search}"),
    "resume": N_("Tracking resumed: {search}"),
    "delete": N_("Tracking deleted: {search}"),
}
_OPERATION_NAME = {
    "pause": N_("Pausing"),
    "resume": N_("Resuming"),
    "delete": N_("Deleting"),
}


async def run_operation(
    screen: FramedScreen, operation: str, record: TrackingRecord
) -> TrackingRecord | None:
    """Pause, resume or delete ``record``; the new record, or None after telling the user.

    404/405 on these routes (not shown in the spec) means the service lacks the operation:
    say so and keep going.
    """
    context = await screen.services()
    method = getattr(context.trackings, operation)
    try:
        result: object = await method(record.tracking_id)
    except Exception as exc:
        if is_not_available(exc):
            screen.notify(
                _("{operation} a tracking is not available on this service.").format(
                    operation=_(_OPERATION_NAME[operation])
                ),
                severity="warning",
            )
            return None
        screen.host.report_error(exc, title=_("Tracking not changed"))
        return None
    updated = result if isinstance(result, TrackingRecord) else record
    screen.notify(_(_OPERATION_DONE[operation]).format(search=search_label(updated)), timeout=4)
    return updated


def ask_to_delete(
    screen: FramedScreen, record: TrackingRecord, answered: Callable[[bool | None], None]
) -> None:
    """The question before deleting a tracking (destructive: "No" has the focus)."""
    screen.app.push_screen(
        ConfirmScreen(
            _("Delete tracking"),
            _(
                "Stop monitoring {search} and delete the tracking? Its movements stay "
                "readable; this cannot be undone."
            ).format(search=search_label(record)),
            yes=_("Delete"),
            destructive=True,
        ),
        answered,
    )
