"""Fresh data keeps the reader's place and says what the court's copy changed; read-only
sessions ask before a paid call and still show what arrives (D147)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from lawsuit_tui.ui.lawsuit.tree import Group, LawsuitTree, StepItem, _node_key
from lawsuit_tui.ui.widgets.chrome import StatusLine
from tests.support.ui_harness import Harness, open_from_lookup, ready, samples, settle, wait_for


def _banner(screen: LawsuitTreeScreen) -> str:
    return str(screen.query_one("#lawsuit-banner", Static).content)


async def _to_a_step(pilot: Any, tree: LawsuitTree) -> str:
    """Expand the steps (and a year, when grouped), put the cursor on the third step."""
    steps = next(n for n in tree.root.children if isinstance(n.data, Group))
    steps.expand()
    await settle(pilot)
    first = steps.children[0]
    if isinstance(first.data, Group):
        first.expand()
        await settle(pilot)
        steps = first
    target = [n for n in steps.children if isinstance(n.data, StepItem)][2]
    tree.move_cursor(target)
    await pilot.pause()
    assert tree.cursor_node is target
    return _node_key(target)


async def _fresh_and_wait(pilot: Any, harness: Harness, screen: LawsuitTreeScreen) -> None:
    harness.clock_gate.clear()  # the court takes its time: the request is seen being asked
    await pilot.press("r")
    await wait_for(lambda: screen.followed_request is not None, pilot.pause)
    assert "Asking the court" in _banner(screen)
    harness.clock_gate.set()
    await wait_for(lambda: screen.followed_request is None, pilot.pause)
    await settle(pilot)


async def test_fresh_data_keeps_cursor_and_expansions_and_says_what_changed() -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        screen = await open_from_lookup(pilot, samples()["lawsuit_cnj"][0])
        assert "Provisional copy of" in _banner(screen)
        tree = screen.query_one(LawsuitTree)
        wanted = await _to_a_step(pilot, tree)
        expanded = {_node_key(n) for n in tree._walk() if n.is_expanded}
        await _fresh_and_wait(pilot, harness, screen)
        await wait_for(lambda: not tree.filling, pilot.pause)
        await settle(pilot)
        assert tree.cursor_node is not None and _node_key(tree.cursor_node) == wanted
        assert expanded <= {_node_key(n) for n in tree._walk() if n.is_expanded}
        banner = _banner(screen)
        assert screen.query_one("#lawsuit-banner", Static).display
        assert "Asking the court" not in banner
        assert banner.startswith(("The court's copy (checked", "The court has nothing newer"))


async def test_read_only_asks_before_a_paid_call_and_shows_what_arrives() -> None:
    # A read-only session follows the cache's writer for ever: no waiting for every worker.
    harness = Harness(read_only=True)
    async with harness.app.run_test(size=(120, 40)) as pilot:
        app = pilot.app
        await wait_for(lambda: app.services is not None, pilot.pause)
        await wait_for(
            lambda: (
                "read-only: nothing kept, paid calls asked"
                in str(app.screen.query_one(StatusLine).content)
            ),
            pilot.pause,
        )
        context = await harness.app.context()
        assert not context.cache.writable
        app.screen.query_one("#search", Input).value = samples()["lawsuit_cnj"][0]
        await pilot.press("enter")
        await wait_for(lambda: app.screen.query_one("#results").display, pilot.pause)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, LawsuitTreeScreen), pilot.pause)
        screen = app.screen
        assert isinstance(screen, LawsuitTreeScreen)
        await wait_for(lambda: screen.view is not None, pilot.pause)
        # Declined: no request is made.
        await pilot.press("r")
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("n")
        await wait_for(lambda: app.screen is screen, pilot.pause)
        await pilot.pause(0.1)
        assert screen.followed_request is None
        history = context.requests.history()
        try:
            assert await history.next_page() == []  # the service holds no request
        finally:
            await history.aclose()
        # Confirmed: made, followed, and the screen does not stay at "Asking the court".
        harness.clock_gate.clear()
        await pilot.press("r")
        await wait_for(lambda: isinstance(app.screen, ConfirmScreen), pilot.pause)
        await pilot.press("y")
        await wait_for(lambda: screen.followed_request is not None, pilot.pause)
        harness.clock_gate.set()
        await wait_for(lambda: screen.followed_request is None, pilot.pause)
        await wait_for(lambda: "Asking the court" not in _banner(screen), pilot.pause)
        assert _banner(screen).startswith(
            ("The court's copy (checked", "The court has nothing newer")
        )
