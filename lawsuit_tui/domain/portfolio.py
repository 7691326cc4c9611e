"""A portfolio file, checked row by row before anything is sent (pure: no I/O).

A portfolio is a table: one key per row (CNJ, CPF, CNPJ including the alphanumeric one, OAB, in
any formatting) and, optionally, the tier, labels, customer key and name of each row. The
first row is a header when any of its cells names a column (in English or Portuguese, accents
and case aside, D158); without a header the first column holds the keys and the others are
ignored. Each row ends up valid (its :class:`SearchKey`, tier and labels), invalid (why, in
the identifier's own words), or a duplicate of an earlier row (same type and key).

:func:`check_rows` is the one entry point; :class:`PortfolioCheck` is what a preview shows: every
row's fate, the trackings per tier and the runs a month they will cost (``domain/tiers.py``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey, parse_search_key
from lawsuit_tui.domain.tiers import Tier, monthly_runs
from lawsuit_tui.i18n import N_, _

__all__ = [
    "COLUMN_ALIASES",
    "ImportRow",
    "PortfolioCheck",
    "RowProblem",
    "TierChoice",
    "check_rows",
    "fold_header",
    "key_identity",
    "split_labels",
]

# D158: the columns a file may name, each under its English and Portuguese headers.
COLUMN_ALIASES: Final[Mapping[str, frozenset[str]]] = {
    "key": frozenset(
        {
            "key",
            "search_key",
            "identifier",
            "document",
            "cnj",
            "cpf",
            "cnpj",
            "oab",
            "cpf/cnpj",
            "lawsuit",
            "processo",
            "numero",
            "numero do processo",
            "documento",
            "identificador",
            "chave de busca",
        }
    ),
    "tier": frozenset({"tier", "nivel", "camada", "criticidade", "prioridade"}),
    "tags": frozenset({"tags", "labels", "etiquetas", "rotulos", "marcadores"}),
    "customer_key": frozenset(
        {"customer_key", "customer key", "chave", "chave do cliente", "chave_cliente"}
    ),
    "name": frozenset({"name", "nome", "razao social", "cliente"}),
}

_LABEL_SPLIT = re.compile(r"[|,;]")
_NOT_ALNUM = re.compile(r"[^0-9A-Za-z]+")
_MAX_LABELS = 20
_MAX_TEXT = 200

# Codes of a row's problem (stable, for scripts), each with the sentence people read.
_PROBLEMS: Final[Mapping[str, str]] = {
    "empty": N_("no key in this row"),
    "unknown_tier": N_("unknown tier {tier!r} (known: {known})"),
    "duplicate": N_("same key as row {row}"),
}


def fold_header(text: str) -> str:
    """A header as compared: lower case, no accents, single spaces, no BOM."""
    text = text.replace("\ufeff", "").strip().casefold()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.replace("-", " ").split())


def split_labels(text: str) -> tuple[str, ...]:
    """``"vip| cobrança , sp"`` -> ``("vip", "cobrança", "sp")``: each label once, in order."""
    seen: dict[str, None] = {}
    for part in _LABEL_SPLIT.split(text):
        label = " ".join(part.split())[:_MAX_TEXT]
        if label and label not in seen:
            seen[label] = None
    return tuple(seen)[:_MAX_LABELS]


def key_identity(search_type: str, key: str) -> tuple[str, str]:
    """How two keys are the same tracking: their type and their letters and digits."""
    return search_type, _NOT_ALNUM.sub("", key).upper()


@dataclass(frozen=True, slots=True)
class RowProblem:
    """Why a row will not be sent: ``code`` for scripts, ``message`` for people."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class ImportRow:
    """One data row. ``number`` is the row as a spreadsheet numbers it (the header is 1)."""

    number: int
    text: str
    key: SearchKey | None = None
    tier: str | None = None
    labels: tuple[str, ...] = ()
    customer_key: str | None = None
    name: str | None = None
    problem: RowProblem | None = None
    duplicate_of: int | None = None

    @property
    def valid(self) -> bool:
        return self.key is not None and self.problem is None

    @property
    def identity(self) -> tuple[str, str] | None:
        return None if self.key is None else key_identity(self.key.search_type, self.key.key)


@dataclass(frozen=True, slots=True)
class TierChoice:
    """The tiers a file may name (by name or alias, any case) and the one rows get by
    default."""

    tiers: Mapping[str, Tier]
    default: str
    aliases: Mapping[str, str] = field(default_factory=dict)

    def resolve(self, text: str | None) -> str | None:
        """The tier's name for ``text`` (the default when blank), None when unknown."""
        if text is None or not text.strip():
            return self.default
        folded = fold_header(text)
        for name in self.tiers:
            if fold_header(name) == folded:
                return name
        alias = self.aliases.get(folded)
        return alias if alias in self.tiers else None

    def known(self) -> str:
        return ", ".join(self.tiers)


