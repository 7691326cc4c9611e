"""The frame around every screen: the top bar and the status line.

Both read the app's state from two attributes of the app (:class:`ShowsStatus`):
``sandbox_mode`` and ``status_snapshot``, a reactive they watch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
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
    read_only: bool = False
    """The session was opened read-only (D147): nothing kept, paid calls asked first."""
    cache_held_by: int | None = None
    """The pid of the process that holds the cache and keeps this app's writes."""
    damage: str = ""
    """Damaged cache files waiting to be acknowledged, in a few words ("" when none)."""
    rate_wait_until: datetime | None = None
    """When the wait for the rate limit under way ends (None: no wait)."""
    rate_wait_reason: str = ""
    """"window" (the calls of the window are spent) or "retry_after" (the service said 429)."""
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
        # A wait for the rate limit counts down on screen, a second at a time.
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        snapshot = _shown(self.app).status_snapshot
        if snapshot.rate_wait_until is not None:
            self._show(snapshot)

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


def render_status(
    snapshot: StatusSnapshot, width: int | None = None, *, now: datetime | None = None
) -> Text:
    """The status line; when the wide form does not fit ``width``, closer separators, then
    the usual states left out (no request followed, a writable cache). A wait for the rate
    limit is counted from ``now`` (the present when None)."""
    text = _render_status(snapshot, "  ·  ", now=now)
    if width is not None and text.cell_len > width:
        text = _render_status(snapshot, " · ", now=now)
    if width is not None and text.cell_len > width:
        text = _render_status(snapshot, " · ", brief=True, now=now)
    return text


def _seconds_left(until: datetime | None, now: datetime | None) -> int:
    if until is None:
        return 0
    current = now or datetime.now(until.tzinfo)
    return max(0, math.ceil((until - current).total_seconds()))


def _render_status(
    snapshot: StatusSnapshot, separator: str, *, brief: bool = False, now: datetime | None
) -> Text:
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
    waiting = _seconds_left(snapshot.rate_wait_until, now)
    if waiting:
        if snapshot.rate_wait_reason == "retry_after":
            text.append(_("service asked to wait {n} s").format(n=waiting), "bold")
        else:
            text.append(_("rate limit: waiting {n} s").format(n=waiting), "bold")
    elif snapshot.rate_remaining is not None and snapshot.rate_limit is not None:
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
    if snapshot.read_only:
        text.append(*sep)
        text.append(
            _("read-only") if brief else _("read-only: nothing kept, paid calls asked"), "bold"
        )
    if snapshot.damage:
        # Never left out: damage stays on screen until acknowledged (cache verify).
        text.append(*sep)
        text.append(snapshot.damage, "bold reverse")
    if snapshot.cache_writable and snapshot.cache_held_by is not None:
        if not (brief and snapshot.damage):  # short of room, the damage says more
            text.append(*sep)
            text.append(_("cache via pid {pid}").format(pid=snapshot.cache_held_by))
    elif snapshot.cache_writable:
        if not brief:
            text.append(*sep)
            text.append(_("cache writable"))
    else:
        text.append(*sep)
        text.append(_("cache read-only"), "bold")
        if snapshot.cache_message:
            text.append(f" ({snapshot.cache_message})")
    return text
