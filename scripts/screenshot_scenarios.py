"""The screens in the states the README screenshots and the snapshot tests show.

Each scenario drives a ``LawsuitApp`` built by ``tests/support/ui_harness.py`` (the in-process
sandbox, a frozen clock) to one state: ``scenario(harness, pilot)`` for the trackings, vault
and count screens, ``scenario(pilot)`` for the credential form. Both
``scripts/export_screenshots.py`` and the snapshot tests of ``tests/ui/<feature>/`` use them,
so a README picture and its snapshot are the same state.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from lawsuit_tui.domain.bodies import CredentialItem
from lawsuit_tui.ui.count.court_picker import CourtPicker
from lawsuit_tui.ui.count.find_dialog import FindDialog
from lawsuit_tui.ui.count.find_lawsuits import FindLawsuitsScreen
from lawsuit_tui.ui.count.screen import AMOUNT_RANGE, CountScreen
from lawsuit_tui.ui.dialogs.confirm import ConfirmScreen
from lawsuit_tui.ui.dialogs.tier_picker import TierPickerScreen
from lawsuit_tui.ui.trackings.portfolio_import import PortfolioImportScreen
from lawsuit_tui.ui.trackings.portfolio_screen import PortfolioScreen
from lawsuit_tui.ui.trackings.tracking_detail import TrackingDetailScreen
from lawsuit_tui.ui.trackings.tracking_form import TrackingFormScreen
from lawsuit_tui.ui.vault.credential_form import KIND_CERTIFICATE, CredentialFormScreen
from lawsuit_tui.ui.vault.screen import VaultScreen
from tests.support.ui_harness import (
    ContextClockHarness,
    ScreenT,
    samples,
    screen_on_top,
    services_open,
    settle,
    track,
    trackings_run,
    wait_for,
)

DAY = 86_400.0

Scenario = Callable[[ContextClockHarness, Pilot[Any]], Awaitable[None]]
"""A state of the trackings, vault or count screens, on a fresh harness."""
FormScenario = Callable[[Pilot[Any]], Awaitable[None]]
"""A state of the vault's credential form."""


async def goto(pilot: Pilot[Any], destination: str, screen_type: type[ScreenT]) -> ScreenT:
    app: Any = pilot.app
    await services_open(pilot)
    app.goto(destination)
    screen = await screen_on_top(pilot, screen_type)
    await settle(pilot)
    return screen