@dataclass
class PortfolioCheck:
    """Every row's fate, and what sending the valid ones costs."""

    rows: list[ImportRow]
    tiers: Mapping[str, Tier]
    header: list[str] | None = None

    @property
    def valid(self) -> list[ImportRow]:
        return [row for row in self.rows if row.valid]

    @property
    def invalid(self) -> list[ImportRow]:
        return [row for row in self.rows if row.problem is not None and row.duplicate_of is None]

    @property
    def duplicates(self) -> list[ImportRow]:
        return [row for row in self.rows if row.duplicate_of is not None]

    def by_tier(self, rows: Iterable[ImportRow] | None = None) -> dict[str, int]:
        """Rows per tier, in the order of the tiers (only tiers with rows)."""
        counts = dict.fromkeys(self.tiers, 0)
        for row in self.valid if rows is None else rows:
            if row.tier is not None:
                counts[row.tier] = counts.get(row.tier, 0) + 1
        return {name: n for name, n in counts.items() if n}

    def monthly_runs(self, rows: Iterable[ImportRow] | None = None) -> dict[str, float]:
        """Runs a month per tier of ``rows`` (the valid rows by default): count x 30/r."""
        return {
            name: count * monthly_runs(self.tiers[name].recurrence if name in self.tiers else 1)
            for name, count in self.by_tier(rows).items()
        }


def _columns(header: Sequence[str]) -> dict[str, int] | None:
    """Column of each named field, or None when no cell of ``header`` names a column."""
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        folded = fold_header(cell)
        for column, aliases in COLUMN_ALIASES.items():
            if folded in aliases and column not in found:
                found[column] = index
    if not found:
        return None
    if "key" not in found:
        named = set(found.values())
        free = next((i for i in range(len(header)) if i not in named), None)
        if free is not None:
            found["key"] = free
        elif "customer_key" in found:
            # Every column is named and none the key: a lone "chave" is the key itself.
            found["key"] = found.pop("customer_key")
        else:
            found["key"] = 0
    return found


def _cell(values: Sequence[str], index: int | None) -> str:
    if index is None or index >= len(values):
        return ""
    return values[index].strip()[:_MAX_TEXT]


def _problem(code: str, **fields: object) -> RowProblem:
    return RowProblem(code, _(_PROBLEMS[code]).format(**fields))


def check_rows(table: Sequence[Sequence[str]], choice: TierChoice) -> PortfolioCheck:
    """Check every row of ``table`` (cells as text; blank rows skipped)."""
    header: list[str] | None = None
    columns: dict[str, int] = {"key": 0}
    start = 0
    if table:
        named = _columns(table[0])
        if named is not None:
            header = [cell.strip() for cell in table[0]]
            columns = named
            start = 1
    rows: list[ImportRow] = []
    first_of: dict[tuple[str, str], int] = {}
    for offset, values in enumerate(table[start:], start=start + 1):
        if not any(cell.strip() for cell in values):
            continue
        rows.append(_check_row(offset, values, columns, choice, first_of))
    return PortfolioCheck(rows, choice.tiers, header)


def _check_row(
    number: int,
    values: Sequence[str],
    columns: Mapping[str, int],
    choice: TierChoice,
    first_of: dict[tuple[str, str], int],
) -> ImportRow:
    text = _cell(values, columns.get("key"))
    tier_text = _cell(values, columns.get("tier"))

    def row(
        key: SearchKey | None = None,
        tier: str | None = None,
        problem: RowProblem | None = None,
        duplicate_of: int | None = None,
    ) -> ImportRow:
        return ImportRow(
            number,
            text,
            key,
            tier,
            split_labels(_cell(values, columns.get("tags"))),
            _cell(values, columns.get("customer_key")) or None,
            _cell(values, columns.get("name")) or None,
            problem,
            duplicate_of,
        )

    if not text:
        return row(problem=_problem("empty"))
    try:
        key = parse_search_key(text)
    except InvalidSearchKey as exc:
        return row(problem=RowProblem(exc.reason, exc.message))
    tier = choice.resolve(tier_text)
    if tier is None:
        return row(key, problem=_problem("unknown_tier", tier=tier_text, known=choice.known()))
    identity = key_identity(key.search_type, key.key)
    first = first_of.get(identity)
    if first is not None:
        return row(key, tier, _problem("duplicate", row=first), first)
    first_of[identity] = number
    return row(key, tier)
