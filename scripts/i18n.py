"""The translation catalogue: extract, update, compile, check (and help translating).

    uv run python scripts/i18n.py extract   # lawsuit_tui/**.py -> locale/lawsuit_tui.pot
    uv run python scripts/i18n.py update    # merge the template into the pt-BR .po (keeps work)
    uv run python scripts/i18n.py compile   # pt-BR .po -> .mo (committed: no build step to run)
    uv run python scripts/i18n.py check     # exit 1 if anything is stale, missing or broken
    uv run python scripts/i18n.py all       # extract, update, compile
    uv run python scripts/i18n.py todo      # the ids still untranslated or fuzzy, as JSON
    uv run python scripts/i18n.py apply F   # set translations from a JSON {msgid: msgstr}

Message ids are found with Babel's Python extractor (the ``pybabel extract`` machinery) and
the keywords ``_``, ``N_``, ``ngettext``, ``Nn_``, ``pgettext`` and ``npgettext`` (see
lawsuit_tui/i18n.py). Locations are
written without line numbers, so that edits elsewhere in a file do not churn the catalogue.
``check`` is also ``--check`` for CI scripts. Needs the dev dependency group (babel).
"""

from __future__ import annotations

import argparse
import io
import json
import re
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from tokenize import TokenError
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lawsuit_tui"
LOCALE_DIR = PACKAGE / "locale"
DOMAIN = "lawsuit_tui"
POT = LOCALE_DIR / f"{DOMAIN}.pot"
LOCALE = "pt_BR"
PO = LOCALE_DIR / LOCALE / "LC_MESSAGES" / f"{DOMAIN}.po"
MO = PO.with_suffix(".mo")

KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "Nn_": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
PROJECT = "lawsuit-tui"
HEADER = """\
# {title}
# Maintained with scripts/i18n.py; glossary and rules in docs/i18n.md.
#"""
PLURAL_RULE = "(n != 1)"
"""Brazilian usage writes the plural for zero ("0 processos"), unlike Babel's pt_BR default
(n > 1), which gives "0 processo": the catalogue keeps this rule whatever Babel's locale data."""
BRACE = re.compile(r"(?<!\{)\{[A-Za-z_][^{}]*\}(?!\})")
PERCENT = re.compile(r"%(?:\([A-Za-z_]+\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")


# --- building blocks (tests/test_i18n.py uses these) ---------------------------------------


class SourceError(Exception):
    """A source file could not be read (mid-edit?): the catalogue is left as it was."""


def source_files(package: Path = PACKAGE) -> list[Path]:
    return sorted(
        path
        for path in package.rglob("*.py")
        if "locale" not in path.relative_to(package).parts and "__pycache__" not in path.parts
    )


def _catalog(title: str, **options: Any) -> Catalog:
    """A catalogue with the project's header, ``title`` its first line."""
    return Catalog(
        project=PROJECT,
        version="0.1",
        charset="utf-8",
        fuzzy=False,
        header_comment=HEADER.format(title=title),
        msgid_bugs_address="",
        copyright_holder="lawsuit-tui",
        **options,
    )


def extract(package: Path = PACKAGE) -> Catalog:
    """Every message id of the package, as a template catalogue (SourceError if a file cannot
    be tokenized: extraction never silently drops a file's ids)."""
    catalog = _catalog("Message ids of lawsuit-tui (template).")
    broken: list[str] = []
    for path in source_files(package):
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        try:
            found = extract_from_file(
                "python",
                str(path),
                keywords=KEYWORDS,
                comment_tags=("Translators:",),
                strip_comment_tags=True,
            )
        except (SyntaxError, TokenError, UnicodeDecodeError) as exc:
            broken.append(f"{name}: {exc}")
            continue
        for lineno, message, comments, context in found:
            catalog.add(
                message,
                None,
                [(name, lineno)],
                auto_comments=comments,
                context=context,
                flags=brace_flags(message),
            )
    if broken:
        raise SourceError(
            "cannot read (try again when the file is saved whole):\n  " + "\n  ".join(broken)
        )
    return catalog


def brace_flags(message: str | Sequence[str]) -> tuple[str, ...]:
    first = message if isinstance(message, str) else message[0]
    return ("python-brace-format",) if BRACE.search(first) else ()


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, charset="utf-8")


def ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    """Message ids; plurals as (singular, plural); a context as gettext stores it in a .mo:
    ``"context\x04id"``."""
    return {_of(message) for message in catalog if message.id}


def _key(message_id: str | Sequence[str], context: str | None = None) -> str | tuple[str, ...]:
    prefix = f"{context}\x04" if context else ""
    if isinstance(message_id, str):
        return prefix + message_id
    first, *rest = message_id
    return (prefix + first, *rest)


