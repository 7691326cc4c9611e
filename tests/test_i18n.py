"""The pt-BR catalogue is complete, compiled and consistent, and nothing user-facing escapes `_`.

The catalogue checks reuse scripts/i18n.py (Babel's extractor over lawsuit_tui/), so the test
and the maintainer's tool cannot disagree about what a message id is.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest

from lawsuit_tui import i18n
from lawsuit_tui.i18n import _, detect_language, ngettext, set_language

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lawsuit_tui"


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("i18n_tool", module)
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


@pytest.fixture(scope="module")
def template() -> Any:
    return tool.extract()


@pytest.fixture(scope="module")
def catalog() -> Any:
    return tool.read_catalog(tool.PO, tool.LOCALE)


# --- (1) the catalogue compiles and the committed .mo is the compiled .po ------------------


def test_po_compiles_and_committed_mo_matches_it(catalog: Any) -> None:
    fresh = tool.mo_messages(tool.compiled(catalog))
    assert fresh, "the compiled catalogue holds no translation"
    committed = tool.mo_messages(tool.MO.read_bytes())
    missing = sorted(map(repr, set(fresh) - set(committed)))
    stale = sorted(repr(k) for k in set(fresh) & set(committed) if fresh[k] != committed[k])
    extra = sorted(map(repr, set(committed) - set(fresh)))
    assert (missing, stale, extra) == ([], [], []), "run: uv run python scripts/i18n.py compile"


def test_compiled_catalogue_loads_with_the_standard_library() -> None:
    import gettext

    with tool.MO.open("rb") as handle:
        translation = gettext.GNUTranslations(handle)
    assert translation.info()["language"] == "pt_BR"
    assert translation.info()["plural-forms"].startswith("nplurals=2;")


# --- (2) every id in the source has a reviewed translation ---------------------------------


def test_every_extracted_id_has_a_pt_br_translation(template: Any, catalog: Any) -> None:
    problems = [p for p in tool.problems(template, catalog) if not p.startswith("placeholders")]
    assert problems == [], "\n".join(
        ["run: uv run python scripts/i18n.py update, then translate:", *problems]
    )


def test_extraction_finds_the_cli_the_tui_and_argparse_ids(template: Any) -> None:
    found = tool.ids(template)
    assert "show this help message and exit" in found  # via ARGPARSE_MESSAGES
    assert "print JSON" in found  # cli.py
    assert "Lookup" in found  # ui/navigation.py, N_
    assert ("expected %s argument", "expected %s arguments") in found  # Nn_


# --- (3) placeholders survive translation --------------------------------------------------


def test_placeholders_are_the_same_in_id_and_translation(template: Any, catalog: Any) -> None:
    problems = [p for p in tool.problems(template, catalog) if p.startswith("placeholders")]
    assert problems == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{value!r} is not a port", ["{value!r}"]),
        ("Day {day} does not exist in {month:02d}/{year}", ["{day}", "{month:02d}", "{year}"]),
        ("%(prog)s: error: %(message)s\n", ["%(message)s", "%(prog)s"]),
        ("expected %s argument", ["%s"]),
        ("100%% sure, {{literal}}", []),
    ],
)
def test_placeholder_parsing(text: str, expected: list[str]) -> None:
    assert tool.placeholders(text) == sorted(expected)


def test_a_translation_that_drops_a_placeholder_is_reported(template: Any) -> None:
    from babel.messages.catalog import Catalog

    broken = Catalog(locale="pt_BR")
    for message in template:
        if message.id:
            broken.add(message.id, message.id, context=message.context)
    broken["{value!r} is not a whole number"].string = "não é um número inteiro"
    problems = tool.problems(template, broken)
    assert len(problems) == 1 and "placeholders differ" in problems[0]


# --- (3b) no message writes a key by hand --------------------------------------------------

# A key named in a message must be a placeholder filled with the key the user has (after the
# keymap, in words: ui/keys.py), never a literal "r" or "Enter" that may not work there.
_KEY = (
    r"(?:Enter|Escape|Esc|Space|Espaço|Tab|Del|Backspace|Home|End|PgUp|PgDn|F[1-9][0-2]?"
    r"|[Cc]trl[+-]\w+|[Ss]hift\+\w+|[Aa]lt\+\w+)"
)
KEY_NAMED_BY_HAND = [
    re.compile(r"\b(?:[Pp]ress|[Tt]ecle|[Pp]ressione)\s+(?:[a-z/?](?![\w-])|" + _KEY + r")"),
    re.compile(
        r"(?<![\w{])[a-z/?]\s+(?:asks|opens|loads|stops|closes|cancels|saves|clears|shows"
        r"|expands|filters|copies|goes|sends|counts|deletes)\b"
    ),
    re.compile(r"\((?:" + _KEY + r")\)"),
    re.compile(r"(?<![\w{])" + _KEY + r"(?![\w}])"),
]
# Words that are keys only in other sentences, and the terminal's own Ctrl-C in the CLI.
KEY_WORDS_ALLOWED = {"Writing to the cache at {path}. Ctrl-C stops."}
KEY_WORD_IDS = {"Enter", "Esc", "Space", "Tab", "Backspace", "Del", "Ins", "Home", "End"}
KEY_WORD_IDS |= {"PgUp", "PgDn"}  # ui/keys.py: the names of the keys themselves


def keys_named_by_hand(text: str) -> list[str]:
    return [m.group(0) for pattern in KEY_NAMED_BY_HAND for m in pattern.finditer(text)]


def test_no_message_names_a_key_by_hand(template: Any, catalog: Any) -> None:
    translations = {
        message.id: message.string for message in catalog if message.id and not message.fuzzy
    }
    offenders: list[str] = []
    for message_id in tool.ids(template):
        for text in message_id if isinstance(message_id, tuple) else (message_id,):
            if text in KEY_WORDS_ALLOWED or text in KEY_WORD_IDS:
                continue
            found = keys_named_by_hand(text)
            translated = translations.get(message_id)
            for shown in translated if isinstance(translated, tuple) else (translated or "",):
                found += keys_named_by_hand(shown) if shown not in KEY_WORD_IDS else []
            if found:
                offenders.append(f"{text!r}: {found}")
    assert offenders == [], "name keys with a placeholder (ui/keys.py):\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "text",
    [
        "Press r to ask the court.",
        "Provisional copy · r asks the court",
        "Send (F10)",
        "Enter opens the lawsuit.",
        "Tecle r para consultar",
        "Cancelar (Esc)",
        "ctrl+r refreshes",
    ],
)
def test_the_key_scan_catches_keys_written_by_hand(text: str) -> None:
    assert keys_named_by_hand(text)


@pytest.mark.parametrize(
    "text",
    [
        "Press {key} to ask the court.",
        "{key} asks the court for fresh data",
        "Send ({key})",
        "Delete request",
        "The endpoint answered",
        "Type a CNJ number, then {submit}",
    ],
)
def test_the_key_scan_leaves_placeholders_and_plain_words(text: str) -> None:
    assert keys_named_by_hand(text) == []


# --- (4) no user-facing literal escapes `_` ------------------------------------------------

# Words that are the same in both languages (names of documents, formats, the product).
SAME_IN_BOTH = {
    "API",
    "CIDR",
    "CNJ",
    "CNPJ",
    "CPF",
    "CSV",
    "HTTP",
    "ID",
    "JSON",
    "JSONL",
    "OAB",
    "OSC",
    "UF",
    "URL",
    "UTC",
    "lawsuit-tui",
}
# (file relative to the project, literal) that are genuinely not translatable.
ALLOWED: set[tuple[str, str]] = {
    # Court acronyms as an example of input.
    ("lawsuit_tui/ui/requests/request_form.py", "TJSP, TRF3"),
}

ADDRESS = re.compile(r"\S+://\S*|\S+@\S+")
MARKUP = re.compile(r"\[/?[a-z@#$][^\[\]]*\]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(?[a-z_]*\)?[sdr]")
WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ-]*[A-Za-zÀ-ÿ]")
WRAPPERS = {"_", "N_", "ngettext", "Nn_"}

TEXT_CALLS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    # name: (positional indexes, keywords) holding text a person reads
    "notify": ((0,), ("message", "title")),
    "Label": ((0,), ("content", "renderable")),
    "Static": ((0,), ("content", "renderable")),
    "Button": ((0,), ("label",)),
    "Checkbox": ((0,), ("label",)),
    "RadioButton": ((0,), ("label",)),
    "Switch": ((), ("tooltip",)),
    "TabPane": ((0,), ("title",)),
    "Collapsible": ((), ("title",)),
    "Binding": ((2,), ("description", "tooltip")),
    "Input": ((), ("placeholder", "tooltip")),
    "_field": ((0,), ("placeholder",)),  # request_form.py's labelled Input
    "Select": ((), ("prompt",)),
    "SystemCommand": ((0, 1), ("title", "help")),
    "PaletteCommand": ((0, 1), ("title", "help")),
    "DiscoveryHit": ((0,), ("help",)),
    "add_column": ((0,), ("label",)),
    "Tab": ((0,), ("label",)),
    "Option": ((0,), ("prompt",)),
    "Markdown": ((0,), ("markdown",)),
    "set_title": ((0,), ()),
}
CLI_CALLS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "print": ((0, 1, 2, 3), ()),
    "add_argument": ((), ("help",)),
    "add_parser": ((), ("help", "description")),
    "add_argument_group": ((0, 1), ("title", "description")),
    "add_subparsers": ((), ("title", "description", "help")),
    "ArgumentParser": ((), ("description", "epilog")),
    "error": ((0,), ()),
    "_error": ((0,), ()),
    "ArgumentTypeError": ((0,), ()),
}
TEXT_ATTRIBUTES = {"title", "sub_title", "border_title", "border_subtitle", "tooltip"}
CLASS_TEXT = {"TITLE", "SUB_TITLE", "TITLE_TEXT", "HELP_TEXT"}


def has_words(text: str) -> bool:
    stripped = PLACEHOLDER.sub(" ", MARKUP.sub(" ", ADDRESS.sub(" ", text)))
    return any(word not in SAME_IN_BOTH for word in WORD.findall(stripped))


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def bare_literals(node: ast.expr | None) -> Iterator[str]:
    """Literal text in an expression that reaches the user without going through `_`."""
    if node is None:
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if has_words(node.value):
            yield node.value
    elif isinstance(node, ast.JoinedStr):
        literal = "".join(
            part.value
            for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
        if has_words(literal):
            yield literal
    elif isinstance(node, ast.BinOp):
        yield from bare_literals(node.left)
        yield from bare_literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from bare_literals(node.body)
        yield from bare_literals(node.orelse)
    elif isinstance(node, ast.Call):
        name = _name(node.func)
        if name in WRAPPERS:
            return
        if name in ("format", "join") and isinstance(node.func, ast.Attribute):
            yield from bare_literals(node.func.value)
        elif name in ("Text", "from_markup") and node.args:
            yield from bare_literals(node.args[0])


def _is_log_call(call: ast.Call) -> bool:
    # log.error("...") is for developers, not a user-facing message.
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name | ast.Attribute)
        and "log" in _name(func.value).lower()
    )


def _checked_args(
    call: ast.Call, spec: tuple[tuple[int, ...], tuple[str, ...]]
) -> Iterator[ast.expr]:
    positions, keywords = spec
    for index in positions:
        if index < len(call.args) and not isinstance(call.args[index], ast.Starred):
            yield call.args[index]
    for keyword in call.keywords:
        if keyword.arg in keywords:
            yield keyword.value


def escapes(path: Path, calls: dict[str, tuple[tuple[int, ...], tuple[str, ...]]]) -> list[str]:
    """'file:line: literal' for each user-facing literal not wrapped in `_`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    relative = path.relative_to(ROOT).as_posix()
    found: list[tuple[int, str]] = []

    def report(line: int, node: ast.expr | None) -> None:
        for literal in bare_literals(node):
            if (relative, literal) not in ALLOWED:
                found.append((line, literal))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            spec = calls.get(_name(node.func))
            if spec is not None and not _is_log_call(node):
                for arg in _checked_args(node, spec):
                    report(node.lineno, arg)
            if _name(node.func) in WRAPPERS and node.args:
                first = node.args[0]
                if not isinstance(first, ast.Constant | ast.Name | ast.Attribute | ast.Subscript):
                    found.append((node.lineno, "<_() of a computed string: not extractable>"))
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.Assign | ast.AnnAssign):
                    targets = (
                        statement.targets
                        if isinstance(statement, ast.Assign)
                        else [statement.target]
                    )
                    names = {t.id for t in targets if isinstance(t, ast.Name)}
                    if names & CLASS_TEXT:
                        report(statement.lineno, statement.value)
                    if "BINDINGS" in names and isinstance(statement.value, ast.List | ast.Tuple):
                        for item in statement.value.elts:
                            if isinstance(item, ast.Tuple) and len(item.elts) >= 3:
                                report(statement.lineno, item.elts[2])
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in TEXT_ATTRIBUTES:
                    report(node.lineno, node.value)
    return [f"{relative}:{line}: {literal!r}" for line, literal in sorted(found)]


