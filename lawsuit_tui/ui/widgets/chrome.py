"""The frame around every screen: the top bar and the status line.

Both read the app's state from two attributes of the app (:class:`ShowsStatus`):
``sandbox_mode`` and ``status_snapshot``, a reactive they watch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, cast

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from lawsuit_tui.domain.formatting import format_int
from lawsuit_tui.i18n import _, ngettext

__all__ = ["ShowsStatus", "StatusLine", "StatusSnapshot", "TopBar", "render_status"]


@dataclass(frozen=True, slots=True)
class StatusSnapshot:
    """What the status line shows; immutable so that a reactive compares it by value."""

    phase: str = "starting"
    """"starting", "ready" or "failed"."""
    mode: str = ""
    rate_remaining: int | None = None
    rate_limit: int | None = None
    following: int = 0
    cache_writable: bool = True
    cache_message: str = ""
    problem: str = ""
    receiver: str = ""
    """Where the embedded webhook receiver listens (``host:port``), "" when it does not."""
    deliveries: int = 0
    """Deliveries the embedded receiver stored this session."""
    unread: int | None = None
    """Movements of the inbox not read yet (None: not known yet)."""


class ShowsStatus(Protocol):
    """What the frame reads of the app."""

    @property
    def sandbox_mode(self) -> bool: ...

    @property
    def status_snapshot(self) -> StatusSnapshot: ...


def _shown(app: App[Any]) -> ShowsStatus:
    return cast("ShowsStatus", app)


class TopBar(Horizontal):
    """App name, where the user is, and the sandbox badge."""

    DEFAULT_CSS = """
    TopBar {
        height: 1;
        dock: top;
        background: $panel;
        color: $foreground;
    }
    TopBar > #where { width: 1fr; padding: 0 1; text-style: bold; }
    TopBar > #badge { width: auto; padding: 0 1; display: none; }
    TopBar.-sandbox > #badge {
        display: block;
        background: $warning;
        color: auto 90%;
        text-style: bold;
    }
    """

    def __init__(self, title: str) -> None:
        super().__init__()
        self._title = title

    def compose(self) -> ComposeResult:
        yield Static(f"lawsuit-tui › {self._title}", id="where")
        yield Static(_("SANDBOX"), id="badge")

    def on_mount(self) -> None:
        self.set_class(_shown(self.app).sandbox_mode, "-sandbox")
        self.watch(self.app, "status_snapshot", self._status, init=False)

    def _status(self, snapshot: StatusSnapshot) -> None:
        app = _shown(self.app)
        self.set_class(app.sandbox_mode, "-sandbox")

    def set_title(self, title: str) -> None:
        self._title = title
        self.query_one("#where", Static).update(f"lawsuit-tui › {title}")
        self.query_one("#badge", Static).update(_("SANDBOX"))


class StatusLine(Static):
    """Live or sandbox, rate-limit allowance, requests being followed, cache state."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        background: $panel;
        color: $text-muted;
        padding: 0 1;
    }
    """

    def on_mount(self) -> None:
        self.watch(self.app, "status_snapshot", self._show, init=True)

    def _show(self, snapshot: StatusSnapshot) -> None:
        self.update(render_status(snapshot, self._room()))

    def _room(self) -> int | None:
        width = self.content_size.width or self.app.size.width - 2
        return width if width > 0 else None

    def on_resize(self) -> None:
        app = _shown(self.app)
        self._show(app.status_snapshot)

    def refresh_status(self) -> None:
        app = _shown(self.app)
        self._show(app.status_snapshot)


def render_status(snapshot: StatusSnapshot, width: int | None = None) -> Text:
    """The status line; when the wide form does not fit ``width``, closer separators, then
    the usual states left out (no request followed, a writable cache)."""
    text = _render_status(snapshot, "  ·  ")
    if width is not None and text.cell_len > width:
        text = _render_status(snapshot, " · ")
    if width is not None and text.cell_len > width:
        text = _render_status(snapshot, " · ", brief=True)
    return text


def _render_status(snapshot: StatusSnapshot, separator: str, *, brief: bool = False) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    sep = (separator, "dim")
    if snapshot.phase == "starting":
        text.append(_("Starting the service and the cache…"))
        return text
    if snapshot.phase == "failed":
        text.append(_("Service unavailable: "), "bold")
        text.append(snapshot.problem.splitlines()[0] if snapshot.problem else "")
        return text
    if snapshot.mode == "sandbox":
        text.append(_("sandbox"), "bold")
    else:
        text.append(_("live"), "bold")
    text.append(*sep)
    if snapshot.rate_remaining is not None and snapshot.rate_limit is not None:
        text.append(
            _("rate {left}/{limit}").format(
                left=format_int(snapshot.rate_remaining), limit=format_int(snapshot.rate_limit)
            )
        )
    else:
        text.append(_("rate –"))
    if snapshot.unread:
        text.append(*sep)
        text.append(
            ngettext("{n} unread", "{n} unread", snapshot.unread).format(
                n=format_int(snapshot.unread)
            ),
            "bold",
        )
    if not (brief and not snapshot.following):
        text.append(*sep)
        text.append(
            ngettext("following {n} request", "following {n} requests", snapshot.following).format(
                n=snapshot.following
            )
        )
    if snapshot.receiver:
        text.append(*sep)
        text.append(
            _("webhooks on :{port}").format(port=snapshot.receiver.rsplit(":", 1)[-1]), "bold"
        )
        if snapshot.deliveries:
            text.append(f" ({format_int(snapshot.deliveries)})")
    if snapshot.cache_writable:
        if not brief:
            text.append(*sep)
            text.append(_("cache writable"))
    else:
        text.append(*sep)
        text.append(_("cache read-only"), "bold")
        if snapshot.cache_message:
            text.append(f" ({snapshot.cache_message})")
    return text
