"""The portfolio (F4): an import from the app (preview, cost, progress), marks and bulk
changes, a language switch mid-session, and the detail's errors, focus and times (issue
19)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input, Select, Static

from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.dialogs.tier_picker import TierPickerScreen
from lawsuit_tui.ui.language import switch_language
from lawsuit_tui.ui.trackings.keys_file_prompt import KeysFilePrompt
from lawsuit_tui.ui.trackings.portfolio_import import PortfolioImportScreen
from lawsuit_tui.ui.trackings.portfolio_screen import PortfolioScreen
from lawsuit_tui.ui.trackings.tracked_items import TrackedItemsScreen
from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen
from lawsuit_tui.ui.trackings.work_progress import WorkProgressScreen
from tests.support.ui_harness import (
    ContextClockHarness,
    open_trackings,
    samples,
    screen_on_top,
    services_open,
    settle,
    track,
    wait_for,
)

DAY = 86_400.0


def portfolio_file(directory: Path) -> Path:
    """Six rows as an analyst's spreadsheet has them: one invalid, one repeated."""
    sample = samples()
    lines = ["Processo;Nível;Etiquetas"]
    lines += [f"{key};quente;vip" for key in sample["lawsuit_cnj"][:2]]
    lines += [f"{key};frio;" for key in sample["cpf"][:2]]
    lines.append(f"{sample['cpf'][0]};;")
    lines.append("123.456.789-00;;")
    path = directory / "carteira.csv"
    path.write_bytes("\r\n".join(lines).encode("cp1252"))
    return path


async def test_import_from_the_app_previews_costs_and_creates(tmp_path: Path) -> None:
    sandbox = ContextClockHarness()
    path = portfolio_file(tmp_path)
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        screen = await open_trackings(pilot)
        await pilot.press("i")
        importer = await screen_on_top(pilot, PortfolioImportScreen)
        # the sandbox starts at the demo portfolio; this test names its own file
        assert importer.query_one("#imp-path", Input).value.endswith("carteira-demo.csv")
        importer.query_one("#imp-path", Input).value = str(path)
        await pilot.press("f10")
        await wait_for(lambda: importer.ready_to_create, pilot.pause)
        summary = str(importer.query_one("#imp-summary", Static).content)
        assert "6 rows · 4 valid · 1 invalid · 1 repeated" in summary
        assert "to create: 4" in summary and "+62 runs a month" in summary
        problems = importer.query_one("#imp-problems", DataTable)
        assert [problems.get_row_at(n)[0] for n in range(problems.row_count)] == ["6", "7"]
        hint = str(importer.query_one("#imp-hint", Static).content)
        assert "create 4 trackings" in hint

        await pilot.press("f10")  # create: asked first
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        question = str(app.screen.query_one(".dialog-text", Static).content)
        assert "Create 4 trackings" in question and "62" in question
        await pilot.press("y")
        await wait_for(lambda: importer.outcome is not None, pilot.pause)
        assert importer.outcome is not None and len(importer.outcome.created) == 4
        assert "Created 4" in str(importer.query_one("#imp-summary", Static).content)

        await pilot.press("escape")
        await wait_for(lambda: app.screen is screen and len(screen.entries) == 4, pilot.pause)
        tiers = sorted(entry.tier or "" for entry in screen.entries)
        assert tiers == ["cold", "cold", "hot", "hot"]

        # the same file again: nothing is created twice
        await pilot.press("i")
        again = await screen_on_top(pilot, PortfolioImportScreen)
        again.query_one("#imp-path", Input).value = str(path)
        await pilot.press("f10")
        await wait_for(lambda: again.plan is not None and again.plan.service_checked, pilot.pause)
        assert again.plan is not None and len(again.plan.already_tracked) == 4
        assert not again.ready_to_create  # nothing to create