def _files(*patterns: str) -> list[Path]:
    return sorted({path for pattern in patterns for path in PACKAGE.glob(pattern)})


def test_no_user_facing_literal_escapes_the_translation_function_in_the_tui() -> None:
    found = [line for path in _files("ui/**/*.py") for line in escapes(path, TEXT_CALLS)]
    assert found == [], "wrap these in _() (or add to ALLOWED with a reason):\n" + "\n".join(found)


def test_no_user_facing_literal_escapes_the_translation_function_in_the_cli() -> None:
    paths = _files("commands/*.py", "cli.py", "webhooks/*.py")
    found = [line for path in paths for line in escapes(path, CLI_CALLS | TEXT_CALLS)]
    assert found == [], "wrap these in _() (or add to ALLOWED with a reason):\n" + "\n".join(found)


def test_the_escape_check_catches_what_it_should(tmp_path: Path) -> None:
    sample = PACKAGE / "ui" / "_i18n_probe_never_committed.py"
    source = """
from textual.binding import Binding
class S:
    TITLE = "Lawsuits"
    BINDINGS = [("q", "quit", "Quit"), Binding("x", "y", _("Fine"))]
    def f(self, n):
        self.notify("Saved the file")
        self.notify(_("Saved {n}").format(n=n))
        self.notify(f"{n}: {n}")
        self.title = f"Lawsuit {n}"
        Static(_("ok") + " — CNJ")
        Label("[b]{n}[/b]")
        Input(placeholder="Type a CPF")
        _(f"no {n}")
"""
    sample.write_text(source, encoding="utf-8")
    try:
        found = escapes(sample, TEXT_CALLS)
    finally:
        sample.unlink()
    literals = [line.split(": ", 1)[1] for line in found]
    assert literals == [
        "'Lawsuits'",
        "'Quit'",
        "'Saved the file'",
        "'Lawsuit '",
        "'Type a CPF'",
        "'<_() of a computed string: not extractable>'",
    ]


