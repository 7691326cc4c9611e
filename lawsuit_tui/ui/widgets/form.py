"""The form kit: one field box, one way to check a form and show what is wrong, parsers.

Every form of the app (the request form, the tracking form, the credential form, the count
form) is built the same way:

- each field is a :class:`FieldBox` (a label, the input widget, a hint and an error line under
  it); its ``field`` names it, its id is ``box-<field>``;
- the form's own checks gather the problems by field (``{field: message}``) and the lines no
  field owns; the body's pydantic rules add theirs through :func:`validation_problems`, and a
  400/422 of the service its named fields through :func:`service_problems`;
- :func:`show_problems` puts each problem under its field and clears the others (and takes
  the user to the first one when asked); nothing is sent while there is a problem;
- modal forms subclass :class:`FormDialog`, whose frame is styled by ``form_dialog.tcss``.

There is one ``FieldBox``: Textual matches CSS type selectors by class name, so two classes of
that name would style each other. Its ``DEFAULT_CSS`` holds what every form shares; a form's
own spacing lives in its ``.tcss``.

Every parser raises ``ValueError`` with a message for the person who typed the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Static

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.keys import named_keys

if TYPE_CHECKING:
    from pydantic import ValidationError
    from textual.app import App

__all__ = [
    "FORM_DIALOG_CSS",
    "FieldBox",
    "FormDialog",
    "cancel_button",
    "parse_int",
    "parse_int_list",
    "parse_tags",
    "send_button",
    "service_problems",
    "show_general",
    "show_problems",
    "split_list",
    "validation_problems",
]

FORM_DIALOG_CSS = Path(__file__).with_name("form_dialog.tcss")
"""The frame of a modal form (``.form-dialog``): give it in the dialog's ``CSS_PATH``."""

ResultType = TypeVar("ResultType")


class FieldBox(Vertical):
    """A label, the input widget, then a hint and an error line under it (each hidden while
    empty); ``field`` names it in the form's problems, its id is ``box-<field>``.

    What every form gets from it: an error goes away as soon as the field is changed (the form
    checks again on sending, or as it types); a focused drop-down looks focused; and Tab moves
    on at once (a priority binding, handled in the order keys arrive), so a burst typed by a
    password manager (user, Tab, password) never lands the password in the user field.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: handled by the app as the key arrives, before the keys after it are
        # handed to the focused field. A plain binding waits in the field's queue behind the
        # characters typed before it, while those typed after it go to the same field.
        Binding(
            "tab", "app.focus_next", _("Next field"), id="form.next", show=False, priority=True
        ),
        Binding(
            "shift+tab",
            "app.focus_previous",
            _("Previous field"),
            id="form.previous",
            show=False,
            priority=True,
        ),
    ]

    DEFAULT_CSS = """
    FieldBox {
        height: auto;
    }
    FieldBox > Input.-textual-compact, FieldBox > Select.-textual-compact > SelectCurrent {
        background: $boost;
    }
    FieldBox > Input.-textual-compact:focus,
    FieldBox > Select.-textual-compact:focus > SelectCurrent,
    FieldBox > Select.-textual-compact:focus-within > SelectCurrent {
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
        self._value_at_error: object = None
        if isinstance(widget, Checkbox):
            # A choice takes the width of its words beside other fields ("Run at a fixed
            # time" was cut to a third of the row at 80 columns).
            self.add_class("-choice")

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
        self._value_at_error = self._value() if message else None

    def _value(self) -> object:
        return getattr(self._widget, "value", None)

    def _changed(self) -> None:
        # The user is correcting it: what was said of the old value no longer holds.
        if self.has_class("-invalid") and self._value() != self._value_at_error:
            self.set_error(None)

    def on_input_changed(self) -> None:
        self._changed()

    def on_select_changed(self) -> None:
        self._changed()

    def on_checkbox_changed(self) -> None:
        self._changed()

    def set_hint(self, message: str | None) -> None:
        hint = self.query_one(".field-hint", Static)
        hint.update(message or "")
        hint.set_class(bool(message), "-shown")

    @property
    def error(self) -> str:
        error = self.query_one(".field-error", Static)
        return str(error.content) if error.has_class("-shown") else ""


class FormDialog(ModalScreen[ResultType]):
    """A form in a modal frame (``#form-frame``: a title, a scrolling ``#form-body``, and
    ``#form-buttons``), styled by ``form_dialog.tcss``; a subclass with styles of its own lists
    that file first in its ``CSS_PATH`` (one without inherits it)."""

    CSS_PATH: ClassVar[list[str | PurePath]] = [FORM_DIALOG_CSS]

    def __init__(self) -> None:
        super().__init__(classes="form-dialog")

    def compose(self) -> ComposeResult:
        """The frame: the title, the fields in ``#form-body``, the buttons in
        ``#form-buttons``; a form writes :meth:`form_title`, :meth:`compose_fields` and
        :meth:`compose_buttons`, never their own ``compose``: every form has this one frame."""
        with Vertical(id="form-frame"):
            yield Static(self.form_title(), id="form-title", markup=False)
            with VerticalScroll(id="form-body"):
                yield from self.compose_fields()
            with Horizontal(id="form-buttons"):
                yield from self.compose_buttons()

    def form_title(self) -> str:
        """The line over the fields (plain text, no markup)."""
        raise NotImplementedError

    def compose_fields(self) -> ComposeResult:
        """The fields, each a :class:`FieldBox` (and any lines between them)."""
        raise NotImplementedError

    def compose_buttons(self) -> ComposeResult:
        """:func:`cancel_button`, then :func:`send_button`: every dialog's action on the right."""
        raise NotImplementedError

    def action_submit(self) -> None:
        """Check the form and send it; each form says how."""
        raise NotImplementedError

    def action_cancel(self) -> None:
        self.dismiss()

    # Enter in any field sends, as the Send button does (class ``form-submit``); the Cancel
    # button (class ``form-cancel``) closes without a result.
    @on(Input.Submitted)
    def _field_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, ".form-submit")
    def _submit_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, ".form-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()