async def test_a_pasted_list_and_an_unreadable_file_say_what_is_wrong(tmp_path: Path) -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        await open_trackings(pilot)
        await pilot.press("i")
        importer = await screen_on_top(pilot, PortfolioImportScreen)
        importer.query_one("#imp-path", Input).value = str(tmp_path / "missing.csv")
        await pilot.press("f10")
        await settle(pilot)
        assert "no such file" in importer.query_one("#box-path").error  # type: ignore[attr-defined]
        importer.query_one("#imp-paste").load_text(samples()["cpf"][0] + "\n12345")  # type: ignore[attr-defined]
        await pilot.press("f10")
        await wait_for(lambda: importer.ready_to_create, pilot.pause)
        summary = str(importer.query_one("#imp-summary", Static).content)
        assert summary.startswith("pasted list: 2 rows · 1 valid · 1 invalid")


async def three_lawsuits_tracked(
    sandbox: ContextClockHarness, pilot: Any, **fields: Any
) -> PortfolioScreen:
    """The trackings screen over trackings of three sample lawsuits, each with ``fields``."""
    await services_open(pilot)
    for key in samples()["lawsuit_cnj"][:3]:
        await track(sandbox, key, **fields)
    return await open_trackings(pilot)


async def test_marks_pause_resume_and_move_to_a_tier() -> None:
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        screen = await three_lawsuits_tracked(sandbox, pilot, tags={"tier": "hot"}, recurrence=1)
        assert len(screen.entries) == 3
        await pilot.press("space", "space")  # two rows marked
        assert len(screen.marked) == 2
        await pilot.press("p")
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        question = str(app.screen.query_one(".dialog-text", Static).content)
        assert question.startswith("Pause 2 trackings; runs a month: 60 → 0")
        await pilot.press("y")
        await wait_for(lambda: app.screen is screen, pilot.pause)
        await wait_for(
            lambda: sorted(e.status for e in screen.entries) == ["created", "paused", "paused"],
            pilot.pause,
        )
        assert screen.marked == set()

        await pilot.press("a")  # every row shown
        assert len(screen.marked) == 3
        await pilot.press("t")
        await wait_for(lambda: isinstance(app.screen, TierPickerScreen), pilot.pause)
        await pilot.press("down", "enter")  # warm
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        question = str(app.screen.query_one(".dialog-text", Static).content)
        assert "Move 3 trackings to the tier warm" in question
        await pilot.press("y")
        await wait_for(lambda: app.screen is screen, pilot.pause)
        await wait_for(lambda: {e.tier for e in screen.entries} == {"warm"}, pilot.pause, limit=20)
        assert {e.recurrence for e in screen.entries} == {7}

        screen.table.action_first_item()
        await pilot.press("a")  # all marked again
        await pilot.press("u")
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        question = str(app.screen.query_one(".dialog-text", Static).content)
        assert question.startswith("Resume 2 trackings")
        assert "1 selected tracking is left as it is" in question
        await pilot.press("n")
        await wait_for(lambda: app.screen is screen, pilot.pause)
        assert not any(isinstance(s, WorkProgressScreen) for s in app.screen_stack)


async def test_a_language_switch_keeps_the_portfolio_working_in_the_new_words() -> None:
    # D148: a switch keeps the screen (once it was built again, and its predecessor, still
    # subscribed to the app's movement watch, failed with "No nodes match '#trk-status'").
    # Before: the filters, the summary and the detail's fields stayed in English.
    sandbox = ContextClockHarness()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await services_open(pilot)
        tracking_id = (await track(sandbox, samples()["moving_lawsuit"])).tracking_id
        screen = await open_trackings(pilot)
        errors: list[BaseException] = []
        app.report_error = lambda error, **_kw: errors.append(error)
        switch_language(app, "pt-BR", remember=False)
        await settle(pilot)
        assert app.screen is screen
        status = screen.query_one("#pf-status", Select)
        shown = status.query_one("SelectCurrent #label", Static).content
        assert status.value == "live" and "Não excluídos" in str(shown)
        assert "Filtrar" in screen.query_one("#pf-filter", Input).placeholder
        summary = str(screen.query_one("#pf-summary", Static).content)
        assert summary.startswith("1 monitoramento") and "execuções por mês" in summary
        watch = app.movement_watch
        assert watch.listeners.count(screen.replace_records) == 1
        context = await app.context()
        await watch.check(context, app)  # the app's poll, as every minute
        status.value = "paused"
        await settle(pilot)
        assert errors == []
        status.value = "live"
        await settle(pilot)
        screen.show_params(tracking_id=tracking_id)
        detail = await screen_on_top(pilot, TrackingDetailScreen)
        await wait_for(lambda: detail.loaded, pilot.pause)
        switch_language(app, "en", remember=False)
        await settle(pilot)
        assert app.screen is detail
        labels = [label for label, _value in detail.field_rows()]
        assert "Status" in labels
        assert "Movements" in str(detail.query_one("#td-movements-title", Static).content)
        assert errors == []


