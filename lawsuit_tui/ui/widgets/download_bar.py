"""One download under way: the file's name, a progress bar with the time left, the bytes.

Screens that save files (a lawsuit's attachments, a warrant's document, transfer files) put
one under their content and pass :meth:`DownloadBar.progress` as the download's progress callback.
Small files come and go too fast to watch: the bar shows itself only for a file of at least
``BIG_FILE`` bytes, or of unknown size, and hides when the file is saved (the screen says
where).
"""

from __future__ import annotations

import time
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, ProgressBar

from lawsuit_tui.domain.formatting import format_size
from lawsuit_tui.i18n import _

__all__ = ["BIG_FILE", "DownloadBar"]

BIG_FILE = 512 * 1024
_REDRAW_EVERY = 0.1  # seconds: a fast download calls back for every 64 KiB chunk


class DownloadBar(Horizontal):
    DEFAULT_CSS: ClassVar[str] = """
    DownloadBar {
        height: 1;
        display: none;
        padding: 0 1;
        background: $boost;
    }
    DownloadBar.-shown { display: block; }
    DownloadBar #download-name { width: 1fr; text-overflow: ellipsis; text-wrap: nowrap; }
    DownloadBar ProgressBar { width: auto; margin: 0 1; }
    DownloadBar #download-bytes { width: auto; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's name)
        super().__init__(id=id)
        self._name = ""
        self._last_draw = 0.0
        self.received = 0
        self.total: int | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="download-name")
        yield ProgressBar(total=None, show_eta=True, id="download-progress")
        yield Label("", id="download-bytes")

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

    def start(self, name: str) -> None:
        """A download of ``name`` begins (nothing shows until it proves big)."""
        self._name = name
        self.received, self.total = 0, None
        self._last_draw = 0.0
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.remove_class("-shown")

    def progress(self, received: int, total: int | None) -> None:
        """The download's progress callback: ``received`` bytes of ``total`` (None: unknown)."""
        self.received, self.total = received, total
        if not self.shown:
            if total is not None and total < BIG_FILE:
                return
            self.query_one("#download-name", Label).update(
                _("Downloading {name}").format(name=self._name)
            )
            self.add_class("-shown")
        now = time.monotonic()
        finished = total is not None and received >= total
        if not finished and now - self._last_draw < _REDRAW_EVERY:
            return
        self._last_draw = now
        self.query_one(ProgressBar).update(total=total, progress=received)
        done = format_size(received)
        text = done if total is None else f"{done} / {format_size(total)}"
        self.query_one("#download-bytes", Label).update(text)

    def finish(self) -> None:
        """The download ended (saved or failed): the bar goes away."""
        self.remove_class("-shown")
