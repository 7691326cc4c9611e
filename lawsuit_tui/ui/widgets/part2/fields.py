"""Form plumbing: a labelled field with its own error line, and parsers of typed text.

Every parser raises ``ValueError`` with a message for the person who typed the text.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Label, Static

from lawsuit_tui.i18n import _

__all__ = [
    "FieldBox",
    "parse_int",
    "parse_int_list",
    "parse_tags",
    "split_list",
    "validation_by_field",
]


class FieldBox(Vertical):
    """A label, the input widget and an error line under it (hidden while empty)."""

    DEFAULT_CSS = """
    FieldBox {
        height: auto;
    }
    FieldBox > Input.-textual-compact, FieldBox > Select.-textual-compact > SelectCurrent {
        background: $boost;
    }
    FieldBox > Input.-textual-compact:focus {
        background: $primary 25%;
    }
    FieldBox > .field-label {
        color: $text-muted;
    }
    FieldBox > .field-error {
        color: $text-error;
        display: none;
    }
    FieldBox > .field-error.-shown {
        display: block;
    }
    FieldBox > .field-hint {
        color: $text-muted;
        display: none;
    }
    FieldBox > .field-hint.-shown {
        display: block;
    }
    """

    def __init__(
        self, label: str, widget: Widget, *, field: str, hint: str = "", compact: bool = True
    ) -> None:
        super().__init__(id=f"box-{field}")
        if compact and hasattr(widget, "compact"):
            # one line per widget: every form fits 80x24 (borders would triple its height)
            widget.compact = True
        self._label = label
        self._widget = widget
        self.field = field
        self._hint = hint

    def compose(self) -> ComposeResult:
        yield Label(self._label, classes="field-label")
        yield self._widget
        yield Static(self._hint, classes="field-hint" + (" -shown" if self._hint else ""))
        yield Static("", classes="field-error", markup=False)

    def set_error(self, message: str | None) -> None:
        error = self.query_one(".field-error", Static)
        error.update(message or "")
        error.set_class(bool(message), "-shown")
        self.set_class(bool(message), "-invalid")

    def set_hint(self, message: str | None) -> None:
        hint = self.query_one(".field-hint", Static)
        hint.update(message or "")
        hint.set_class(bool(message), "-shown")

    @property
    def error(self) -> str:
        error = self.query_one(".field-error", Static)
        return str(error.content) if error.has_class("-shown") else ""


def split_list(text: str, *, separators: str = ",;\n") -> list[str]:
    """Items of a list typed on one line, trimmed, blanks dropped."""
    pattern = "[" + re.escape(separators) + "]"
    return [item.strip() for item in re.split(pattern, text) if item.strip()]


def parse_int(text: str, *, what: str, low: int | None = None, high: int | None = None) -> int:
    value = text.strip()
    if not re.fullmatch(r"-?[0-9]+", value):
        raise ValueError(_("{what} must be a whole number").format(what=what))
    number = int(value)
    if low is not None and high is not None and not low <= number <= high:
        raise ValueError(
            _("{what} must be from {low} to {high}, not {value}").format(
                what=what, low=low, high=high, value=number
            )
        )
    return number


def parse_int_list(text: str, *, what: str) -> list[int]:
    """``826, 403 502`` -> [826, 403, 502]."""
    items = split_list(text, separators=",; ")
    bad = [item for item in items if not re.fullmatch(r"[0-9]+", item)]
    if bad:
        raise ValueError(
            _("{what}: not whole numbers: {items}").format(what=what, items=", ".join(bad))
        )
    return [int(item) for item in items]


def parse_tags(text: str) -> dict[str, Any]:
    """``client=ACME, team=labour`` -> {"client": "ACME", "team": "labour"}."""
    tags: dict[str, Any] = {}
    for item in split_list(text, separators=",;"):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(
                _("Write tags as key=value, separated by commas (not {item!r})").format(item=item)
            )
        tags[key.strip()] = value.strip()
    return tags


def validation_by_field(
    exc: ValidationError, fields: dict[str, str]
) -> tuple[dict[str, str], list[str]]:
    """Split a body's ValidationError into errors per form field and the rest.

    ``fields`` maps the body's top-level names (``recurrence``, ``search``) to form fields.
    """
    per_field: dict[str, str] = {}
    general: list[str] = []
    for error in exc.errors(include_url=False):
        ctx = error.get("ctx") or {}
        message = str(ctx.get("message", error["msg"]))
        loc = [str(part) for part in error["loc"]]
        target = next((fields[part] for part in loc if part in fields), None)
        if target is None:
            general.append(f"{'.'.join(loc)}: {message}" if loc else message)
        elif target in per_field:
            per_field[target] += "; " + message
        else:
            per_field[target] = message
    return per_field, general
