"""``lawsuit-tui`` (and ``lawsuit-tui tui``): start the terminal interface.

Only the app module is imported here; the service layer, the sandbox and the cache are
imported by the app's worker after the first frame has been drawn.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawsuit_tui.config import Settings


def run(args: argparse.Namespace, settings: Settings | None) -> int:
    """The CLI passes no settings (see lawsuit_tui/preferences.py): the app loads them itself."""
    from lawsuit_tui.preferences import read_preferences
    from lawsuit_tui.ui.app import LawsuitApp

    app = LawsuitApp(
        settings if settings is not None else read_preferences(),
        sandbox=bool(getattr(args, "sandbox", False)),
        read_only=bool(getattr(args, "read_only", False)),
        # ``--webhooks``: start the embedded receiver once the services are ready.
        start_receiver=bool(getattr(args, "webhooks", False)),
    )
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)
