"""Use cases the TUI used to carry: the vault system of a lawsuit's court, a lawsuit's export."""

from __future__ import annotations

import json
from pathlib import Path

from lawsuit_tui.domain.bodies import CreateRequestBody, SearchBody
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.vault import court_acronym
from tests.support.service_rig import Rig


def test_court_acronym_of_a_cnj_number() -> None:
    assert court_acronym("0001234-56.2023.8.26.0100") == "TJSP"
    assert court_acronym("0001234-56.2023.4.03.6100") == "TRF3"
    assert court_acronym("not a number") is None


async def test_the_vault_system_of_a_secret_lawsuit(rig: Rig, ctx: ServiceContext) -> None:
    secret = (await rig.samples())["secret_lawsuit"]
    system = await ctx.vault.court_system(secret["code"], secret["instance"])
    assert system == secret["system_name"]
    listed = {row.name for row in await ctx.vault.status("*")}
    assert system in listed


async def test_the_vault_system_follows_the_instance(rig: Rig, ctx: ServiceContext) -> None:
    """The documented names (D83), chosen as the sandbox chooses them."""
    code = "0001234-56.2023.8.26.0100"
    assert await ctx.vault.court_system(code, None) == "ESAJ - TJSP - 1º grau"
    assert await ctx.vault.court_system(code, 2) == "ESAJ - TJSP - 2º grau"
    # several families for one court: PJE before PJEINTER and PROJUDI
    assert await ctx.vault.court_system("0001234-56.2023.8.05.0001", 1) == "PJE TJBA - 1º grau"
    # a court without a documented system: its acronym (TJPR has none)
    assert await ctx.vault.court_system("0001234-56.2023.8.16.0001", 1) == "TJPR"


async def test_no_court_no_system(ctx: ServiceContext) -> None:
    assert await ctx.vault.court_system("nothing like a CNJ number", 1) is None


async def test_export_writes_the_cached_lawsuit_into_the_folder(
    rig: Rig, ctx: ServiceContext, tmp_path: Path
) -> None:
    code = (await rig.samples())["lawsuit_cnj"][0]
    records = await ctx.requests.create(
        CreateRequestBody(search=SearchBody(search_type="lawsuit_cnj", search_key=code))
    )
    async for _event in ctx.requests.follow(records[0].request_id):
        pass
    view = ctx.lawsuits.cached(code)
    assert view is not None
    instance = view.lawsuit.instance
    folder = tmp_path / "new" / "exports"
    path = await ctx.lawsuits.export_to(code, instance, folder)
    suffix = f"-{instance}" if instance else ""
    assert path == folder / f"{code}{suffix}.json"
    assert json.loads(path.read_text(encoding="utf-8"))["code"] == view.lawsuit.code
