"""Where the data the app ships (not code) is: ``assets/`` at the top of the repository.

Every read of a shipped asset goes through :func:`asset_path`. In a source checkout (or an
editable install) the directory is ``<repository>/assets``; in a wheel it is
``lawsuit_tui/assets`` (``pyproject.toml`` copies it there when the wheel is built, so an
installed app finds it beside its code). Names are relative, with ``/``:
``asset_path("sandbox/people.json")``.

Standard library only: the sandbox world reads its word lists at import.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = ["asset_path", "assets_root", "read_asset_json", "read_asset_text"]

_PACKAGE_DIR = Path(__file__).resolve().parent
# The wheel's copy first: an installed package has no repository around it.
_CANDIDATES = (_PACKAGE_DIR / "assets", _PACKAGE_DIR.parent / "assets")


@cache
def assets_root() -> Path:
    """The assets directory of this installation (FileNotFoundError when there is none)."""
    for candidate in _CANDIDATES:
        if candidate.is_dir():
            return candidate
    searched = ", ".join(str(c) for c in _CANDIDATES)
    raise FileNotFoundError(f"the app's assets directory is missing (looked in {searched})")


def asset_path(name: str) -> Path:
    """The file of the asset ``name`` (``"sandbox/people.json"``); FileNotFoundError if absent."""
    relative = PurePosixPath(name)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise ValueError(f"an asset name is a relative path inside assets/, not {name!r}")
    path = assets_root().joinpath(*relative.parts)
    if not path.is_file():
        raise FileNotFoundError(f"asset {name!r} is missing (no file {path})")
    return path


def read_asset_text(name: str) -> str:
    """The asset's text (UTF-8; any line ending read as ``\n``)."""
    return asset_path(name).read_text(encoding="utf-8")


def read_asset_json(name: str) -> Any:
    return json.loads(read_asset_text(name))
