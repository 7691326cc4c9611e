"""Pilot flows of part 1 on the real in-process sandbox (frozen clock, virtual waits)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from lawsuit_tui.config import load_settings
from lawsuit_tui.domain.identifiers import parse_search_key
from lawsuit_tui.ui.screens.confirm import ConfirmScreen
from lawsuit_tui.ui.screens.lawsuit import LawsuitTreeScreen
from lawsuit_tui.ui.screens.lookup import LookupScreen
from lawsuit_tui.ui.screens.request_form import RequestFormScreen
from lawsuit_tui.ui.screens.requests import RequestsScreen
from lawsuit_tui.ui.screens.responses import ResponsesScreen
from lawsuit_tui.ui.widgets.lawsuit_tree import PAGE, Group, LawsuitTree, MoreItem, StepItem
from lawsuit_tui.ui.widgets.paged_table import PagedTable

from .harness import Harness, ready, related_sample, samples, settle, type_text, wait_for

DAY = 86_400.0


def _steps_node(tree: LawsuitTree) -> Any:
    for node in tree.root.children:
        if str(node.label).startswith("Steps"):
            return node
    raise AssertionError("no steps node")


async def settle_screen(pilot: Any) -> None:
    await pilot.pause()
    await pilot.pause(0.06)


async def _open_from_lookup(pilot: Any, text: str, *, type_it: bool = False) -> LawsuitTreeScreen:
    app = pilot.app
    if type_it:
        await type_text(pilot, text)
    else:
        app.screen.query_one("#search", Input).value = text
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, LookupScreen)
    table = screen.query_one("#results", PagedTable)
    assert table.display and table.row_count >= 1
    await pilot.press("enter")
    await wait_for(lambda: isinstance(app.screen, LawsuitTreeScreen), pilot.pause)
    await settle(pilot)
    lawsuit_screen = app.screen
    assert isinstance(lawsuit_screen, LawsuitTreeScreen)
    return lawsuit_screen


async def test_type_a_cnj_and_open_it() -> None:
    harness = Harness()
    cnj = samples()["lawsuit_cnj"][0]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        assert isinstance(pilot.app.focused, Input)  # the search field, ready to type
        screen = await _open_from_lookup(pilot, cnj, type_it=True)
        assert screen.code == cnj
        assert screen.view is not None and screen.view.lawsuit.code == cnj
        header = screen.query_one("#lawsuit-header", Static).content
        assert not isinstance(header, str)  # the essentials table replaced "Loading…"
        # Back on the lookup screen, the search is remembered among the recent ones.
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, LookupScreen)
        context = await harness.app.context()
        assert parse_search_key(cnj).display in context.lookup.recent()


async def test_wrong_check_digits_are_explained_and_can_be_sent_after_confirming() -> None:
    harness = Harness()
    cnj = samples()["lawsuit_cnj"][0]
    digits = cnj.replace("-", "").replace(".", "")
    wrong_check = "00" if digits[7:9] != "00" else "11"
    wrong = digits[:7] + wrong_check + digits[9:]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.screen.query_one("#search", Input).value = wrong
        await pilot.pause()
        hint = pilot.app.screen.query_one("#search-hint", Static)
        assert hint.has_class("-error")
        assert digits[7:9] in str(hint.content)  # the right check digits are named
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        title = str(screen.query_one("#results-title", Static).content)
        assert wrong_check in title.replace(".", "").replace("-", "")


async def test_create_a_request_and_see_the_cached_then_the_definitive_response() -> None:
    harness = Harness()
    moving = samples()["moving_lawsuit"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await harness.advance(30 * DAY)  # the court moves on; the stored copy stays behind
        await pilot.press("f3")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
        await settle(pilot)
        await pilot.press("n")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        pilot.app.screen.query_one("#rf-search_key", Input).value = moving
        await pilot.press("f10")
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: screen.completed, pilot.pause)
        await settle(pilot)
        provisional = [row for row in screen.rows if row.provisional]
        definitive = [row for row in screen.rows if not row.provisional]
        assert provisional and definitive
        assert provisional[0].number < definitive[0].number  # cached first
        assert provisional[0].replaced_by == definitive[0].key
        assert definitive[0].change is not None and definitive[0].change.new_step_ids
        # The list screen shows the request as completed, with its responses counted.
        await pilot.press("escape")
        await settle(pilot)
        requests = pilot.app.screen
        assert isinstance(requests, RequestsScreen)
        record = next(r for r in requests.records if r.request_id == screen.request_id)
        assert str(record.status) == "completed"
        assert (record.responses_count or 0) >= 2
        # The lawsuit now opens on the definitive version, its new steps marked.
        context = await harness.app.context()
        view = context.lawsuits.cached(moving, None)
        assert view is not None and not view.provisional and view.new_step_ids


async def test_a_form_field_says_what_is_wrong_before_sending() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("f3")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
        await settle(pilot)
        await pilot.press("n")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        form = pilot.app.screen
        assert isinstance(form, RequestFormScreen)
        await type_text(pilot, "123")  # typed: the field checks itself as one types
        form.query_one("#rf-cache_ttl_in_days", Input).value = "999"
        await pilot.press("f10")
        await pilot.pause()
        assert form.sent_body is None  # nothing was sent
        assert form.query_one("#box-search_key").has_class("-invalid")
        assert form.query_one("#box-cache_ttl_in_days").has_class("-invalid")


async def test_filter_steps_of_a_big_lawsuit() -> None:
    harness = Harness()
    big = samples()["big_lawsuit"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open_from_lookup(pilot, big)
        tree = screen.query_one(LawsuitTree)
        steps = _steps_node(tree)
        total = len(tree._index.steps)
        assert total > 5_000  # a big lawsuit, opened at once
        steps.expand()
        await settle(pilot)
        # Grouped by year, newest first; a year shows a page and a "more" node.
        years = [node.data for node in steps.children]
        assert all(isinstance(item, Group) and item.kind == "year" for item in years)
        first_year = steps.children[0]
        first_year.expand()
        await settle(pilot)
        page = [node.data for node in first_year.children]
        assert 0 < len(page) <= PAGE + 1
        if len(page) == PAGE + 1:
            assert isinstance(page[-1], MoreItem)
        await pilot.press("slash")
        await type_text(pilot, "sentença")
        await pilot.press("enter")
        await settle(pilot)
        matching = tree._step_items()
        assert 0 < len(matching) < total
        shown = [node.data for node in steps.children if not isinstance(node.data, MoreItem)]
        assert len(shown) == min(PAGE, len(matching))
        for item in shown:
            assert isinstance(item, StepItem)
            text = f"{item.step.content or ''} {item.step.step_type or ''}".casefold()
            assert "sentença" in text
        # Escape clears the filter and brings the year groups back.
        await pilot.press("escape")
        await settle(pilot)
        assert tree.step_filter == ""
        assert len(steps.children) == len(years)


async def test_follow_a_related_lawsuit() -> None:
    harness = Harness()
    code, related = related_sample()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open_from_lookup(pilot, code)
        tree = screen.query_one(LawsuitTree)
        group = next(n for n in tree.root.children if str(n.label).startswith("Related"))
        group.expand()
        await pilot.pause()
        target = next(n for n in group.children if n.data is not None)
        tree.move_cursor(target)
        await pilot.press("enter")
        await wait_for(
            lambda: (
                isinstance(pilot.app.screen, LawsuitTreeScreen) and pilot.app.screen is not screen
            ),
            pilot.pause,
        )
        await settle(pilot)
        opened = pilot.app.screen
        assert isinstance(opened, LawsuitTreeScreen)
        assert opened.code == related
        assert opened.view is not None and opened.view.lawsuit.code == related
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is screen


async def test_keymap_override(isolated_config: Any) -> None:
    isolated_config.parent.mkdir(parents=True, exist_ok=True)
    isolated_config.write_text('[keymap]\n"app.goto.requests" = "f9"\n', encoding="utf-8")
    harness = Harness(load_settings())
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("f3")  # no longer bound
        await settle(pilot)
        assert isinstance(pilot.app.screen, LookupScreen)
        await pilot.press("f9")
        await wait_for(lambda: isinstance(pilot.app.screen, RequestsScreen), pilot.pause)
        assert harness.app.binding_key("app.goto.requests") == "f9"


async def test_secrecy_restricted_explains_and_offers_the_vault() -> None:
    harness = Harness()
    secret = samples()["secret_lawsuit"]
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        context = await harness.app.context()
        from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody

        records = await context.requests.create(
            CreateRequestBody(
                search=SearchBody(search_type="lawsuit_cnj", search_key=secret["code"])
            )
        )
        harness.app.open_request(records[0].request_id)
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: screen.completed, pilot.pause)
        await settle(pilot)
        errors = [r for r in screen.rows if r.response.application_error is not None]
        assert errors and str(errors[0].response.application_error.code) == "SECRECY_RESTRICTED"  # type: ignore[union-attr]
        screen.table.move_cursor(row=errors[0].number - 1)
        await pilot.pause()
        detail = str(screen.query_one("#detail", Static).content)
        assert "secrecy" in detail.lower() and "vault" in detail.lower()
        await pilot.press("k")
        await wait_for(lambda: pilot.app.current_mode == "vault", pilot.pause)


async def test_download_and_view_an_attachment(tmp_path: Any) -> None:
    from lawsuit_tui.ui.screens.prompt import FolderPrompt
    from lawsuit_tui.ui.screens.text_view import TextViewScreen
    from lawsuit_tui.ui.widgets.lawsuit_tree import AttachmentItem

    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await _open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        tree = screen.query_one(LawsuitTree)
        group = next(n for n in tree.root.children if str(n.label).startswith("Attachments"))
        group.expand()
        await settle(pilot)
        node = next(
            n
            for n in group.children
            if isinstance(n.data, AttachmentItem)
            and not n.data.attachment.private
            and not n.data.attachment.corrupted
        )
        tree.move_cursor(node)
        await pilot.press("d")
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        await settle(pilot)
        pilot.app.screen.query_one(Input).value = str(tmp_path / "downloads")
        await pilot.press("enter")
        await wait_for(lambda: any((tmp_path / "downloads").glob("*")), pilot.pause)
        saved = list((tmp_path / "downloads").iterdir())
        assert len(saved) == 1 and saved[0].stat().st_size > 0
        await pilot.press("v")
        await wait_for(lambda: isinstance(pilot.app.screen, TextViewScreen), pilot.pause)
        await pilot.press("escape")
        await wait_for(lambda: pilot.app.screen is screen, pilot.pause)


async def test_a_secret_lawsuit_lookup_leads_to_the_vault() -> None:
    harness = Harness()
    secret = samples()["secret_lawsuit"]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.screen.query_one("#search", Input).value = secret["code"]
        await pilot.press("enter")
        await settle(pilot)
        title = str(pilot.app.screen.query_one("#results-title", Static).content)
        assert "secrecy" in title
        await pilot.press("k")
        await wait_for(lambda: harness.app.current_mode == "vault", pilot.pause)
        await settle(pilot)
        selected = getattr(pilot.app.screen, "_pending_system", None)
        assert selected == secret["system_name"]


async def test_the_end_of_a_followed_request_is_a_notice_to_follow() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        screen = await _open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        harness.clock_gate.clear()  # the court takes its time
        await pilot.press("r")  # fresh data, followed while we go elsewhere
        await wait_for(lambda: screen.followed_request is not None, pilot.pause)
        request_id = screen.followed_request
        await pilot.press("f3")
        await settle_screen(pilot)
        harness.clock_gate.set()
        await wait_for(lambda: harness.app._notice_target is not None, pilot.pause)
        await pilot.press("ctrl+o")
        await wait_for(
            lambda: (
                isinstance(pilot.app.screen, ResponsesScreen)
                and pilot.app.screen.request_id == request_id
            ),
            pilot.pause,
        )


async def test_copy_and_export_from_the_results(isolated_config: Any, tmp_path: Any) -> None:
    from lawsuit_tui.ui.screens.prompt import FolderPrompt

    harness = Harness()
    cnj = samples()["lawsuit_cnj"][0]
    async with harness.app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        pilot.app.screen.query_one("#search", Input).value = cnj
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("c")
        assert harness.app.clipboard == cnj  # sent to the terminal with OSC 52
        await pilot.press("e")
        await wait_for(lambda: isinstance(pilot.app.screen, FolderPrompt), pilot.pause)
        await settle(pilot)
        pilot.app.screen.query_one(Input).value = str(tmp_path)
        await pilot.press("enter")
        await wait_for(lambda: any(tmp_path.glob("*.json")), pilot.pause)
        exported = next(tmp_path.glob("*.json")).read_text(encoding="utf-8")
        assert cnj in exported


async def test_cancel_a_running_request_after_confirming() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        harness.clock_gate.clear()  # the request stays running while we look at it
        context = await harness.app.context()
        from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody

        records = await context.requests.create(
            CreateRequestBody(
                search=SearchBody(search_type="lawsuit_cnj", search_key=samples()["big_lawsuit"])
            )
        )
        harness.app.open_request(records[0].request_id)
        await wait_for(lambda: isinstance(pilot.app.screen, ResponsesScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, ResponsesScreen)
        await wait_for(lambda: screen.record is not None, pilot.pause)
        await pilot.press("x")
        await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(
            lambda: (
                screen.record is not None
                and str(screen.record.status) in ("cancelling", "cancelled")
            ),
            pilot.pause,
        )
        harness.clock_gate.set()


async def test_service_validation_errors_are_shown_beside_their_fields() -> None:
    from lawsuit_tui.api.errors import BadRequest
    from lawsuit_tui.domain.errors import ValidationItem

    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        harness.app.push_screen(RequestFormScreen())
        await wait_for(lambda: isinstance(pilot.app.screen, RequestFormScreen), pilot.pause)
        await settle(pilot)
        form = pilot.app.screen
        assert isinstance(form, RequestFormScreen)
        error = BadRequest(
            items=[
                ValidationItem(field="search.cache_ttl_in_days", rule="max", message="too big"),
                ValidationItem(field="search.search_params.filter.side", message="bad side"),
                ValidationItem(field="something_else", message="unknown field"),
            ]
        )
        form._show_service_errors(error)
        await pilot.pause()
        assert form.query_one("#box-cache_ttl_in_days").has_class("-invalid")
        assert form.query_one("#box-side").has_class("-invalid")
        assert "unknown field" in str(form.query_one("#form-error", Static).content)
