"""Snapshots of the trackings, vault and count screens and their main states.

Real sandbox, frozen clock (times on screen come from it), steady cursor (conftest), workers
awaited and notices cleared before each picture. Every state at 80x24 and 120x40. After
checking the pictures, update them with
``pytest tests/ui/test_part2_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from lawsuit_tui.domain.bodies import CredentialItem, TrackingCreateBody
from lawsuit_tui.ui.screens.confirm import ConfirmScreen
from lawsuit_tui.ui.screens.count import AMOUNT_RANGE, CountScreen
from lawsuit_tui.ui.screens.trackings import TrackingsScreen
from lawsuit_tui.ui.screens.vault import VaultScreen
from lawsuit_tui.ui.widgets.part2.tracking_detail import TrackingDetailScreen
from lawsuit_tui.ui.widgets.part2.tracking_form import TrackingFormScreen

from .part2_fakes import Part2Sandbox, samples, settle, wait_for

SMALL = (80, 24)
LARGE = (120, 40)
DAY = 86_400.0

Scenario = Callable[[Part2Sandbox, Pilot[Any]], Awaitable[None]]


async def goto(pilot: Pilot[Any], destination: str, screen_type: type) -> Any:
    app: Any = pilot.app
    await wait_for(lambda: app.services is not None, pilot.pause)
    app.goto(destination)
    await wait_for(lambda: isinstance(app.screen, screen_type), pilot.pause)
    await settle(pilot)
    return app.screen


async def finish(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


def track(key: str, **extra: Any) -> TrackingCreateBody:
    search_type = "lawsuit_cnj" if "." in key else "cpf"
    return TrackingCreateBody.model_validate(
        {"search": {"search_type": search_type, "search_key": key}, **extra}
    )


async def some_trackings(sandbox: Part2Sandbox) -> list[Any]:
    context = await sandbox.app.context()
    sample = samples()
    made = [
        await context.trackings.create(track(sample["moving_lawsuit"], recurrence=1)),
        await context.trackings.create(
            track(
                sample["cpf"][0],
                recurrence=7,
                fixed_time=True,
                hour_range=8,
                execution_minute=30,
                tags={"client": "ACME"},
            )
        ),
        await context.trackings.create(track(sample["lawsuit_cnj"][2], recurrence=3)),
    ]
    await context.trackings.pause(made[2].tracking_id)
    await sandbox.advance(2 * DAY)
    await sandbox.advance(10)
    return made


# --- scenarios -------------------------------------------------------------------------------


async def trackings_empty(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await goto(pilot, "trackings", TrackingsScreen)
    await finish(pilot)


async def trackings_list(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await wait_for(lambda: pilot.app.services is not None, pilot.pause)  # type: ignore[attr-defined]
    await some_trackings(sandbox)
    await goto(pilot, "trackings", TrackingsScreen)
    await finish(pilot)


async def tracking_detail(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await trackings_list(sandbox, pilot)
    screen = pilot.app.screen
    assert isinstance(screen, TrackingsScreen)
    screen.table.focus()
    await pilot.press("down", "down", "enter")  # the moving lawsuit, which has movements
    await wait_for(lambda: isinstance(pilot.app.screen, TrackingDetailScreen), pilot.pause)
    detail = pilot.app.screen
    assert isinstance(detail, TrackingDetailScreen)
    await wait_for(lambda: detail.loaded, pilot.pause)
    await finish(pilot)


async def tracking_form_errors(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await goto(pilot, "trackings", TrackingsScreen)
    await pilot.press("n")
    await wait_for(lambda: isinstance(pilot.app.screen, TrackingFormScreen), pilot.pause)
    form = pilot.app.screen
    form.query_one("#tf-search-key", Input).value = "1234567"
    form.query_one("#tf-recurrence", Input).value = "45"
    form.query_one("#tf-fixed-time", Checkbox).value = True
    await pilot.pause()
    form.query_one("#tf-hour", Input).value = "25"
    form.query_one("#tf-emails", Input).value = "ana@example"
    await pilot.press("f10")
    await finish(pilot)


async def tracking_conflict(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await trackings_list(sandbox, pilot)
    await pilot.press("n")
    await wait_for(lambda: isinstance(pilot.app.screen, TrackingFormScreen), pilot.pause)
    form = pilot.app.screen
    form.query_one("#tf-search-key", Input).value = samples()["moving_lawsuit"]
    await pilot.press("f10")
    await finish(pilot)


async def vault_default(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await wait_for(lambda: pilot.app.services is not None, pilot.pause)  # type: ignore[attr-defined]
    context = await sandbox.app.context()
    await context.vault.register(
        [CredentialItem(system_name="STF - Portal STF", username="ana", password="x")]
    )
    await goto(pilot, "vault", VaultScreen)
    await finish(pilot)


async def vault_named_key(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await wait_for(lambda: pilot.app.services is not None, pilot.pause)  # type: ignore[attr-defined]
    context = await sandbox.app.context()
    await context.vault.register(
        [
            CredentialItem(
                system_name="TJSP - ESAJ - 1º grau", customer_key="acme", username="a", password="x"
            ),
            CredentialItem(system_name="*", customer_key="acme", username="a", password="x"),
        ]
    )
    screen = await goto(pilot, "vault", VaultScreen)
    screen.show_params(customer_key="acme")
    await finish(pilot)


async def vault_registered(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    screen = await goto(pilot, "vault", VaultScreen)
    screen.show_params(system_name=samples()["secret_lawsuit"]["system_name"], customer_key="*")
    await settle(pilot)
    await pilot.press("n")
    await wait_for(lambda: pilot.app.screen is not screen, pilot.pause)
    form = pilot.app.screen
    form.query_one("#cf-username", Input).value = "analista"
    form.query_one("#cf-password", Input).value = "s3nh@"
    await pilot.press("f10")
    await wait_for(lambda: pilot.app.screen is screen, pilot.pause)
    await finish(pilot)


async def count_form(screen: CountScreen, pilot: Pilot[Any], high: str) -> None:
    screen.query_one("#cn-tribunals", Input).value = "826, 403"
    screen.query_one("#cn-amount-mode", Select).value = AMOUNT_RANGE
    await pilot.pause()
    screen.query_one("#cn-min", Input).value = "50.000,00"
    screen.query_one("#cn-max", Input).value = high
    screen.query_one("#cn-budget-years", Input).value = "2024"


async def count_rejected(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    screen = await goto(pilot, "count", CountScreen)
    await count_form(screen, pilot, "1.000,00")
    await pilot.press("f10")
    await pilot.pause()
    await pilot.press("f9")
    await finish(pilot)


async def count_accepted(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    screen = await goto(pilot, "count", CountScreen)
    await count_form(screen, pilot, "900.000,00")
    await pilot.press("f10")
    await settle(pilot)
    screen.query_one("#cn-kind", Select).value = "sentence-execution"
    await pilot.pause()
    screen.query_one("#cn-tag-precatory_dispatched", Checkbox).value = True
    screen.query_one("#cn-amount-mode", Select).value = "tier"
    await pilot.pause()
    screen.query_one("#cn-tier", Select).value = "100k-250k"
    await pilot.press("f10")
    await finish(pilot)


async def tracking_delete_confirm(sandbox: Part2Sandbox, pilot: Pilot[Any]) -> None:
    await trackings_list(sandbox, pilot)
    screen = pilot.app.screen
    assert isinstance(screen, TrackingsScreen)
    screen.table.focus()
    await pilot.press("d")  # a destructive question: "Keep"/"No" has the focus
    await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
    await finish(pilot)


CASES: list[tuple[str, Scenario, tuple[int, int]]] = [
    ("trackings_empty", trackings_empty, SMALL),
    ("trackings_empty", trackings_empty, LARGE),
    ("trackings_list", trackings_list, SMALL),
    ("trackings_list", trackings_list, LARGE),
    ("tracking_detail", tracking_detail, SMALL),
    ("tracking_detail", tracking_detail, LARGE),
    ("tracking_form_errors", tracking_form_errors, SMALL),
    ("tracking_form_errors", tracking_form_errors, LARGE),
    ("tracking_conflict", tracking_conflict, SMALL),
    ("tracking_conflict", tracking_conflict, LARGE),
    ("tracking_delete_confirm", tracking_delete_confirm, SMALL),
    ("tracking_delete_confirm", tracking_delete_confirm, LARGE),
    ("vault_default", vault_default, SMALL),
    ("vault_default", vault_default, LARGE),
    ("vault_named_key", vault_named_key, SMALL),
    ("vault_named_key", vault_named_key, LARGE),
    ("vault_registered", vault_registered, SMALL),
    ("vault_registered", vault_registered, LARGE),
    ("count_rejected", count_rejected, SMALL),
    ("count_rejected", count_rejected, LARGE),
    ("count_accepted", count_accepted, SMALL),
    ("count_accepted", count_accepted, LARGE),
]


@pytest.mark.parametrize(
    ("scenario", "size"),
    [pytest.param(case, size, id=f"{name}-{size[0]}x{size[1]}") for name, case, size in CASES],
)
def test_snapshot(snap_compare: Any, scenario: Scenario, size: tuple[int, int]) -> None:
    sandbox = Part2Sandbox()

    async def run_before(pilot: Pilot[Any]) -> None:
        await scenario(sandbox, pilot)

    assert snap_compare(sandbox.app, terminal_size=size, run_before=run_before)