async def test_the_detail_says_what_an_error_movement_is_and_where_the_keys_are() -> None:
    sandbox = ContextClockHarness()
    down = samples()["court_down_lawsuit"]
    async with sandbox.app.run_test(size=(120, 40)) as pilot:
        app: Any = pilot.app
        await services_open(pilot)
        record = await track(sandbox, down, fixed_time=True, hour_range=11, execution_minute=0)
        tracking_id = record.tracking_id
        await sandbox.advance(DAY + 10)  # the run meets a court that is down
        await sandbox.advance(10)
        screen = await open_trackings(pilot)
        screen.show_params(tracking_id=tracking_id)
        detail = await screen_on_top(pilot, TrackingDetailScreen)
        await wait_for(lambda: detail.loaded, pilot.pause)
        await settle(pilot)
        table = detail.query_one("#td-movements", DataTable)
        assert table.row_count >= 1
        cells = [str(cell) for cell in table.get_row_at(0)]
        assert cells[1] == down  # the tracked lawsuit, not a blank
        assert cells[4].startswith("CRAWLER_ERROR: The court's system was down")
        # the fixed time in the reader's time (São Paulo: 11:00 UTC is 08:00), never "UTC"
        fields = " ".join(str(value) for _label, value in detail.field_rows())
        assert "08:00 (Brasília time)" in fields and "UTC" not in fields
        # which pane has the keys
        title = detail.query_one("#td-movements-title", Static)
        table.focus()
        await pilot.pause()
        assert title.has_class("-focused")
        detail.query_one("#td-fields-box").focus()
        await pilot.pause()
        assert not title.has_class("-focused")
        table.focus()
        await pilot.press("enter")  # an error movement is explained, not opened
        await pilot.pause()
        assert app.screen is detail
        assert any("CRAWLER_ERROR" in str(n.title) for n in app._notifications)


async def test_the_lawsuits_a_document_tracking_follows() -> None:
    sandbox = ContextClockHarness()
    person = samples()["busy_person"]
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        await services_open(pilot)
        tracking_id = (await track(sandbox, person)).tracking_id
        await sandbox.advance(0)  # the service works out what the tracking follows
        screen = await open_trackings(pilot)
        screen.show_params(tracking_id=tracking_id)
        await wait_for(lambda: isinstance(app.screen, TrackingDetailScreen), pilot.pause)
        await pilot.press("l")
        items = await screen_on_top(pilot, TrackedItemsScreen)
        await wait_for(lambda: items.loaded, pilot.pause)
        assert len(items.items) > 1
        assert {item.tracking_id for item in items.items} == {tracking_id}
        await pilot.press("enter")
        await wait_for(
            lambda: type(app.screen).__module__ == "lawsuit_tui.ui.lawsuit.screen", pilot.pause
        )


async def test_a_file_of_keys_marks_their_trackings(tmp_path: Path) -> None:
    sandbox = ContextClockHarness()
    sample = samples()
    async with sandbox.app.run_test(size=(80, 24)) as pilot:
        app: Any = pilot.app
        screen = await three_lawsuits_tracked(sandbox, pilot)
        keys = tmp_path / "keys.txt"
        # one tracked key unformatted, one tracked, one not tracked
        first = sample["lawsuit_cnj"][0].replace("-", "").replace(".", "")
        keys.write_text(f"{first}\n{sample['lawsuit_cnj'][1]}\n{sample['cpf'][0]}\n")
        await pilot.press("f")
        await wait_for(lambda: isinstance(app.screen, KeysFilePrompt), pilot.pause)
        app.screen.query_one("#kf-path", Input).value = str(keys)
        await pilot.press("enter")
        await wait_for(lambda: len(screen.marked) == 2, pilot.pause)
        notices = [n.message for n in app._notifications]
        assert any("2 trackings marked from keys.txt; 1 key of the file" in m for m in notices)
