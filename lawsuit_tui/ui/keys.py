"""Keys as people read them, and the messages that name them.

A message never writes a key by hand: it has a placeholder (``{key}``, ``{fresh}``...) filled
by :func:`named_keys` with the key the user really has. A binding id (it always holds a dot,
``lookup.fresh``) gives the key after the user's keymap (``host.binding_key``); a bare key name
(``enter``) is one of Textual's own keys that no keymap moves (Enter selecting a row, a node,
an option). ``tests/ui/test_keys_in_messages.py`` scans the catalogue for key names written
in a message.

Keys that have a name (Enter, Esc, Space, Del...) are shown in words, in the reader's language,
everywhere: the app's ``get_key_display`` asks :func:`key_word` first, so the Footer, the help
screen, the palette and the messages agree. Letters, F-keys and combinations keep Textual's
short forms (``r``, ``f10``, ``^p``), which fit a Footer at 80 columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from lawsuit_tui.i18n import N_, _

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import Binding

__all__ = ["KEY_WORDS", "class_binding", "key_word", "named_keys", "words_of_key"]

KEY_WORDS: Final[Mapping[str, str]] = {
    "enter": N_("Enter"),
    "escape": N_("Esc"),
    "space": N_("Space"),
    "tab": N_("Tab"),
    "backspace": N_("Backspace"),
    "delete": N_("Del"),
    "insert": N_("Ins"),
    "home": N_("Home"),
    "end": N_("End"),
    "pageup": N_("PgUp"),
    "pagedown": N_("PgDn"),
}
"""The named keys, as the reader's keyboard labels them (marked, translated at use)."""


def key_word(key: str) -> str | None:
    """``"space"`` -> "Space" ("Espaço"); None for a key without a name of its own (a letter,
    an F-key, a combination), which Textual's form shows best."""
    label = KEY_WORDS.get(key.strip())
    return _(label) if label is not None else None


def words_of_key(app: App[Any], key: str) -> str:
    """The first key of ``key`` ("escape,q") as the app shows it."""
    from textual.binding import Binding

    first = key.split(",")[0].strip()
    return app.get_key_display(Binding(first, ""))


def named_keys(app: App[Any], names: Mapping[str, str]) -> dict[str, str]:
    """Placeholder -> the key shown for it: a binding id (``"lookup.fresh"``) through the
    user's keymap, a bare key name (``"enter"``) as it is."""
    binding_key = getattr(app, "binding_key", None)
    shown: dict[str, str] = {}
    for placeholder, name in names.items():
        if "." in name and binding_key is not None:
            shown[placeholder] = binding_key(name)
        else:
            shown[placeholder] = words_of_key(app, name)
    return shown


def class_binding(binding_id: str) -> Binding | None:
    """The binding of this id as its class declares it (its default key), for a screen or
    widget that is not on show: a form naming its own keys while it is being composed."""
    from textual.binding import BindingsMap
    from textual.dom import DOMNode

    pending: list[type[DOMNode]] = [DOMNode]
    seen: set[type[DOMNode]] = set()
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        pending.extend(cls.__subclasses__())
        merged = cls.__dict__.get("_merged_bindings")
        if isinstance(merged, BindingsMap):
            for _key, binding in merged:
                if binding.id == binding_id:
                    return binding
    return None
