"""assets/ is read through lawsuit_tui.assets_dir, from a checkout and from an installed wheel
(where pyproject.toml puts it inside the package)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from lawsuit_tui import assets_dir

REPOSITORY = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def fresh_root() -> Iterator[None]:
    assets_dir.assets_root.cache_clear()
    yield
    assets_dir.assets_root.cache_clear()


def test_a_checkout_reads_the_top_level_assets() -> None:
    assert assets_dir.assets_root() == REPOSITORY / "assets"
    text = assets_dir.read_asset_text("sandbox/petition.txt")
    assert text == (REPOSITORY / "assets" / "sandbox" / "petition.txt").read_text(encoding="utf-8")
    assert "male_first" in assets_dir.read_asset_json("sandbox/people.json")


def test_an_installed_package_reads_its_own_copy_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # site-packages/lawsuit_tui/assets beside the code, and (as in a checkout) one above it.
    package = tmp_path / "site-packages" / "lawsuit_tui"
    (package / "assets" / "sandbox").mkdir(parents=True)
    (package / "assets" / "sandbox" / "note.txt").write_text("from the wheel\n", encoding="utf-8")
    (tmp_path / "site-packages" / "assets").mkdir()
    monkeypatch.setattr(assets_dir, "_CANDIDATES", (package / "assets", package.parent / "assets"))
    assert assets_dir.read_asset_text("sandbox/note.txt") == "from the wheel\n"


def test_a_missing_assets_directory_or_file_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(FileNotFoundError, match=r"no-such\.json"):
        assets_dir.asset_path("sandbox/no-such.json")
    monkeypatch.setattr(assets_dir, "_CANDIDATES", (tmp_path / "a", tmp_path / "b"))
    assets_dir.assets_root.cache_clear()
    with pytest.raises(FileNotFoundError, match="assets directory is missing"):
        assets_dir.asset_path("sandbox/people.json")


@pytest.mark.parametrize("name", ["/etc/passwd", "../pyproject.toml", "sandbox/../../x", ""])
def test_an_asset_name_stays_inside_assets(name: str) -> None:
    with pytest.raises(ValueError, match="relative path inside assets"):
        assets_dir.asset_path(name)


def test_the_wheel_takes_assets_into_the_package() -> None:
    config = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["force-include"] == {"assets": "lawsuit_tui/assets"}
    assert assets_dir._CANDIDATES[0] == Path(assets_dir.__file__).resolve().parent / "assets"