async def finish(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause()


async def some_trackings(sandbox: ContextClockHarness) -> list[Any]:
    sample = samples()
    made = [
        await track(
            sandbox,
            sample["moving_lawsuit"],
            recurrence=1,
            tags={"tier": "hot", "labels": ["vip", "contencioso"]},
        ),
        await track(
            sandbox,
            sample["cpf"][0],
            recurrence=7,
            fixed_time=True,
            hour_range=11,
            execution_minute=30,
            tags={"tier": "warm", "labels": ["cobrança"], "name": "Cliente ACME"},
        ),
        await track(sandbox, sample["lawsuit_cnj"][2], recurrence=30, tags={"tier": "cold"}),
    ]
    context = await sandbox.app.context()
    await context.trackings.pause(made[2].tracking_id)
    await trackings_run(sandbox)
    return made


# --- scenarios -------------------------------------------------------------------------------


async def trackings_empty(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await goto(pilot, "trackings", PortfolioScreen)
    await finish(pilot)


async def trackings_list(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await services_open(pilot)
    await some_trackings(sandbox)
    await goto(pilot, "trackings", PortfolioScreen)
    await finish(pilot)


async def press_on_the_list(sandbox: ContextClockHarness, pilot: Pilot[Any], *keys: str) -> None:
    """The trackings list, its table focused, then ``keys`` pressed."""
    await trackings_list(sandbox, pilot)
    screen = pilot.app.screen
    assert isinstance(screen, PortfolioScreen)
    screen.table.focus()
    await pilot.press(*keys)


async def tracking_detail(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    # the moving lawsuit, which has movements
    await press_on_the_list(sandbox, pilot, "down", "down", "enter")
    detail = await screen_on_top(pilot, TrackingDetailScreen)
    await wait_for(lambda: detail.loaded, pilot.pause)
    await finish(pilot)


async def tracking_form_errors(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await goto(pilot, "trackings", PortfolioScreen)
    await pilot.press("n")
    form = await screen_on_top(pilot, TrackingFormScreen)
    form.query_one("#tf-search-key", Input).value = "1234567"
    form.query_one("#tf-recurrence", Input).value = "91"
    form.query_one("#tf-fixed-time", Checkbox).value = True
    await pilot.pause()
    form.query_one("#tf-hour", Input).value = "25"
    form.query_one("#tf-emails", Input).value = "ana@example"
    await pilot.press("f10")
    await finish(pilot)


async def tracking_conflict(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await trackings_list(sandbox, pilot)
    await pilot.press("n")
    form = await screen_on_top(pilot, TrackingFormScreen)
    form.query_one("#tf-search-key", Input).value = samples()["moving_lawsuit"]
    await pilot.press("f10")
    await finish(pilot)


async def vault_default(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    context = await services_open(pilot)
    await context.vault.register(
        [CredentialItem(system_name="PJE TJBA - 1º grau", username="ana", password="x")]
    )
    await goto(pilot, "vault", VaultScreen)
    await finish(pilot)


async def vault_named_key(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    context = await services_open(pilot)
    await context.vault.register(
        [
            CredentialItem(
                system_name="ESAJ - TJSP - 1º grau", customer_key="acme", username="a", password="x"
            ),
            CredentialItem(system_name="*", customer_key="acme", username="a", password="x"),
        ]
    )
    screen = await goto(pilot, "vault", VaultScreen)
    screen.show_params(customer_key="acme")
    await finish(pilot)


async def vault_registered(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
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
    picker = screen.query_one(CourtPicker)
    await wait_for(lambda: bool(picker.courts), pilot.pause)
    picker.set_chosen([10, 1])  # TJSP, TRF3 (the Miner's ids)
    screen.query_one("#cn-amount-mode", Select).value = AMOUNT_RANGE
    await pilot.pause()
    screen.query_one("#cn-min", Input).value = "50.000,00"
    screen.query_one("#cn-max", Input).value = high
    screen.query_one("#cn-budget-years", Input).value = "2024"


async def count_rejected(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    screen = await goto(pilot, "count", CountScreen)
    await count_form(screen, pilot, "1.000,00")
    await pilot.press("f10")
    await pilot.pause()
    await pilot.press("ctrl+g")
    await finish(pilot)


async def count_accepted(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
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


async def count_find(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    """A count of TJSP's precatórios bought as a find request of 8: its lawsuits."""
    screen = await goto(pilot, "count", CountScreen)
    picker = screen.query_one(CourtPicker)
    await wait_for(lambda: bool(picker.courts), pilot.pause)
    picker.set_chosen([10])
    await pilot.press("f10")
    await settle(pilot)
    await pilot.press("ctrl+f")
    await wait_for(lambda: isinstance(pilot.app.screen, FindDialog), pilot.pause)
    pilot.app.screen.query_one("#fd-cap", Input).value = "8"
    await pilot.press("f10")
    found = await screen_on_top(pilot, FindLawsuitsScreen)
    await wait_for(lambda: not found.reading, pilot.pause)
    await finish(pilot)


async def tracking_delete_confirm(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    # a destructive question: "Keep"/"No" has the focus
    await press_on_the_list(sandbox, pilot, "d")
    await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
    await finish(pilot)


async def portfolio_marked(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    """Two trackings marked, and the question before pausing them."""
    await press_on_the_list(sandbox, pilot, "space", "space", "p")
    await wait_for(lambda: isinstance(pilot.app.screen, ConfirmScreen), pilot.pause)
    await finish(pilot)


async def portfolio_tier_picker(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    await press_on_the_list(sandbox, pilot, "a", "t")
    await wait_for(lambda: isinstance(pilot.app.screen, TierPickerScreen), pilot.pause)
    await finish(pilot)


async def portfolio_import_preview(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    """The demo portfolio checked: what a new user sees first (the path starts there)."""
    await goto(pilot, "trackings", PortfolioScreen)
    await pilot.press("i")
    importer = await screen_on_top(pilot, PortfolioImportScreen)
    await settle(pilot)
    # The demo file's absolute path differs from one checkout to another: show its name.
    importer.query_one("#imp-path", Input).value = "assets/portfolio/carteira-demo.csv"
    await pilot.press("f10")
    await wait_for(lambda: importer.ready_to_create, pilot.pause, limit=30)
    await finish(pilot)


async def tracking_detail_error(sandbox: ContextClockHarness, pilot: Pilot[Any]) -> None:
    """A run that met a court that is down: the movement says so."""
    await services_open(pilot)
    record = await track(sandbox, samples()["court_down_lawsuit"], tags={"tier": "hot"})
    await sandbox.advance(DAY + 10)
    await sandbox.advance(10)
    screen = await goto(pilot, "trackings", PortfolioScreen)
    screen.show_params(tracking_id=record.tracking_id)
    detail = await screen_on_top(pilot, TrackingDetailScreen)
    await wait_for(lambda: detail.loaded, pilot.pause)
    await finish(pilot)


async def open_form(pilot: Pilot[Any]) -> CredentialFormScreen:
    app: Any = pilot.app
    await services_open(pilot)
    app.open_vault(samples()["secret_lawsuit"]["system_name"], "*")
    vault = await screen_on_top(pilot, VaultScreen)
    await wait_for(lambda: vault.loaded_from_service, pilot.pause)
    await settle(pilot)
    await pilot.press("n")
    form = await screen_on_top(pilot, CredentialFormScreen)
    await settle(pilot)
    return form


async def login_with_two_factor(pilot: Pilot[Any]) -> None:
    form = await open_form(pilot)
    form.query_one("#cf-username", Input).value = "analista"
    form.query_one("#cf-password", Input).value = "s3nh@"
    form.query_one("#cf-totp", Input).value = "jbsw y3dp ehpk 3pxp"
    form.query_one("#cf-totp", Input).focus()
    await finish(pilot)


async def login_errors(pilot: Pilot[Any]) -> None:
    form = await open_form(pilot)
    form.query_one("#cf-totp", Input).value = "0000 1111"
    await pilot.press("f10")
    await finish(pilot)


# The demo certificate, copied by the caller into the working folder under this name (a
# relative path: the picture must not show where the checkout is).
CERTIFICATE_FILE = "escritorio-a1.pfx"


async def certificate_error(pilot: Pilot[Any]) -> None:
    """An A1 certificate opened locally with the wrong password: refused before sending."""
    form = await open_form(pilot)
    form.query_one("#cf-kind", Select).value = KIND_CERTIFICATE
    await pilot.pause()
    form.query_one("#cf-certificate-path", Input).value = CERTIFICATE_FILE
    form.query_one("#cf-certificate-password", Input).value = "senha-errada"
    form.query_one("#cf-certificate-path", Input).focus()
    await pilot.press("f10")
    await wait_for(lambda: not form.sending, pilot.pause)
    await finish(pilot)


async def credential_update(pilot: Pilot[Any]) -> None:
    """Updating a credential registered from this app: its kind and user are shown."""
    app: Any = pilot.app
    await wait_for(lambda: app.services is not None, pilot.pause)
    context = await app.context()
    await context.vault.register(
        [
            CredentialItem(
                system_name=samples()["secret_lawsuit"]["system_name"],
                username="123.456.789-09",
                password="x",
                custom_data={"secret": "JBSWY3DPEHPK3PXP"},
            )
        ]
    )
    await open_form(pilot)
    await finish(pilot)
