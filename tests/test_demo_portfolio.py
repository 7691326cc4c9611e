"""The demo portfolio in assets/ is what scripts/make_demo_portfolio.py writes, and its preview
shows valid, invalid and repeated rows of keys the sandbox's world holds."""

from __future__ import annotations

from pathlib import Path

from lawsuit_tui.assets_dir import asset_path
from lawsuit_tui.domain.portfolio import TierChoice, check_rows
from lawsuit_tui.domain.tiers import DEFAULT_TIERS, TIER_ALIASES
from lawsuit_tui.services.portfolio_files import read_portfolio_file
from scripts.make_demo_portfolio import rows, write
from tests.support.samples import shared_world


def test_the_demo_file_is_the_scripts_output(tmp_path: Path) -> None:
    fresh = tmp_path / "demo.csv"
    write(fresh, rows(7))
    assert fresh.read_bytes() == asset_path("portfolio/carteira-demo.csv").read_bytes()


def test_its_preview_shows_every_kind_of_row() -> None:
    choice = TierChoice({t.name: t for t in DEFAULT_TIERS}, "warm", TIER_ALIASES)
    check = check_rows(read_portfolio_file(asset_path("portfolio/carteira-demo.csv")), choice)
    assert len(check.rows) == 2900
    assert len(check.valid) == 2800 and len(check.invalid) == 61 and len(check.duplicates) == 39
    kinds = {row.key.search_type for row in check.valid if row.key}
    assert kinds == {"lawsuit_cnj", "cpf", "cnpj", "oab"}
    assert set(check.by_tier()) == {"hot", "warm", "cold"}
    world = shared_world()
    for row in check.valid:
        assert row.key is not None
        if row.key.search_type == "lawsuit_cnj":
            assert world.find("lawsuit_cnj", row.key.key), row.text
        elif row.key.search_type in ("cpf", "cnpj"):
            assert row.key.key in world.pop.entities, row.text
        else:
            assert row.key.key in world.pop.by_oab, row.text