def _binding_description_ids() -> set[str]:
    found: set[str] = set()
    for path in _files("ui/**/*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node.func) == "Binding":
                args = list(_checked_args(node, ((2,), ("description",))))
                for arg in args:
                    if (
                        isinstance(arg, ast.Call)
                        and _name(arg.func) == "_"
                        and arg.args
                        and isinstance(arg.args[0], ast.Constant)
                    ):
                        found.add(str(arg.args[0].value))
    return found


def test_binding_descriptions_translate_back_unambiguously(catalog: Any) -> None:
    """A language switch redoes binding descriptions from their text (i18n.retranslate), so
    the pt-BR text of a binding must belong to that binding's id alone."""
    owners: dict[str, set[str]] = {}
    for message in catalog:
        if message.id and isinstance(message.id, str) and message.string:
            owners.setdefault(message.string, set()).add(message.id)
    clashes = {
        description: sorted(owners[text])
        for description in _binding_description_ids()
        if (text := catalog[description].string if description in catalog else "")
        and len(owners.get(text, ())) > 1
    }
    assert clashes == {}


# --- (5) the language switch ---------------------------------------------------------------

SAMPLES = {
    "Lookup": "Consulta",
    "Requests": "Requisições",
    "Trackings": "Monitoramentos",
    "Vault": "Cofre",
    "Count": "Contagem",
    "Parties": "Partes",
    "Attachments": "Anexos",
    "Judicial district": "Comarca",
    "Court": "Tribunal",
    "Quit": "Sair",
    "Help": "Ajuda",
    "usage: ": "uso: ",
}


def test_pt_br_makes_underscore_answer_in_portuguese() -> None:
    assert set_language("pt-BR") == "pt-BR"
    assert i18n.current_language() == "pt-BR"
    assert {msgid: _(msgid) for msgid in SAMPLES} == SAMPLES
    assert ngettext("{n} response", "{n} responses", 1) == "{n} resposta"
    assert ngettext("{n} response", "{n} responses", 3) == "{n} respostas"
    set_language("en")
    assert {msgid: _(msgid) for msgid in SAMPLES} == {msgid: msgid for msgid in SAMPLES}


def test_retranslate_goes_both_ways() -> None:
    set_language("pt-BR")
    made_in_portuguese = _("Quit")
    set_language("en")
    assert i18n.retranslate(made_in_portuguese) == "Quit"
    set_language("pt-BR")
    assert i18n.retranslate("Quit") == "Sair"
    assert i18n.retranslate("data from the service") == "data from the service"


def _help_and_error(argv: list[str]) -> tuple[str, str]:
    from lawsuit_tui.cli import build_parser

    parser = build_parser()
    help_text = parser.format_help()
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), pytest.raises(SystemExit):
        parser.parse_args(argv)
    return help_text, stderr.getvalue()


