"""Keys as a terminal hands them over in one read (a fast typist, a paste, a password
manager): all queued before the app handles any."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import events

__all__ = ["burst"]


def burst(app: Any, keys: Sequence[str]) -> None:
    """Queue ``keys`` (Textual key names; one character types itself) on ``app`` at once."""
    for key in keys:
        character = key if len(key) == 1 else ("\t" if key == "tab" else None)
        app.post_message(events.Key(key, character))
