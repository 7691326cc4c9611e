"""`lawsuit-tui config show|path`."""

from __future__ import annotations

import argparse
import json

from lawsuit_tui.config import Settings, config_sources, effective_values
from lawsuit_tui.i18n import N_, _

# Source labels config_sources returns as plain words; marked here for the catalogue.
_SOURCE_LABELS = {"default": N_("default"), "command line": N_("command line")}


def _render(value: object) -> str:
    if value is None:
        return _("(not set)")
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def show(settings: Settings) -> str:
    """The effective configuration, secrets masked, one ``key = value  # source`` a line."""
    values = effective_values(settings)
    sources = config_sources(settings)
    width = max(len(key) for key in values)
    lines = [
        _("# configuration file: {path}").format(path=settings.config_file),
        _("# mode: {mode}").format(mode=settings.mode),
    ]
    for key, value in values.items():
        source = sources[key]
        if source in _SOURCE_LABELS:
            source = _(_SOURCE_LABELS[source])
        lines.append(f"{key:<{width}} = {_render(value)}  # {source}")
    return "\n".join(lines)


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.config_command == "path":
        print(settings.config_file)
        return 0
    print(show(settings))
    return 0
