"""One translation function for every user-facing string.

Every string a person reads (TUI labels, notices, CLI help and messages) goes through
``_()`` (or ``ngettext`` for plurals), so that the pt-BR catalogue in
``lawsuit_tui/locale`` can cover the whole interface. Data from the service is never
translated. The catalogue is compiled to ``.mo`` and committed (see ``scripts``/tests).
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "lawsuit_tui"
LOCALE_DIR = Path(__file__).with_name("locale")
SUPPORTED = ("en", "pt-BR")
DEFAULT_LANGUAGE = "en"

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_current = DEFAULT_LANGUAGE


def normalize_language(value: str | None) -> str | None:
    """Map "pt_BR.UTF-8", "pt-br", "pt" to "pt-BR" and "en_US" to "en"; None if unknown."""
    if not value:
        return None
    base = value.split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
    if base in ("c", "posix"):
        return None
    if base.startswith("pt"):
        return "pt-BR"
    if base.startswith("en"):
        return "en"
    return None


def detect_language(configured: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The configured language, else LC_ALL / LC_MESSAGES / LANG, else English."""
    found = normalize_language(configured)
    if found:
        return found
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        found = normalize_language(env.get(var))
        if found:
            return found
    return DEFAULT_LANGUAGE


def set_language(language: str) -> str:
    """Switch the process-wide language; returns the language now in force."""
    global _translation, _current
    lang = normalize_language(language) or DEFAULT_LANGUAGE
    if lang == "en":
        _translation = _gettext.NullTranslations()
    else:
        _translation = _gettext.translation(
            DOMAIN, localedir=LOCALE_DIR, languages=[lang.replace("-", "_")], fallback=True
        )
    _current = lang
    return lang


def current_language() -> str:
    return _current


def _(message: str) -> str:
    """Translate a user-facing message into the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet (module-level constants)."""
    return message
