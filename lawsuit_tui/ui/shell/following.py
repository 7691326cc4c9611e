"""Following requests for the whole app: the follow outlives the screen that started it.

Every screen gets the events (``RequestFollowEvent``) of every followed request; the status
line counts the requests being followed; the end is a notice (``app.announce``) unless the
screen on show watches that request itself (its ``followed_request``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from lawsuit_tui.i18n import ngettext
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.messages import RequestFollowEvent, post_to_every_screen

if TYPE_CHECKING:
    from textual.app import App

    from lawsuit_tui.domain.requests import RequestRecord

__all__ = ["RequestFollowing", "completion_text"]


def completion_text(record: RequestRecord) -> str:
    """What the notice of a request's end says."""
    count = record.responses_count or 0
    status = str(record.status or "")
    search = record.search.search_key if record.search and record.search.search_key else ""
    return ngettext(
        "Request {search} {status}: {n} response.",
        "Request {search} {status}: {n} responses.",
        count,
    ).format(search=search, status=status, n=count)


class RequestFollowing:
    """The requests the app follows, each in a worker of the app."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._following: set[str] = set()

    def follow(self, request_id: str) -> None:
        if request_id in self._following:
            return
        self._following.add(request_id)
        self._app.run_worker(
            self._follow(request_id), group=f"app.follow.{request_id}", exit_on_error=False
        )

    def __contains__(self, request_id: object) -> bool:
        return request_id in self._following

    async def _follow(self, request_id: str) -> None:
        from lawsuit_tui.services.results import Completed

        host = host_of(self._app)
        try:
            context = await host.context()
            async for event in context.requests.follow(request_id):
                post_to_every_screen(self._app, partial(RequestFollowEvent, request_id, event))
                if isinstance(event, Completed):
                    self._completed(request_id, event.record)
        finally:
            self._following.discard(request_id)

    def _completed(self, request_id: str, record: RequestRecord) -> None:
        if getattr(self._app.screen, "followed_request", None) == request_id:
            return  # the user is watching it end
        host_of(self._app).announce(completion_text(record), "requests", request_id=request_id)