def test_argparse_speaks_portuguese_under_pt_br() -> None:
    set_language("pt-BR")
    help_text, error = _help_and_error(["--no-such-option"])
    assert help_text.startswith("uso: lawsuit-tui")
    assert "opções:" in help_text
    assert "mostrar esta ajuda e sair" in help_text
    assert "lawsuit-tui: erro: argumentos não reconhecidos: --no-such-option" in error
    _help, error = _help_and_error(["count", "--kind", "nope"])
    assert "opção inválida: 'nope' (escolha entre" in error
    set_language("en")
    help_text, error = _help_and_error(["--no-such-option"])
    assert help_text.startswith("usage: lawsuit-tui")
    assert "error: unrecognized arguments" in error


def test_argparse_messages_of_this_python_are_all_listed() -> None:
    from babel.messages.extract import extract_from_file

    found = set()
    keywords: dict[str, tuple[int, ...] | None] = {"_": None, "ngettext": (1, 2)}
    for _line, message, _comments, _context in extract_from_file(
        "python", argparse.__file__, keywords=keywords
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    listed = set(i18n.ARGPARSE_MESSAGES) | set(i18n.ARGPARSE_PLURALS)
    missing = sorted(map(repr, found - listed))
    if missing and sys.version_info[:2] != (3, 11):
        pytest.skip(f"argparse of Python {sys.version_info[:2]} has new messages: {missing}")
    assert missing == []


# --- (6) which language applies ------------------------------------------------------------


@pytest.mark.parametrize(
    ("configured", "environ", "expected"),
    [
        ("pt-BR", {"LANG": "en_US.UTF-8"}, "pt-BR"),
        ("en", {"LC_ALL": "pt_BR.UTF-8"}, "en"),
        ("pt_BR", {}, "pt-BR"),
        (None, {"LC_ALL": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"}, "pt-BR"),
        (None, {"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_GB.UTF-8"}, "pt-BR"),
        (None, {"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        (None, {"LANG": "pt"}, "pt-BR"),
        (None, {"LC_ALL": "C", "LANG": "pt_BR.UTF-8"}, "pt-BR"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {}, "en"),
        ("auto", {"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ("klingon", {}, "en"),
    ],
)
def test_detect_language_precedence(
    configured: str | None, environ: dict[str, str], expected: str
) -> None:
    assert detect_language(configured, environ) == expected


# --- the palette's language switch ---------------------------------------------------------


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(path.read_text(encoding="utf-8"))


async def test_switching_language_redoes_bindings_and_remembers_it(
    isolated_config: Path,
) -> None:
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.screen import Screen
    from textual.widgets import Footer

    from lawsuit_tui.ui.language import LanguageChanged, LanguageProvider, switch_language

    class Later(Screen[None]):
        BINDINGS: ClassVar = [Binding("x", "noop", _("Help"), id="probe.later")]

    class Probe(App[None]):
        BINDINGS: ClassVar = [Binding("q", "quit", _("Quit"), id="probe.quit")]
        COMMANDS = App.COMMANDS | {LanguageProvider}
        seen: ClassVar[list[str]] = []

        def compose(self) -> ComposeResult:
            yield Footer()

        def on_language_changed(self, message: LanguageChanged) -> None:
            self.seen.append(message.language)

    def descriptions(bindings: Any) -> set[str]:
        return {binding.description for _key, binding in bindings}

    app = Probe()
    try:
        async with app.run_test() as pilot:
            switch_language(app, "pt-BR")
            await pilot.pause()
            await app.workers.wait_for_complete()
            assert "Sair" in descriptions(app._bindings)
            assert "Ajuda" in descriptions(Later()._bindings)
            assert Probe.seen == ["pt-BR"]
            stored = _read_toml(isolated_config)
            assert stored["language"] == "pt-BR"

            provider = LanguageProvider(app.screen)
            titles = [hit.text async for hit in provider.search("idioma")]
            assert titles == ["Idioma: English", "Idioma: Português (Brasil)"]

            switch_language(app, "en", remember=False)
            await pilot.pause()
            assert "Quit" in descriptions(app._bindings)
            assert "Help" in descriptions(Later()._bindings)
            titles = [hit.text async for hit in provider.search("idioma")]
            assert titles == ["Language: English", "Language: Português (Brasil)"]
    finally:
        set_language("en")
        from lawsuit_tui.ui.language import retranslate_class_bindings

        retranslate_class_bindings()
    stored = _read_toml(isolated_config)
    assert stored["language"] == "pt-BR"  # remember=False left the file alone


async def test_switching_language_keeps_every_screen_and_redoes_its_texts() -> None:
    # D148: no screen is built again (what was typed and opened stays); the texts widgets
    # were given follow, in every mode, under a pushed screen too.
    from textual.app import App, ComposeResult
    from textual.screen import Screen
    from textual.widgets import Input, Label

    from lawsuit_tui.ui.language import retranslate_class_bindings, switch_language

    class Titled(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Label(_("Lookup"), id="title")
            yield Input(placeholder=_("Search field"), id="typed")

    class Covering(Screen[None]):
        pass

    class Modes(App[None]):
        MODES: ClassVar = {"one": Titled, "two": Titled, "three": Titled}

        def on_mount(self) -> None:
            self.switch_mode("one")

    def text(screen: Screen[Any]) -> str:
        return str(screen.query_one("#title", Label).render())

    app = Modes()
    try:
        async with app.run_test() as pilot:
            await app.switch_mode("two")
            under = app.screen
            await app.push_screen(Covering())
            await app.switch_mode("three")
            await app.switch_mode("one")
            first_one = app.screen
            first_one.query_one("#typed", Input).value = "0001234"
            switch_language(app, "pt-BR", remember=False)
            await pilot.pause()
            assert app.screen is first_one
            assert text(first_one) == "Consulta"
            assert first_one.query_one("#typed", Input).value == "0001234"
            assert first_one.query_one("#typed", Input).placeholder == "Campo de busca"
            assert text(under) == "Consulta"
            await app.switch_mode("three")
            assert text(app.screen) == "Consulta"
    finally:
        set_language("en")
        retranslate_class_bindings()


def test_interface_language_builds_in_portuguese_and_restores() -> None:
    from textual.binding import Binding
    from textual.screen import Screen

    from lawsuit_tui.ui.language import interface_language

    class Made(Screen[None]):
        BINDINGS: ClassVar = [Binding("x", "noop", _("Help"), id="probe.made")]

    with interface_language("pt-BR") as language:
        assert language == "pt-BR"
        assert "Ajuda" in {b.description for _k, b in Made()._bindings}
    assert i18n.current_language() == "en"
    assert "Help" in {b.description for _k, b in Made()._bindings}


def test_language_module_stays_off_the_network_and_the_cache() -> None:
    from tests.support.python_child import probe_report

    probe = (
        "import json, sys, lawsuit_tui.ui.language; "
        "print(json.dumps([m for m in ('httpx', 'tinydb') if m in sys.modules]))"
    )
    assert probe_report(probe) == []


# --- the main screens in pt-BR at 80x24: longer Portuguese labels must still fit ------------
# Update after checking the pictures: uv run pytest tests/test_i18n.py --snapshot-update

PT_BR_SIZE = (80, 24)


@pytest.fixture
def steady_cursor(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A blinking cursor makes snapshots flaky (as tests/ui/conftest.py does there)."""
    from tests.support.steady_cursor import hold_cursors_steady

    hold_cursors_steady(monkeypatch)
    yield


def _snap_pt_br(snap_compare: Any, steps: Any) -> bool:
    from tests.support.ui_harness import snap_in_language

    async def on_the_harness(pilot: Any, harness: Any) -> None:
        await steps(pilot)

    return snap_in_language(snap_compare, PT_BR_SIZE, on_the_harness, "pt-BR")


async def _goto(pilot: Any, destination: str) -> None:
    from tests.support.ui_harness import settle

    pilot.app.goto(destination)
    await pilot.pause(0.1)
    await settle(pilot)


@pytest.mark.usefixtures("steady_cursor")
def test_pt_br_lookup_results(snap_compare: Any) -> None:
    from tests.support.ui_harness import look_up, samples

    async def steps(pilot: Any) -> None:
        await look_up(pilot, samples()["two_instance_lawsuit"])

    assert _snap_pt_br(snap_compare, steps)


@pytest.mark.usefixtures("steady_cursor")
def test_pt_br_lawsuit(snap_compare: Any) -> None:
    from lawsuit_tui.ui.lawsuit.screen import LawsuitTreeScreen
    from tests.support.ui_harness import look_up, samples, settle, wait_for

    async def steps(pilot: Any) -> None:
        await look_up(pilot, samples()["big_lawsuit"])
        await pilot.press("enter")
        await wait_for(lambda: isinstance(pilot.app.screen, LawsuitTreeScreen), pilot.pause)
        await settle(pilot)

    assert _snap_pt_br(snap_compare, steps)


@pytest.mark.usefixtures("steady_cursor")
def test_pt_br_request_form(snap_compare: Any) -> None:
    async def steps(pilot: Any) -> None:
        await _goto(pilot, "requests")
        await pilot.press("n")
        await pilot.pause(0.1)

    assert _snap_pt_br(snap_compare, steps)


@pytest.mark.usefixtures("steady_cursor")
@pytest.mark.parametrize("destination", ["requests", "trackings", "vault", "count"])
def test_pt_br_destination(snap_compare: Any, destination: str) -> None:
    async def steps(pilot: Any) -> None:
        await _goto(pilot, destination)

    assert _snap_pt_br(snap_compare, steps)


@pytest.mark.usefixtures("steady_cursor")
def test_pt_br_help(snap_compare: Any) -> None:
    async def steps(pilot: Any) -> None:
        await pilot.press("question_mark")  # from the search field: identifiers have no "?"
        await pilot.pause(0.1)

    assert _snap_pt_br(snap_compare, steps)
