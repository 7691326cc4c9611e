"""Isolation for every test: no developer config, cache or language leaks in; and the service
rig the service and conformance tests share."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from lawsuit_tui.domain.formatting import set_display_zone
from lawsuit_tui.i18n import set_language

if TYPE_CHECKING:
    from tests.support.service_rig import Rig


@pytest.fixture(autouse=True)
def isolated_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Clear LAWSUIT_TUI_*, point the config at a file that does not exist, use a temporary
    cache dir and English. Yields the (absent) config path; a test may write it."""
    base = tmp_path_factory.mktemp("lawsuit-tui-env")
    config_file = base / "config" / "config.toml"
    with pytest.MonkeyPatch.context() as mp:
        for name in list(os.environ):
            if name.upper().startswith("LAWSUIT_TUI_"):
                mp.delenv(name)
        mp.setenv("LAWSUIT_TUI_CONFIG", str(config_file))
        mp.setenv("LAWSUIT_TUI_CACHE_DIR", str(base / "cache"))
        mp.setenv("LAWSUIT_TUI_LANGUAGE", "en")
        # Times on screen in Brasília whatever the machine's zone (snapshots stay stable).
        mp.setenv("LAWSUIT_TUI_TIMEZONE", "America/Sao_Paulo")
        set_language("en")  # the language is process-wide; a test may have switched it
        set_display_zone(None)
        yield config_file
        set_language("en")
        set_display_zone(None)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    """The sandbox in process on a frozen clock, and service contexts over it with a temporary
    cache (``rig.open()``), closed after the test."""
    from tests.support.service_rig import Rig  # the sandbox: only for the tests that ask

    opened = Rig(tmp_path / "cache")
    try:
        yield opened
    finally:
        await opened.aclose()
