"""A lawsuit opened from the lookup's results is shown as the lookup holds it, not read again."""

from __future__ import annotations

from typing import Any

from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
from tests.support.ui_harness import Harness, lawsuit_data, ready, wait_for


async def test_lawsuit_from_a_lookup_is_not_read_again(monkeypatch: Any) -> None:
    harness = Harness()
    async with harness.app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        context = await harness.app.context()
        code = "0000003-33.2020.8.26.0100"
        context.cache.store.upsert_lawsuit(lawsuit_data(code, 2), provisional=True, source="r")
        given = Lawsuit.model_validate(lawsuit_data(code, 2))
        reads: list[str] = []

        def cached(*args: Any) -> None:
            reads.append(str(args))

        monkeypatch.setattr(context.lawsuits, "cached", cached)
        harness.app.open_lawsuit(code, 1, lawsuit=given)
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        screen = pilot.app.screen
        assert isinstance(screen, LawsuitTreeScreen)
        await wait_for(lambda: screen.view is not None, pilot.pause)
        assert screen.view is not None
        assert screen.view.lawsuit is given and screen.view.provisional
        assert reads == []
