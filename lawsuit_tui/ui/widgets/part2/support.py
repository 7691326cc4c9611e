"""Small helpers shared by the trackings, vault and count screens.

- :func:`service_context`: the ready service facade, from the app (``await app.context()``).
- :func:`error_text` / :func:`is_not_available` / :func:`is_conflict`: what to tell the user
  about a failed call. The UI does not import the api layer; the service errors are recognised
  by their status and class names (``OperationNotAvailable`` for a 404/405 on a route the spec
  does not show).
- :func:`theme_style`: a Rich style whose colour is a theme variable's current value, for
  widgets that render Rich text (DataTable cells); callers re-render on theme change.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, cast

from rich.style import Style
from rich.text import Text
from textual.color import Color, ColorParseError

from lawsuit_tui.i18n import _

if TYPE_CHECKING:
    from textual.app import App

    from lawsuit_tui.services.context import ServiceContext

__all__ = [
    "TRACKING_STATUS_VARIABLES",
    "VAULT_STATUS_VARIABLES",
    "error_text",
    "is_conflict",
    "is_not_available",
    "service_context",
    "status_text",
    "theme_style",
]

# Theme variables giving each status its colour (text-* variables read well on any surface).
TRACKING_STATUS_VARIABLES: dict[str, str] = {
    "created": "text-primary",
    "updating": "text-accent",
    "updated": "text-success",
    "paused": "text-warning",
    "deleted": "foreground-muted",
    "suspended": "text-error",
}
VAULT_STATUS_VARIABLES: dict[str, str] = {
    "active": "text-success",
    "inactive": "text-error",
    "not exists": "foreground-muted",
}


async def service_context(app: App[object]) -> ServiceContext:
    """The app's service facade, ready (the shell builds it off the first frame)."""
    getter = getattr(app, "context", None)
    if getter is None:
        raise RuntimeError(_("The app offers no service context"))
    found = getter()
    if inspect.isawaitable(found):
        found = await found
    return cast("ServiceContext", found)


def _class_names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def is_not_available(exc: BaseException) -> bool:
    """The service lacks this (optional) operation: a 404/405 that names no resource."""
    return "OperationNotAvailable" in _class_names(exc)


def is_conflict(exc: BaseException) -> bool:
    return getattr(exc, "status", None) == 409 or "Conflict" in _class_names(exc)


def error_text(exc: BaseException) -> str:
    """The service's own words for a failure (never a traceback)."""
    if is_not_available(exc):
        return _("This operation is not available on this service.")
    messages = getattr(exc, "messages", None)
    summary = getattr(exc, "summary", None)
    if isinstance(summary, str) and summary:
        return summary
    if isinstance(messages, list) and messages:
        return "; ".join(str(m) for m in messages)
    text = str(exc)
    return text or type(exc).__name__


def service_messages(exc: BaseException) -> list[str]:
    """Every message of a count-style ``{errors: [...]}`` answer (else the summary)."""
    messages = getattr(exc, "messages", None)
    if isinstance(messages, list) and messages:
        return [str(m) for m in messages]
    items = getattr(exc, "items", None)
    if isinstance(items, list) and items:
        lines = []
        for item in items:
            field = getattr(item, "field", None)
            text = getattr(item, "message", None) or getattr(item, "rule", None) or ""
            lines.append(f"{field}: {text}" if field else str(text))
        return lines
    return [error_text(exc)]


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


def status_text(app: App[object], status: object, variables: dict[str, str]) -> Text:
    """A status word in its theme colour; an unknown status in the plain foreground."""
    word = "" if status is None else str(status)
    variable = variables.get(word.lower(), "foreground")
    return Text(word, style=theme_style(app, variable))
