"""The form kit, for every form: errors leave when the field changes, a focused drop-down
looks focused, a typed burst (user, Tab, password) keeps its order (issue 19), and a modal
form gets its frame from ``FormDialog``."""

from __future__ import annotations

import asyncio

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Button, Input, Select, Static

from lawsuit_tui.ui.widgets.form import FieldBox, FormDialog, show_problems
from lawsuit_tui.ui.widgets.typed_order import keep_typed_order
from tests.support.key_burst import burst
from tests.support.waiting import wait_for


class BusyInput(Input):
    """A field on a busy screen: each key takes a moment to handle, so the app hands over
    the keys after it before it has handled the Tab (what a real terminal's burst does)."""

    async def _on_key(self, event: events.Key) -> None:
        await asyncio.sleep(0.01)
        await super()._on_key(event)


class Login(App[None]):
    def compose(self) -> ComposeResult:
        yield FieldBox("User", BusyInput(id="user"), field="user")
        yield FieldBox("Password", Input(id="password", password=True), field="password")
        yield FieldBox("Kind", Select([("Login", "login"), ("A1", "a1")], id="kind"), field="kind")


async def test_a_burst_with_tab_lands_each_part_in_its_field() -> None:
    app = Login()
    async with app.run_test() as pilot:
        app.query_one("#user", Input).focus()
        await pilot.pause()
        burst(app, [*"ana", "tab", *"s3cret"])
        await wait_for(lambda: len(app.query_one("#password", Input).value) == 6, pilot.pause)
        assert app.query_one("#user", Input).value == "ana"
        assert app.query_one("#password", Input).value == "s3cret"


async def test_an_error_goes_when_the_field_is_changed() -> None:
    app = Login()
    async with app.run_test() as pilot:
        show_problems(app.screen, {"user": "Type the user", "kind": "Choose A1"})
        await pilot.pause()
        user = app.query_one("#box-user", FieldBox)
        assert user.error == "Type the user" and user.has_class("-invalid")
        app.query_one("#user", Input).focus()
        await pilot.press("a")
        assert user.error == "" and not user.has_class("-invalid")
        kind = app.query_one("#box-kind", FieldBox)
        assert kind.error == "Choose A1"
        app.query_one("#kind", Select).value = "a1"
        await pilot.pause()
        assert kind.error == ""


async def test_a_focused_drop_down_looks_focused() -> None:
    app = Login()
    async with app.run_test() as pilot:
        select = app.query_one("#kind", Select)
        app.query_one("#user", Input).focus()
        await pilot.pause()
        current = select.query_one("SelectCurrent")
        unfocused = current.styles.background
        select.focus()
        await pilot.pause()
        assert current.styles.background != unfocused


class Recurrence(App[None]):
    def compose(self) -> ComposeResult:
        yield FieldBox("Key", Input("0083969", id="key"), field="key")
        yield FieldBox("Days", Input("1", id="days", type="integer"), field="days")


async def test_keys_bound_by_a_field_keep_their_place_in_a_burst() -> None:
    """Ctrl+U or Backspace then a digit, typed at once: the digit stays (Textual ran the
    field's own bindings after the characters typed behind them, so the digit was wiped)."""
    keep_typed_order()
    for keys, expected in (
        (["tab", "ctrl+u", "7"], "7"),
        (["tab", "backspace", "3", "0"], "30"),
        (["tab", "end", "backspace", "9", "enter"], "9"),
    ):
        app = Recurrence()
        async with app.run_test() as pilot:
            app.query_one("#key", Input).focus()
            await pilot.pause()
            burst(app, keys)
            for _ in range(len(keys) + 2):  # every key handled (each may post one more)
                await pilot.pause()
            assert app.query_one("#days", Input).value == expected, keys
            assert app.query_one("#key", Input).value == "0083969"


class NoteDialog(FormDialog[str | None]):
    """A form that writes only the hooks: FormDialog builds its frame."""

    def form_title(self) -> str:
        return "A [b]note[/b]"

    def compose_fields(self) -> ComposeResult:
        yield FieldBox("Note", Input(id="note"), field="note")

    def compose_buttons(self) -> ComposeResult:
        yield Button("Cancel", id="cancel", classes="form-cancel")
        yield Button("Send", id="send", classes="form-submit")

    def action_submit(self) -> None:
        self.dismiss(self.query_one("#note", Input).value)


async def test_a_form_dialog_builds_its_frame_from_the_hooks() -> None:
    answers: list[str | None] = []
    app = App[None]()
    async with app.run_test() as pilot:
        app.push_screen(NoteDialog(), answers.append)
        await pilot.pause()
        dialog = app.screen
        title = dialog.query_one("#form-frame > #form-title", Static)
        assert str(title.render()) == "A [b]note[/b]"  # plain text: no markup
        assert dialog.query_one("#form-frame > #form-body FieldBox", FieldBox).field == "note"
        buttons = [button.id for button in dialog.query("#form-frame > #form-buttons Button")]
        assert buttons == ["cancel", "send"]
        dialog.query_one("#note", Input).focus()
        await pilot.press("o", "k", "enter")
        await wait_for(lambda: answers == ["ok"])
