"""The .tcss stylesheets of the app; ``STYLES`` is their directory (for ``CSS_PATH``)."""

from __future__ import annotations

from pathlib import Path

STYLES = Path(__file__).parent
