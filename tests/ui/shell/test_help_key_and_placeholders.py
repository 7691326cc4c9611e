"""`?` opens the help from the lookup field too; fields where "?" is text keep typing it.
Example placeholders follow the interface language."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from textual.widgets import Input

from lawsuit_tui import i18n
from lawsuit_tui.ui.dialogs.help import HelpScreen
from lawsuit_tui.ui.lookup.screen import IdentifierInput, LookupScreen
from lawsuit_tui.ui.requests.request_form import RequestFormScreen
from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen
from tests.support.ui_harness import Harness, open_trackings, ready, screen_on_top, settle, wait_for


async def test_question_mark_opens_the_help_from_the_lookup_field() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        assert isinstance(app.screen, LookupScreen)
        field = app.screen.query_one("#search", Input)
        assert isinstance(field, IdentifierInput) and app.focused is field
        await pilot.press(*"0001234")
        await pilot.press("question_mark")
        await wait_for(lambda: isinstance(app.screen, HelpScreen), pilot.pause)
        await pilot.press("question_mark")  # and closes it
        await wait_for(lambda: isinstance(app.screen, LookupScreen), pilot.pause)
        assert field.value == "0001234", "the ? was not typed"
        assert app.focused is field
        await pilot.press("5")
        assert field.value == "00012345"  # typing goes on as before


async def test_question_mark_is_text_in_the_other_fields() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        screen = await open_trackings(pilot)
        await pilot.press("slash")  # the filter: "?" is text there
        await wait_for(lambda: isinstance(app.focused, Input), pilot.pause)
        filter_field = app.focused
        await pilot.press("a", "question_mark")
        await pilot.pause()
        assert filter_field.value == "a?"
        assert app.screen is screen
        screen.table.focus()
        await pilot.press("question_mark")  # out of the field it is the help key
        await wait_for(lambda: isinstance(app.screen, HelpScreen), pilot.pause)


class _Catalogue(gettext.NullTranslations):
    """Answers only the placeholders under test, as a pt-BR catalogue would."""

    WORDS: ClassVar[dict[str, str]] = {
        "dd/mm/yyyy": "dd/mm/aaaa",
        "client=ACME, team=labour": "cliente=ACME, equipe=trabalhista",
    }

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)


@pytest.fixture
def fake_catalogue(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(i18n, "_translation", _Catalogue())
    yield


@pytest.mark.usefixtures("fake_catalogue")
async def test_example_placeholders_go_through_the_catalogue() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(100, 40)) as pilot:
        app: Any = pilot.app
        await ready(pilot)
        app.goto("requests")
        await pilot.pause(0.1)
        await settle(pilot)
        await pilot.press("n")
        form = await screen_on_top(pilot, RequestFormScreen)
        for field in ("distribution_from", "distribution_to", "last_step_from", "last_step_to"):
            assert form.query_one(f"#rf-{field}", Input).placeholder == "dd/mm/aaaa"

        await open_trackings(pilot)
        await pilot.press("n")
        tags = (await screen_on_top(pilot, TrackingFormScreen)).query_one("#tf-tags", Input)
        assert tags.placeholder == "cliente=ACME, equipe=trabalhista"
