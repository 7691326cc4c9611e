"""Command palette providers: every destination, and the commands of the current screen.

Both implement ``discover()`` (what the palette lists before anything is typed) and
``search()`` (fuzzy matching). Everything offered here also has a key.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.fuzzy import Matcher

from lawsuit_tui.i18n import _
from lawsuit_tui.ui.host import host_of
from lawsuit_tui.ui.navigation import DESTINATIONS


class _ChoosesThemes(Protocol):
    def choose_theme(self, name: str) -> None: ...


class ListedCommands(Provider):
    """A provider over a list of (title, help, callback): discovery shows them all, search
    matches titles. Subclasses say what the list is, and may match more than the title."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        return []

    def _score(self, matcher: Matcher, title: str) -> float:
        return matcher.match(title)

    async def discover(self) -> Hits:
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = self._score(matcher, title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, text=title, help=help_text)


class DestinationsProvider(ListedCommands):
    """ "Go to ..." for every destination."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        app = host_of(self.app)
        commands: list[tuple[str, str, Callable[[], Any]]] = []
        for item in DESTINATIONS:
            key = app.binding_key(item.binding_id)
            title = _("Go to {place}").format(place=item.label)
            help_text = f"{item.description}  ({key})" if item.description else f"({key})"
            commands.append((title, help_text, partial(app.goto, item.id)))
        return commands


class ScreenCommandsProvider(ListedCommands):
    """The commands of the screen the palette was opened from (``palette_commands()``)."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        screen = self.screen
        commands = getattr(screen, "palette_commands", None)
        if commands is None:
            return []
        app = host_of(self.app)
        found: list[tuple[str, str, Callable[[], Any]]] = []
        for command in commands():
            help_text = command.help
            binding_id = getattr(command, "binding_id", None)
            if binding_id:
                help_text = f"{help_text}  ({app.binding_key(binding_id)})"
            found.append((command.title, help_text, command.callback))
        return found


class ThemePickerProvider(Provider):
    """Every theme; highlighting one previews it (the app), choosing one keeps and saves it."""

    def _names(self) -> list[str]:
        return sorted(self.app.available_themes)

    def _choose(self, name: str) -> None:
        app = cast("_ChoosesThemes", self.app)
        app.choose_theme(name)

    async def discover(self) -> Hits:
        for name in self._names():
            yield DiscoveryHit(name, partial(self._choose, name), text=name)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name in self._names():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(self._choose, name), text=name)
