"""The messages the app sends its screens.

Every screen may handle them (``on_services_ready`` is a method of the base screen instead,
called once): the app posts each to every screen of every mode, since a screen the user is
not looking at must still follow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from lawsuit_tui.services.context import ServiceContext
    from lawsuit_tui.services.results import FollowEvent
    from lawsuit_tui.services.webhooks import DeliverySummary

__all__ = [
    "CacheChanged",
    "InboxChanged",
    "LanguageChanged",
    "RequestFollowEvent",
    "ServicesReady",
    "every_screen",
    "post_to_every_screen",
]


class ServicesReady(Message):
    """Posted by the app when the service context is open."""

    def __init__(self, context: ServiceContext) -> None:
        super().__init__()
        self.context = context


class CacheChanged(Message):
    """New data is in the cache: a webhook delivery, or what another process stored.

    ``summary`` is the delivery (None when the writer process stored something unknown);
    ``request_id`` the request it belongs to, if any.
    """

    def __init__(self, summary: DeliverySummary | None = None) -> None:
        super().__init__()
        self.summary = summary
        self.request_id = summary.request_id if summary is not None else None


class InboxChanged(Message):
    """Movements were added to the inbox, or marked read or unread (by any screen, the poll,
    a webhook or another process writing the cache)."""


class RequestFollowEvent(Message):
    """An event of a request the app follows, sent to every screen (any may care)."""

    def __init__(self, request_id: str, event: FollowEvent) -> None:
        super().__init__()
        self.request_id = request_id
        self.event = event


class LanguageChanged(Message, bubble=False):
    """Posted to the app and to every screen after the interface language changed (each gets
    its own copy, once: it does not bubble)."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language


def every_screen(app: App[Any]) -> list[Screen[Any]]:
    """Every screen of every mode, the ones not on show too (each mode keeps its own stack;
    Textual has no public accessor for the stacks of the other modes)."""
    screens: list[Screen[Any]] = []
    for stack in app._screen_stacks.values():
        screens.extend(screen for screen in stack if screen not in screens)
    for screen in app.screen_stack:
        if screen not in screens:
            screens.append(screen)
    return screens


def post_to_every_screen(app: App[Any], make: Callable[[], Message]) -> None:
    """Post a message of its own (``make()``) to every screen."""
    for screen in every_screen(app):
        screen.post_message(make())
