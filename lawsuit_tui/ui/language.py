"""Switching the interface language at run time, from the command palette.

Two ways for the app to offer it (both list "Language: English" and "Language: Português
(Brasil)", found by typing "language", "idioma" or the language's name):

* ``yield from language_system_commands(self)`` in ``App.get_system_commands``, or
* ``LanguageProvider`` in the app's ``COMMANDS``.

Choosing one calls :func:`switch_language`: it sets the language, redoes every binding
description (the Footer, the help screen, the palette's key hints, and screens built later),
redoes the texts widgets were given (:func:`retranslate_widgets`), redraws every screen so
that text produced at render time follows, posts ``LanguageChanged`` (``ui/messages.py``) to
the app and to every screen, whose handler redoes what it built from its data (a lookup's
title, a lawsuit's tree), remembers the choice in the config file through
``save_preferences`` (in a thread worker) and says so in the new language. No screen is
built again: what the user typed, opened or scrolled to stays (D148).

Binding descriptions are made by ``_()`` in class bodies, at import time; they are redone
through :func:`lawsuit_tui.i18n.retranslate`, which knows every text ``_`` produced.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.fuzzy import Matcher

from lawsuit_tui.i18n import (
    LANGUAGE_NAMES,
    SUPPORTED,
    _,
    current_language,
    retranslate,
    set_language,
)
from lawsuit_tui.ui.messages import LanguageChanged, every_screen
from lawsuit_tui.ui.palette import ListedCommands

# Words that find the commands whatever language the interface is in.
SEARCH_ALIASES = "language idioma língua"


def _retranslated(binding: Binding) -> Binding:
    description = retranslate(binding.description) if binding.description else ""
    tooltip = retranslate(binding.tooltip) if binding.tooltip else ""
    if description == binding.description and tooltip == binding.tooltip:
        return binding
    return dataclasses.replace(binding, description=description, tooltip=tooltip)


def _retranslate_map(bindings: BindingsMap) -> None:
    for key, items in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [_retranslated(binding) for binding in items]


def _node_classes(root: type[DOMNode]) -> Iterator[type[DOMNode]]:
    seen: set[type[DOMNode]] = set()
    pending = [root]
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        yield cls
        pending.extend(cls.__subclasses__())


def retranslate_class_bindings() -> None:
    """Redo the binding descriptions of every Textual class (App, Screen, Widget subclasses)
    in the current language: what instances made from now on copy."""
    for cls in _node_classes(DOMNode):
        merged = cls.__dict__.get("_merged_bindings")
        if isinstance(merged, BindingsMap):
            _retranslate_map(merged)


def retranslate_bindings(app: App[Any]) -> None:
    """Redo every binding description in the current language.

    Textual copies a class's merged bindings into each instance: both the class-level maps
    (for screens and widgets made later) and the live ones (app, screens, widgets) are redone.
    """
    retranslate_class_bindings()
    nodes: list[DOMNode] = [app]
    for screen in every_screen(app):
        nodes.extend(screen.walk_children(with_self=True))
    for node in nodes:
        _retranslate_map(node._bindings)


def _remember_by_default(app: App[Any]) -> bool:
    # LawsuitApp(remember_preferences=False) in tests: never write the developer's config.
    for name in ("remember_preferences", "_remember"):
        value = getattr(app, name, None)
        if isinstance(value, bool):
            return value
    return True


def _save(language: str) -> None:
    from lawsuit_tui.config import save_preferences

    save_preferences({"language": language})


def retranslate_widgets(root: DOMNode) -> None:
    """Redo, in the current language, the texts widgets were given in another: column
    headers, placeholders, labels, buttons, check boxes, titles and borders made by ``_``.

    Texts built from a template and values (``_("{n} lawsuits").format(...)``) are not
    theirs to redo: the screen that made them redoes them on ``LanguageChanged``."""
    from rich.text import Text
    from textual.widget import Widget
    from textual.widgets import Button, Collapsible, DataTable, Input, Static
    from textual.widgets._toggle_button import ToggleButton

    for node in root.walk_children(Widget, with_self=False):
        if node.border_title:
            node.border_title = retranslate(str(node.border_title))
        if node.border_subtitle:
            node.border_subtitle = retranslate(str(node.border_subtitle))
        if isinstance(node, DataTable):
            changed = False
            for column in node.columns.values():
                label = retranslate(column.label.plain)
                if label != column.label.plain:
                    column.label = Text(label, style=column.label.style)
                    changed = True
            if changed:
                node._require_update_dimensions = True
                node.refresh()
            redraw = getattr(node, "redraw_rows", None)
            if callable(redraw):
                redraw()  # rows that show words (statuses, kinds) follow too
        elif isinstance(node, Input):
            if node.placeholder:
                node.placeholder = retranslate(node.placeholder)
        elif isinstance(node, Button):
            label = node.label.plain if isinstance(node.label, Text) else str(node.label)
            node.label = retranslate(label)
        elif isinstance(node, ToggleButton):
            node.label = retranslate(node.label.plain)
        elif isinstance(node, Collapsible):
            node.title = retranslate(node.title)
        elif isinstance(node, Static) and isinstance(node.content, str) and node.content:
            node.update(retranslate(node.content))


def switch_language(app: App[Any], language: str, *, remember: bool | None = None) -> str:
    """Show the interface in ``language`` ("en" or "pt-BR") from now on; returns it.

    Every screen of every mode stays as it is (what was typed, the place in a list, an open
    lawsuit) and redoes its texts: widgets' own texts here (:func:`retranslate_widgets`),
    the ones a screen built from its data in its ``LanguageChanged`` handler (D148).
    ``remember`` (default: the app's ``remember_preferences``, else True) writes the choice
    to the config file, in a thread worker whose failure reaches the app's error handler.
    """
    applied = set_language(language)
    zone_follows = getattr(app, "apply_display_zone", None)
    if callable(zone_follows) and getattr(app, "_settings", None) is not None:
        zone_follows()  # before any text is redone: times follow the language's default zone
    retranslate_bindings(app)
    for screen in every_screen(app):
        retranslate_widgets(screen)
    settings = getattr(app, "settings", None)
    if settings is not None and hasattr(settings, "language"):
        # A settings object that refuses the value keeps its own; the file is still written.
        with contextlib.suppress(ValueError):
            settings.language = applied
    for screen in every_screen(app):
        for node in screen.walk_children(with_self=True):
            node.refresh()
        screen.post_message(LanguageChanged(applied))
    app.refresh_bindings()
    app.post_message(LanguageChanged(applied))
    if _remember_by_default(app) if remember is None else remember:
        app.run_worker(
            partial(_save, applied),
            name="save language",
            group="app.language",
            thread=True,
            exclusive=True,
            exit_on_error=False,
        )
    app.notify(
        _("Interface language: {name}").format(name=LANGUAGE_NAMES[applied]),
        timeout=4,
    )
    return applied


@contextlib.contextmanager
def interface_language(language: str) -> Iterator[str]:
    """Build apps in ``language`` inside the block (for tests and screenshots), then go back.

    ``with interface_language("pt-BR"): app = LawsuitApp(...); ...`` gives Portuguese binding
    descriptions even though the ui modules were imported (class bodies run) in English.
    """
    previous = current_language()
    applied = set_language(language)
    retranslate_class_bindings()
    try:
        yield applied
    finally:
        set_language(previous)
        retranslate_class_bindings()


def language_choices() -> list[tuple[str, str, str]]:
    """(language, title, help) of each language, in the current language."""
    current = current_language()
    choices = []
    for language in SUPPORTED:
        title = _("Language: {name}").format(name=LANGUAGE_NAMES[language])
        help_text = (
            _("The interface is in this language")
            if language == current
            else _("Show the interface in this language (remembered)")
        )
        choices.append((language, title, help_text))
    return choices


def language_system_commands(app: App[Any]) -> Iterable[SystemCommand]:
    """For ``App.get_system_commands``: one command per language."""
    for language, title, help_text in language_choices():
        # Textual's system-commands search matches the title only: "idioma" finds these under
        # pt-BR and "language" under English; LanguageProvider finds both in either.
        yield SystemCommand(title, help_text, partial(switch_language, app, language))


class LanguageProvider(ListedCommands):
    """Command palette provider: "Language: English" / "Language: Português (Brasil)"."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        return [
            (title, help_text, partial(switch_language, self.app, language))
            for language, title, help_text in language_choices()
        ]

    def _score(self, matcher: Matcher, title: str) -> float:
        return max(matcher.match(title), matcher.match(f"{SEARCH_ALIASES} {title}"))
