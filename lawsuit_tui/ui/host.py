"""What a screen may ask of the app: :class:`ScreenHost`.

Screens, dialogs and feature widgets see the app through this Protocol (``self.host`` on a
:class:`~lawsuit_tui.ui.framed_screen.FramedScreen`, :func:`host_of` elsewhere), never through
``ui/app.py``: the app imports the screens, so a screen importing the app would close a
circle. ``LawsuitApp`` implements it; Textual's own ``App`` API (``push_screen``, ``notify``,
``theme``...) stays on ``self.app``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from collections.abc import Sequence

    from textual.app import App

    from lawsuit_tui.config import Settings
    from lawsuit_tui.domain.identifiers import SearchKey
    from lawsuit_tui.domain.inbox import Movement
    from lawsuit_tui.domain.lawsuit import Lawsuit
    from lawsuit_tui.services.context import ServiceContext

__all__ = ["ScreenHost", "host_of"]


class ScreenHost(Protocol):
    """The app as its screens use it."""

    @property
    def settings(self) -> Settings:
        """The validated settings (download_dir, default_customer_key, ...)."""
        ...

    @property
    def read_only(self) -> bool:
        """The cache is opened read-only for this session."""
        ...

    @property
    def services(self) -> ServiceContext | None:
        """The open service context, or None while it opens (or when it failed)."""
        ...

    async def context(self) -> ServiceContext:
        """The service context, waiting while it opens; ServicesUnavailable if it failed."""
        ...

    def report_error(self, error: BaseException, *, title: str | None = None) -> None:
        """The one way a failure reaches the user: a notice in the service's own words."""
        ...

    def announce(self, message: str, destination_id: str, **params: Any) -> None:
        """A notice that ``app.follow_notice`` (one key) follows to a destination."""
        ...

    def goto(self, destination_id: str, **params: Any) -> None:
        """Switch to a destination; ``params`` go to its screen's ``show_params``."""
        ...

    def open_lawsuit(
        self,
        code: str,
        instance: int | None = None,
        *,
        lawsuit: Lawsuit | None = None,
        new_steps: Sequence[str] | None = None,
    ) -> None:
        """Push the lawsuit tree (``lawsuit``: a validated one at hand, shown as it is;
        ``new_steps``: the step ids an inbox movement brought, marked new, the cursor on the
        newest of them)."""
        ...

    def open_movement(self, movement: Movement) -> None:
        """Open an inbox movement: the lawsuit tree at its new steps; the movement is marked
        read (D174)."""
        ...

    def open_request(self, request_id: str, response_id: str | None = None) -> None:
        """Push the responses of a request (``response_id``: that one selected)."""
        ...

    def open_request_form(self, key: SearchKey | None = None) -> None:
        """Push the new-request form, its search key filled in when given."""
        ...

    def open_vault(self, system_name: str | None, customer_key: str | None) -> None:
        """Go to the vault with this court system and customer key selected."""
        ...

    def open_vault_for(self, code: str, instance: int | None, customer_key: str | None) -> None:
        """Go to the vault with the court system of lawsuit ``code`` selected."""
        ...

    def open_dossier(self, document: str) -> None:
        """Push the dossier of a CPF or CNPJ (kept: shown offline; new: planned, asked)."""
        ...

    def open_transfer_files(self) -> None:
        """Push the company's transfer files (D123)."""
        ...

    def follow_request(self, request_id: str) -> None:
        """Follow a request until it ends; every screen gets its RequestFollowEvents."""
        ...

    def is_following(self, request_id: str) -> bool: ...

    def copy_text(self, text: str, what: str) -> None:
        """Copy through the terminal (OSC 52) and say so."""
        ...

    def inbox_changed(self) -> None:
        """The inbox changed (a mark, a poll): the status line's unread count follows and
        every screen gets ``InboxChanged``."""
        ...

    def binding_key(self, binding_id: str) -> str:
        """The key the user has for a binding id (after the keymap), for display."""
        ...

    def kept_sandbox_samples(self) -> dict[str, Any] | None:
        """The sample keys the embedded sandbox keeps on disk, read without opening the
        services (D185); None in live mode or when none are kept. Blocking, briefly (one
        small read of a file, a lock held by a writer waited for at most half a second)."""
        ...

    async def paid_call_allowed(self, what: str) -> bool:
        """May a paid (or lasting) call be made now? At once yes, unless the session is
        read-only (D147): then the user is asked, ``what`` naming the call. From a worker."""
        ...


def host_of(app: App[Any]) -> ScreenHost:
    """The app of a widget or a dialog, as a :class:`ScreenHost`."""
    return cast("ScreenHost", app)