def _of(message: Message) -> str | tuple[str, ...]:
    context: object = message.context
    if isinstance(context, bytes):  # babel's read_mo leaves the context undecoded
        context = context.decode("utf-8")
    return _key(message.id, context if isinstance(context, str) else None)


def placeholders(text: str) -> list[str]:
    """The format fields of a message, sorted: ``{name}``/``{value!r}`` and ``%(x)s``/``%s``."""
    fields: list[str] = []
    if BRACE.search(text):
        try:
            for _literal, name, spec, conversion in string.Formatter().parse(text):
                if name is not None:
                    fields.append(
                        "{"
                        + name
                        + (f"!{conversion}" if conversion else "")
                        + (f":{spec}" if spec else "")
                        + "}"
                    )
        except ValueError:
            fields.append("<unbalanced braces>")
    fields.extend(match for match in PERCENT.findall(text) if match != "%%")
    return sorted(fields)


def _strings(message: Message) -> list[str]:
    if not message.string:
        return []
    if isinstance(message.string, str):
        return [message.string]
    return [text for text in message.string if text is not None]


def _done(message: Message) -> bool:
    texts = _strings(message)
    return bool(texts) and all(texts)


def problems(template: Catalog, translated: Catalog) -> list[str]:
    """Everything that keeps the catalogue from being complete and consistent."""
    found: list[str] = []
    known = {_of(message): message for message in translated if message.id}
    for message in template:
        if not message.id:
            continue
        entry = known.get(_of(message))
        where = ", ".join(f"{path}" for path, _line in message.locations[:2])
        label = f"{_of(message)!r} ({where})"
        if entry is None:
            found.append(f"not in {PO.name} (run update): {label}")
            continue
        texts = _strings(entry)
        if (
            not texts
            or not all(texts)
            or (isinstance(entry.id, tuple) and len(texts) < translated.num_plurals)
        ):
            found.append(f"untranslated: {label}")
            continue
        if entry.fuzzy:
            found.append(f"fuzzy (review and remove the flag): {label}")
            continue
        if isinstance(entry.id, str):
            expected = placeholders(entry.id)
            if placeholders(texts[0]) != expected:
                found.append(
                    f"placeholders differ: {label}: {expected} vs {placeholders(texts[0])}"
                )
            continue
        # Plural forms may leave a placeholder out ("todo dia" for n == 1) but never add one;
        # the last form must keep every placeholder of the English plural.
        allowed = set(placeholders(entry.id[0])) | set(placeholders(entry.id[-1]))
        for text in texts:
            if not set(placeholders(text)) <= allowed:
                found.append(f"placeholders differ: {label}: {text!r} uses one not in the id")
        if sorted(placeholders(texts[-1])) != placeholders(entry.id[-1]):
            found.append(f"placeholders differ: {label}: plural form {texts[-1]!r}")
    return found


def compiled(catalog: Catalog) -> bytes:
    """The .mo of the translated, reviewed entries only: an empty plural form must never reach
    ngettext (babel's write_mo keeps ``("", "")``), English shows instead."""
    ready = Catalog(locale=catalog.locale, domain=catalog.domain, fuzzy=False)
    ready.mime_headers = catalog.mime_headers
    for message in catalog:
        if message.id and _done(message) and not message.fuzzy:
            ready[message.id] = message
    buffer = io.BytesIO()
    write_mo(buffer, ready, use_fuzzy=False)
    return buffer.getvalue()


def mo_messages(data: bytes) -> dict[str | tuple[str, ...], str | tuple[str, ...]]:
    """id -> translation of a compiled catalogue (the header left out)."""
    catalog = read_mo(io.BytesIO(data))
    return {
        _of(message): tuple(_strings(message))
        if isinstance(message.id, tuple | list)
        else _strings(message)[0]
        for message in catalog
        if message.id and _done(message)
    }


# --- the commands --------------------------------------------------------------------------


def _same(a: Catalog, b: Catalog) -> bool:
    def content(catalog: Catalog) -> list[tuple[object, ...]]:
        return sorted(
            (repr(_of(m)), tuple(m.locations), tuple(m.auto_comments), tuple(sorted(m.flags)))
            for m in catalog
            if m.id
        )

    return content(a) == content(b)


