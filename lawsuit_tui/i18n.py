"""One translation function for every user-facing string.

Every string a person reads (TUI labels, notices, CLI help and messages) goes through
``_()`` (or ``ngettext`` for plurals), so that the pt-BR catalogue in
``lawsuit_tui/locale`` can cover the whole interface. Data from the service is never
translated. The catalogue is compiled to ``.mo`` and committed (see ``scripts``/tests).

argparse's own words ("usage:", "options:", its error messages) are looked up through
``argparse._`` and ``argparse.ngettext`` (module globals bound by ``from gettext import
gettext as _, ngettext``); ``set_language`` points those two names at our catalogue, whose ids
for them are listed in ``ARGPARSE_MESSAGES``. See docs/i18n.md.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

DOMAIN = "lawsuit_tui"
LOCALE_DIR = Path(__file__).with_name("locale")
SUPPORTED = ("en", "pt-BR")
DEFAULT_LANGUAGE = "en"

LANGUAGE_NAMES: Final[Mapping[str, str]] = {"en": "English", "pt-BR": "Português (Brasil)"}
"""Each language named in itself (never translated), as language pickers do."""

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_current = DEFAULT_LANGUAGE
# Translated text -> its message id, for every message `_` translated in this process, so that
# text built under one language (binding descriptions made in class bodies) can be redone in
# another: see retranslate().
_reverse: dict[str, str] = {}


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
    _install_argparse()
    return lang


def _install_argparse() -> None:
    """Make argparse's own words ("usage:", "options:", errors) use our catalogue."""
    import argparse

    # argparse looks these two module globals up at call time (Python 3.11 to 3.13).
    setattr(argparse, "_", _)  # noqa: B010 (the name is not a valid attribute for mypy)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010


def current_language() -> str:
    return _current


def _(message: str) -> str:
    """Translate a user-facing message into the current language."""
    translated = _translation.gettext(message)
    if translated is not message:
        _reverse[translated] = message
    return translated


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate a message whose English word has two meanings, told apart by ``context``
    (``pgettext("keyboard", "Key")`` is "Tecla", ``pgettext("customer", "Key")`` "Chave")."""
    translated = _translation.pgettext(context, message)
    if translated is not message:
        _reverse[translated] = message
    return translated


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _translation.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it yet (module-level constants)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction; translate at use with ``ngettext(*pair, n)``."""
    return singular, plural


def untranslate(text: str) -> str:
    """The message id behind ``text`` if ``_`` produced it in this process, else ``text``."""
    return _reverse.get(text, text)


def retranslate(text: str) -> str:
    """``text``, made by ``_`` in any language, in the current language.

    Text that ``_`` did not produce (data, or English that has no translation) is looked up as
    a message id, so English text from before a switch is translated too.
    """
    return _(untranslate(text))


# argparse's messages (Python 3.11), so that extraction puts them in our catalogue. The test
# suite compares this list with the running interpreter's argparse.
ARGPARSE_MESSAGES: Final[tuple[str, ...]] = (
    N_("usage: "),
    N_("argument %(argument_name)s: %(message)s"),
    N_(".__call__() not defined"),
    N_("conflicting subparser: %s"),
    N_("conflicting subparser alias: %s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_('argument "-" with mode %r'),
    N_("can't open '%(filename)s': %(error)s"),
    N_("cannot merge actions - two groups are named %r"),
    N_("'required' is an invalid argument for positionals"),
    N_("invalid option string %(option)r: must start with a character %(prefix_chars)r"),
    N_("dest= is required for options like %r"),
    N_("invalid conflict_resolution value: %r"),
    N_("mutually exclusive arguments must be optional"),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("cannot have multiple subparser arguments"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("%r is not callable"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    # Not looked up by argparse 3.11 itself: the CLI passes it as the --version help.
    N_("show program's version number and exit"),
)
ARGPARSE_PLURALS: Final[tuple[tuple[str, str], ...]] = (
    Nn_("conflicting option string: %s", "conflicting option strings: %s"),
    Nn_("expected %s argument", "expected %s arguments"),
)
