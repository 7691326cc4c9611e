"""Keys typed into a text field take effect in the order they were typed.

Textual hands a printable key straight to the focused ``Input`` or ``TextArea``, but a key
bound by the field itself (Backspace, Ctrl+U, Ctrl+W, arrows, Enter) first bubbles up to the
app, which then runs the field's action. In a burst (fast typing, a paste, a password manager,
a slow screen) the characters typed after the bound key are inserted before its action runs:
Escape, Ctrl+U and a CNJ typed at once left an empty box, the CNJ inserted and then wiped
(issue 19, item 16), and a recurrence retyped after Ctrl+U lost its digit. Upstream:
Textualize/textual#6605 (the fix proposed in #6631 is the same as this one).

:func:`keep_typed_order` runs the field's own bindings for a key inside the field's key
handler, where the app would run them a moment later: the action is the same, only no
character can overtake it. Priority bindings are untouched (they run before the key reaches
the field), and so are bindings of the screen or the app (the field does not own them).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from textual import events
from textual.widget import Widget
from textual.widgets import Input

__all__ = ["keep_typed_order"]

_KeyHandler = Callable[[Any, events.Key], Coroutine[Any, Any, None]]
_INSTALLED = "_lawsuit_tui_typed_order"


def keep_typed_order(*fields: type[Widget]) -> None:
    """Make every instance of ``fields`` (``Input`` when none is named) in this process run
    its own bound keys in the order they were typed; idempotent. The app calls it for
    ``Input`` as it starts; a module that uses ``TextArea`` calls it for that class when it
    imports it (importing TextArea for the app's first frame would cost its time)."""
    for field in fields or (Input,):
        if not getattr(field, _INSTALLED, False):
            field._on_key = _in_order(field._on_key)  # type: ignore[method-assign,assignment]
            setattr(field, _INSTALLED, True)


def _in_order(handle_key: _KeyHandler) -> _KeyHandler:
    async def on_key(field: Widget, event: events.Key) -> None:
        if not event.is_printable and await _run_own_binding(field, event):
            return
        await handle_key(field, event)

    return on_key


async def _run_own_binding(field: Widget, event: events.Key) -> bool:
    """Run the field's own (not priority) binding for ``event``, as the app would; whether
    one ran (an action the field refuses, ``check_action``, lets the key go on)."""
    for binding in field._bindings.key_to_bindings.get(event.key, ()):
        if binding.priority:
            continue
        if await field.app.run_action(binding.action, field):
            event.stop()
            event.prevent_default()
            return True
    return False
