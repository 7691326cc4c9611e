"""What the TUI needs for its first frame, read without pydantic.

Importing pydantic and validating the settings costs about 200 ms, a third of a first frame on
these machines (docs/performance.md). The first frame only needs the theme, the keymap, the
language and whether an API key is set (and, for the sandbox's samples it shows at once, where
the cache is and the sandbox's seed: D185), so those are read here from the environment and the TOML
file with the standard library. The full, validated :class:`lawsuit_tui.config.Settings` load
after the first frame, and a bad config file is reported then (exit code 2), exactly as the
other commands report it before they start.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

APP_NAME = "lawsuit-tui"
ENV_PREFIX = "LAWSUIT_TUI_"
CONFIG_ENV_VAR = "LAWSUIT_TUI_CONFIG"
DEFAULT_THEME = "textual-dark"
DEFAULT_SANDBOX_SEED = 7


def config_file(environ: Mapping[str, str] | None = None) -> Path:
    """The TOML file: ``$LAWSUIT_TUI_CONFIG`` if set, else the platform's config dir."""
    env = os.environ if environ is None else environ
    override = env.get(CONFIG_ENV_VAR)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "config.toml"


def _read_file(path: Path) -> dict[str, Any]:
    try:
        if not path.is_file():  # absent, or a directory or a pipe (reading one would hang)
            return {}
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, ValueError, RecursionError):
        return {}  # the real error is reported once the full settings load


@dataclass(frozen=True)
class Preferences:
    """The part of the configuration the first frame needs. Never raises, never validates."""

    theme: str = DEFAULT_THEME
    language: str | None = None
    keymap: dict[str, str] = field(default_factory=dict)
    has_api_key: bool = False
    cache_dir: Path | None = None
    """As configured; None: the platform's (see :meth:`cache_root`)."""
    sandbox_seed: int = DEFAULT_SANDBOX_SEED

    @property
    def mode(self) -> str:
        return "live" if self.has_api_key else "sandbox"

    def cache_root(self) -> Path:
        """The configured cache directory, else the platform's (as the settings say)."""
        if self.cache_dir is not None:
            return self.cache_dir
        import platformdirs

        return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def read_preferences(environ: Mapping[str, str] | None = None) -> Preferences:
    """Environment over the config file over defaults, as :mod:`lawsuit_tui.config` does."""
    env = os.environ if environ is None else environ
    data = _read_file(config_file(env))

    def pick(name: str) -> object:
        return env.get(ENV_PREFIX + name.upper()) or data.get(name)

    theme = pick("theme")
    language = pick("language")
    keymap = data.get("keymap")
    cache_dir = pick("cache_dir")
    cache_path = Path(cache_dir).expanduser() if isinstance(cache_dir, str) and cache_dir else None
    sandbox = data.get("sandbox")
    seed = env.get(ENV_PREFIX + "SANDBOX__SEED") or (
        sandbox.get("seed") if isinstance(sandbox, dict) else None
    )
    return Preferences(
        theme=theme if isinstance(theme, str) and theme else DEFAULT_THEME,
        language=language if isinstance(language, str) and language else None,
        keymap={str(k): str(v) for k, v in keymap.items()} if isinstance(keymap, dict) else {},
        has_api_key=bool(pick("api_key")),
        cache_dir=cache_path,
        sandbox_seed=_integer(seed, DEFAULT_SANDBOX_SEED),
    )


def _integer(value: object, default: int) -> int:
    """An int given as one (TOML) or as digits (the environment); else ``default`` (the real
    error, if any, is reported once the full settings load)."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return default
    return default
