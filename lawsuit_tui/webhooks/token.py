"""The path token: the receiver's secret (no signing is shown by the spec, D44)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings

__all__ = ["TOKEN_BYTES", "generate_token", "mask_token", "resolve_token"]

TOKEN_BYTES = 24  # 32 URL-safe characters


def generate_token() -> str:
    """32 URL-safe characters, never starting with "-" or "_" (``--path-token -x...`` would
    read as an option)."""
    while True:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if token[0].isalnum():
            return token


def mask_token(token: str) -> str:
    """Enough to recognise a token, never enough to use it."""
    return f"…{token[-4:]}" if len(token) >= 16 else "…"


def resolve_token(
    settings: Settings, given: str | None = None, *, config_file: Path | None = None
) -> tuple[str, str]:
    """The token to use and where it came from: ``given``, ``config`` or ``generated``.

    A generated token is saved with ``save_preferences`` (file mode 0600) before it is
    returned, so a restart keeps the same URL. A token given on the command line is not saved.
    """
    if given:
        return given, "given"
    configured = settings.webhooks.path_token
    if configured is not None and configured.get_secret_value():
        return configured.get_secret_value(), "config"
    from lawsuit_tui.config import save_preferences

    token = generate_token()
    save_preferences({"webhooks.path_token": token}, path=config_file or settings.config_file)
    return token, "generated"