def _write_po(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=100,
        include_lineno=False,
        include_previous=True,
        sort_by_file=False,
        ignore_obsolete=False,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != buffer.getvalue():
        path.write_bytes(buffer.getvalue())


def cmd_extract() -> Catalog:
    template = extract()
    if POT.exists():
        previous = read_catalog(POT)
        if _same(previous, template):
            template.creation_date = previous.creation_date
    _write_po(POT, template)
    print(f"{POT.relative_to(ROOT)}: {len(ids(template))} message ids")
    return template


def _new_po(template: Catalog) -> Catalog:
    catalog = _catalog(
        "Brazilian Portuguese (pt-BR) of lawsuit-tui.",
        locale=LOCALE,
        domain=DOMAIN,
        language_team="Português (Brasil)",
        last_translator="lawsuit-tui",
    )
    catalog.creation_date = template.creation_date
    return catalog


def _brazilian_plurals(catalog: Catalog) -> None:
    catalog._num_plurals = 2
    catalog._plural_expr = PLURAL_RULE


def cmd_update(template: Catalog | None = None) -> Catalog:
    template = read_catalog(POT) if template is None else template
    catalog = read_catalog(PO, LOCALE) if PO.exists() else _new_po(template)
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
    catalog.fuzzy = False
    _brazilian_plurals(catalog)
    # Obsolete entries are kept as "#~" for strings that come back; fuzzy matching may use them.
    _write_po(PO, catalog)
    todo = [m for m in catalog if m.id and (m.fuzzy or not _done(m))]
    print(f"{PO.relative_to(ROOT)}: {len(ids(catalog))} ids, {len(todo)} to translate or review")
    return catalog


def cmd_compile() -> None:
    catalog = read_catalog(PO, LOCALE)
    data = compiled(catalog)
    if not MO.exists() or MO.read_bytes() != data:
        MO.write_bytes(data)
    print(f"{MO.relative_to(ROOT)}: {len(mo_messages(data))} translations")


def cmd_check() -> int:
    template = extract()
    found: list[str] = []
    if not POT.exists() or ids(read_catalog(POT)) != ids(template):
        found.append(f"{POT.relative_to(ROOT)} is stale (run extract)")
    if not PO.exists():
        found.append(f"{PO.relative_to(ROOT)} is missing (run update)")
    else:
        catalog = read_catalog(PO, LOCALE)
        found.extend(problems(template, catalog))
        expected = mo_messages(compiled(catalog))
        if not MO.exists() or mo_messages(MO.read_bytes()) != expected:
            found.append(f"{MO.relative_to(ROOT)} does not match the .po (run compile)")
    for line in found:
        print(line, file=sys.stderr)
    print(f"{len(ids(template))} message ids, {len(found)} problems")
    return 1 if found else 0


def cmd_todo() -> None:
    catalog = read_catalog(PO, LOCALE)
    todo: dict[str, object] = {}
    for message in catalog:
        if not message.id or (not message.fuzzy and _done(message)):
            continue
        key = _of(message)
        key = key if isinstance(key, str) else json.dumps(list(key), ensure_ascii=False)
        todo[key] = message.string if message.fuzzy else ""
    print(json.dumps(todo, ensure_ascii=False, indent=1))


def cmd_apply(path: Path) -> None:
    """Set translations from {msgid: msgstr}; a plural id is a JSON list [singular, plural]
    as key (as ``todo`` prints it) and a list of forms as value; a context comes first,
    separated by U+0004. Clears the fuzzy flag."""
    updates = json.loads(path.read_text(encoding="utf-8"))
    catalog = read_catalog(PO, LOCALE)
    applied = 0
    for raw_key, value in updates.items():
        # A plural id is a JSON list; a message that merely starts with "[" ("[y/N]") is not.
        key: str | tuple[str, ...] = (
            tuple(json.loads(raw_key)) if raw_key.startswith('["') else raw_key
        )
        first = key if isinstance(key, str) else key[0]
        context, _sep, msgid = first.rpartition("\x04")
        message = catalog.get(msgid, context=context or None)
        if message is None or _of(message) != key:
            print(f"not in the catalogue: {raw_key!r}", file=sys.stderr)
            continue
        message.string = value if isinstance(value, str) else tuple(value)
        message.flags.discard("fuzzy")
        message.previous_id = []
        applied += 1
    _write_po(PO, catalog)
    print(f"{applied} translations applied")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "command",
        nargs="?",
        choices=("extract", "update", "compile", "check", "all", "todo", "apply"),
        default="check",
    )
    parser.add_argument("file", nargs="?", type=Path, help="JSON file for apply")
    parser.add_argument("--check", action="store_true", help="same as the check command")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        return _run(parser, args)
    except SourceError as exc:
        print(exc, file=sys.stderr)
        return 1


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.check or args.command == "check":
        return cmd_check()
    if args.command == "extract":
        cmd_extract()
    elif args.command == "update":
        cmd_update()
    elif args.command == "compile":
        cmd_compile()
    elif args.command == "all":
        cmd_update(cmd_extract())
        cmd_compile()
    elif args.command == "todo":
        cmd_todo()
    elif args.command == "apply":
        if args.file is None:
            parser.error("apply needs a JSON file")
        cmd_apply(args.file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