def cancel_button(app: App[Any], binding_id: str, *, button_id: str) -> Button:
    """A form's Cancel button, naming the user's key for ``binding_id`` (in a
    :class:`FormDialog`, its class ``form-cancel`` closes the dialog)."""
    key = named_keys(app, {"key": binding_id})["key"]
    return Button(
        _("Cancel ({key})").format(key=key), id=button_id, classes="form-cancel", compact=True
    )


def send_button(
    app: App[Any], label: str, binding_id: str, *, button_id: str, variant: str = "primary"
) -> Button:
    """A form's send button: ``label`` holds ``{key}``, the user's key for ``binding_id`` (in
    a :class:`FormDialog`, its class ``form-submit`` sends the form)."""
    key = named_keys(app, {"key": binding_id})["key"]
    return Button(
        label.format(key=key),
        id=button_id,
        classes="form-submit",
        variant=variant,  # type: ignore[arg-type]
        compact=True,
    )


def show_problems(
    form: Widget, problems: Mapping[str, str], *, go_to_first: bool = False
) -> FieldBox | None:
    """Each problem under its field, the other fields cleared; the first box with a problem.

    ``go_to_first`` moves the focus to that field's widget and scrolls it into view, so a
    long form takes the user straight to what to correct.
    """
    first: FieldBox | None = None
    for box in form.query(FieldBox):
        box.set_error(problems.get(box.field))
        if first is None and box.field in problems:
            first = box
    if go_to_first and first is not None:
        target = next(
            (w for w in first.query("Input, Checkbox, Select") if w.focusable and w.display),
            None,
        )
        if target is not None:
            target.focus()
        first.scroll_visible(animate=False)
    return first


def show_general(target: Static, lines: list[str]) -> None:
    """The problems no field owns, in the form's general line (shown only when there are)."""
    target.update("\n".join(lines))
    target.set_class(bool(lines), "-shown")


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


def validation_problems(
    exc: ValidationError, fields: Mapping[str, str]
) -> tuple[dict[str, str], list[str]]:
    """Split a body's ValidationError into problems per form field and the rest.

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


def service_problems(
    error: BaseException, field_of: Callable[[str | None], str | None]
) -> tuple[dict[str, str], list[str]]:
    """The validation items of the service's 400/422 answer under the form fields they name
    (``field_of`` maps the item's dotted path to a form field, or None), and the lines no field
    owns: the other items, then the answer's other messages."""
    from lawsuit_tui.services.errors import ApiError

    per_field: dict[str, str] = {}
    general: list[str] = []
    if not isinstance(error, ApiError):
        return per_field, general
    for item in error.items:
        target = field_of(item.field)
        text = item.message or item.rule or ""
        if target is None:
            general.append(f"{item.field}: {text}" if item.field else text)
        elif target in per_field:
            per_field[target] += "; " + text
        else:
            per_field[target] = text
    general.extend(error.messages)
    return per_field, general
