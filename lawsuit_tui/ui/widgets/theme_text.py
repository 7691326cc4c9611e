"""Text coloured by the theme: Rich styles whose colour is a theme variable's current value.

For widgets that render Rich text (DataTable cells, Static tables): Textual's CSS cannot reach
inside them, so their colours come from the theme here, never from literals. Callers render
again when the theme changes (``app.theme_changed_signal``).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.color import Color, ColorParseError

from lawsuit_tui.domain.vocabulary import word

if TYPE_CHECKING:
    from textual.app import App

__all__ = ["status_text", "theme_style"]


# (theme name, variable, bold) -> style: computing the theme's variables takes milliseconds,
# and a grid asks once per row.
_STYLES: dict[tuple[str, str, bool], Style] = {}


def theme_style(app: App[object], variable: str, *, bold: bool = False) -> Style:
    """A Rich style coloured by a theme variable (alpha blended over the surface)."""
    key = (app.theme, variable, bold)
    found = _STYLES.get(key)
    if found is None:
        found = _STYLES[key] = _theme_style(app, variable, bold=bold)
    return found


def _theme_style(app: App[object], variable: str, *, bold: bool) -> Style:
    variables = app.get_css_variables()
    value = variables.get(variable) or variables.get("foreground", "")
    try:
        colour = Color.parse(value)
        if colour.a < 1:
            colour = Color.parse(variables.get("surface", "#000000")) + colour
    except ColorParseError:
        return Style(bold=bold)
    return Style(color=colour.rich_color, bold=bold)


def status_text(
    app: App[object],
    status: object,
    variables: dict[str, str],
    words: Mapping[StrEnum, str] | None = None,
) -> Text:
    """A status in its theme colour (an unknown one in the plain foreground), shown as the
    reader's word from ``words`` (``domain/vocabulary.py``), never the service's code."""
    code = "" if status is None else str(status)
    variable = variables.get(code.lower(), "foreground")
    shown = word(words, status) if words is not None and status is not None else code
    return Text(shown, style=theme_style(app, variable))
