"""What a warrant, a penal execution and registration data say, in words a compliance analyst
reads at a glance: the card of each (full) and its summary for the responses list (short).

Every value comes through the vocabulary (statuses, types, regimes) and the formatting of
dates and documents; what the service sends that no list knows is shown as it came.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.criminal_words import execution_meaning_words, warrant_meaning_words
from lawsuit_tui.domain.enums import (
    ResponseType,
)
from lawsuit_tui.domain.formatting import format_date, format_document, format_money
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.responses import ResponseRecord
from lawsuit_tui.domain.warrants import (
    Warrant,
    execution_is_active,
    prison_regime,
    warrant_is_open,
)
from lawsuit_tui.i18n import _, ngettext, pgettext
from lawsuit_tui.ui.widgets.lawsuit_summaries import lawsuit_court, party_name

__all__ = [
    "criminal_mark",
    "entity_card",
    "entity_summary",
    "execution_meaning",
    "execution_summary",
    "sentence_words",
    "warrant_card",
    "warrant_meaning",
    "warrant_summary",
]

_LABEL = 15  # the width of the labels of a summary ("Court division" and a space)


def _line(label: str, value: str | Text, style: str = "") -> Text:
    text = Text(f"{label:<{max(_LABEL, len(label) + 1)}}", style="bold")
    text.append_text(value if isinstance(value, Text) else Text(value, style=style))
    return text


class _Card:
    """A card: a headline, then one fact a row, labels aligned, long values wrapped beside
    their label."""

    def __init__(self, headline: Text) -> None:
        self.headline = headline
        self.rows: list[tuple[str, Text]] = []

    def add(self, label: str, value: str | Text | None, style: str = "") -> None:
        if value:
            self.rows.append(
                (label, value if isinstance(value, Text) else Text(value, style=style))
            )

    def render(self) -> RenderableType:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for label, value in self.rows:
            table.add_row(label, value)
        return Group(self.headline, Text(""), table)


def _join(*parts: str | None) -> str:
    return " · ".join(p for p in parts if p)


def sentence_words(years: int, months: int, days: int) -> str:
    parts = []
    if years:
        parts.append(ngettext("{n} year", "{n} years", years).format(n=years))
    if months:
        parts.append(ngettext("{n} month", "{n} months", months).format(n=months))
    if days:
        parts.append(ngettext("{n} day", "{n} days", days).format(n=days))
    return ", ".join(parts)


def _regime(value: object) -> str:
    found = prison_regime(value)
    return v.word(v.PRISON_REGIME_WORDS, found) if found is not None else ""


# --- warrants ----------------------------------------------------------------------------


def _meaning(said: str, alarm: bool) -> Text:
    """A meaning in bold; an alarm (wanted, serving) marked and reversed."""
    if alarm:
        return Text("⚠ " + said, style="bold reverse")
    return Text(said, style="bold")


def warrant_meaning(warrant: Warrant) -> Text:
    """One line: what this warrant means for the person, reversed when they are wanted."""
    return _meaning(*warrant_meaning_words(warrant))


def _warrant_kind(warrant: Warrant) -> str:
    return _join(
        v.word(v.WARRANT_TYPE_WORDS, warrant.warrant_type),
        v.word(v.ARREST_TYPE_WORDS, warrant.arrest_type),
    )


def _person(entity: Mapping[str, Any] | None) -> str:
    entity = entity or {}
    documents = []
    for item in entity.get("documents") or []:
        if not isinstance(item, Mapping):
            continue
        kind = str(item.get("document_type") or "")
        number = str(item.get("document") or "")
        if number and kind in ("cpf", "rji"):
            documents.append(
                f"{kind.upper()} {format_document(number, kind) if kind == 'cpf' else number}"
            )
    main = entity.get("main_document")
    if main and not any(d.startswith("CPF") for d in documents):
        documents.insert(0, f"CPF {format_document(str(main), 'cpf')}")
    return _join(str(entity.get("name") or "?"), *documents)


def warrant_summary(warrant: Warrant, open_key: str) -> Text:
    """The warrant in a few lines (the responses list's detail pane)."""
    entity = warrant.entity or {}
    person = _join(
        str(entity.get("name") or "?"),
        format_document(str(entity.get("main_document") or ""), "cpf") or None,
    )
    lines = [
        warrant_meaning(warrant),
        _line(_("Person"), person),
        _line(
            _("Issued by"),
            _join(warrant.court, warrant.tribunal_acronym, format_date(warrant.issue_date)),
        ),
        _line(_("Lawsuit"), warrant.code or ""),
        _line(_("Law"), "; ".join(law.text for law in warrant.laws)),
        Text(
            _("{key} opens the warrant: its document and its lawsuit are there.").format(
                key=open_key
            ),
            style="dim",
        ),
    ]
    return Text("\n").join(lines)


def warrant_card(warrant: Warrant, download_key: str, lawsuit_key: str) -> RenderableType:
    """Everything the warrant says, one fact a row."""
    card = _Card(warrant_meaning(warrant))
    card.add(_("Person"), _person(warrant.entity))
    card.add(_("Status"), v.word(v.WARRANT_STATUS_WORDS, warrant.status))
    card.add(_("Warrant"), _warrant_kind(warrant))
    card.add(_("Number"), warrant.number)
    card.add(_("Issued by"), _join(warrant.court, warrant.tribunal_acronym, warrant.judge))
    if warrant.code:
        card.add(
            _("Lawsuit"), _("{code} ({key} opens it)").format(code=warrant.code, key=lawsuit_key)
        )
    for law in warrant.laws:
        card.add(_("Law"), law.text)
    card.add(
        _("Dates"),
        _join(
            _("issued {date}").format(date=format_date(warrant.issue_date))
            if warrant.issue_date
            else None,
            _("valid until {date}").format(date=format_date(warrant.expiration_date))
            if warrant.expiration_date
            else None,
        ),
    )
    years, months, days = warrant.sentence_parts
    penalty = _join(sentence_words(years, months, days), _regime(warrant.regime))
    card.add(pgettext("penalty", "Sentence"), penalty)
    card.add(_("Reason"), warrant.reason)
    card.add(_("Order"), warrant.judgementSummary)
    attachments = [a for a in warrant.attachments or [] if a.attachment_id]
    if attachments:
        captured = attachments[0].status == "done"
        state = (
            _("captured; {key} saves it").format(key=download_key)
            if captured
            else _("not captured by this request; {key} fetches it").format(key=download_key)
        )
        card.add(_("Document"), _join(attachments[0].attachment_name, state))
    card.add(_("Warnings"), warrant.post_warnings, "dim")
    return card.render()


def criminal_mark(response: ResponseRecord) -> Text | None:
    """The list's word for a warrant (wanted, served...) or an execution (serving, closed)."""
    warrant = response.warrant
    if warrant is not None:
        if warrant_is_open(warrant):
            return Text("⚠ " + _("wanted"), style="bold reverse")
        return Text("● " + v.word(v.WARRANT_STATUS_WORDS, warrant.status), style="")
    if response.response_type == ResponseType.EXECUTION and response.lawsuit is not None:
        if execution_is_active(response.lawsuit):
            return Text("⚠ " + _("serving"), style="bold reverse")
        return Text("● " + _("closed"), style="")
    return None


# --- executions ---------------------------------------------------------------------------


def _execution_sentence(execution: Lawsuit) -> str:
    metadata = execution.metadata or {}
    sentence = metadata.get("sentence") if isinstance(metadata, Mapping) else None
    if not isinstance(sentence, Mapping):
        return ""
    numbers = [sentence.get(k) for k in ("years", "months", "days")]
    parts = [int(n) if isinstance(n, int | float) else 0 for n in numbers]
    return _join(sentence_words(*parts), _regime(sentence.get("regime")))


def execution_meaning(execution: Lawsuit) -> Text:
    return _meaning(*execution_meaning_words(execution))


def _convicted(execution: Lawsuit) -> str:
    for party in execution.parties or []:
        if str(party.person_type or "").upper() in ("REEDUCANDO", "EXECUTADO"):
            return party_name(party)
    return ""


def execution_summary(execution: Lawsuit, open_key: str) -> Text:
    courts = execution.courts or []
    court = courts[0] if courts else None
    lines = [
        execution_meaning(execution),
        _line(_("Convicted"), _convicted(execution)),
        _line(_("Lawsuit"), _join(execution.code, lawsuit_court(execution))),
        _line(_("Court division"), court.name if court and court.name else execution.county or ""),
        _line(pgettext("penalty", "Sentence"), _execution_sentence(execution)),
        Text(
            _("{key} opens the execution's steps and documents.").format(key=open_key),
            style="dim",
        ),
    ]
    return Text("\n").join(lines)


# --- registration data --------------------------------------------------------------------


def _items(value: object) -> list[Mapping[str, Any]]:
    if isinstance(value, Mapping):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, str | bytes):
        return [item for item in value if isinstance(item, Mapping)]
    return []


def _address(item: Mapping[str, Any]) -> str:
    street = _join(
        ", ".join(str(item[k]) for k in ("street", "number") if item.get(k)),
        str(item.get("complement") or "") or None,
        str(item.get("neighborhood") or "") or None,
    )
    place = "/".join(str(item[k]) for k in ("city", "state") if item.get(k))
    return _join(street, place, str(item.get("zip_code") or "") or None)


def _contact(item: Mapping[str, Any]) -> str:
    # The OAS's {contact_type, description}; the sandbox's older {type, value} too.
    return str(item.get("description") or item.get("value") or "")


def _revenue(data: Mapping[str, Any]) -> str:
    status = str(data.get("revenue_service_status") or "")
    if status:
        # The Receita's own status says it all ("ativa", "baixada"): in words, once.
        said = v.word(v.REVENUE_STATUS_WORDS, status)
    else:
        active = data.get("revenue_service_active")
        said = _("active") if active is True else _("not active") if active is False else ""
    when = data.get("revenue_service_updated_at")
    checked = _("checked {date}").format(date=format_date(when)) if when else ""
    return _join(said, checked)


def entity_summary(data: Mapping[str, Any], open_key: str) -> Text:
    kind = str(data.get("entity_type") or "")
    document = str(data.get("main_document") or "")
    addresses = _items(data.get("addresses"))
    lines = [
        Text(_join(str(data.get("name") or "?"), format_document(document)), style="bold"),
        _line(_("Revenue"), _revenue(data)),
        _line(_("Address"), _address(addresses[0]) if addresses else ""),
    ]
    if kind == "company":
        partners = _items(data.get("partners"))
        lines.append(_line(_("Partners"), ", ".join(str(p.get("name") or "?") for p in partners)))
    lines.append(Text(_("{key} opens the registration data.").format(key=open_key), style="dim"))
    return Text("\n").join(lines)


def entity_card(data: Mapping[str, Any]) -> RenderableType:
    """Registration data (requests.json's entity object), one fact a row."""
    person = str(data.get("entity_type") or "") == "person"
    kind = _("person") if person else _("company") if data.get("entity_type") else ""
    card = _Card(Text(_join(str(data.get("name") or "?"), kind), style="bold"))
    for item in _items(data.get("documents")):
        number = str(item.get("document") or "")
        doc_type = str(item.get("document_type") or "")
        card.add(doc_type.upper() or _("Document"), format_document(number, doc_type or None))
    aka = [str(name) for name in data.get("aka_names") or [] if name]
    card.add(_("Also known"), ", ".join(aka))
    card.add(_("Revenue"), _revenue(data))
    if person:
        card.add(
            _("Born"),
            _join(
                format_date(data.get("birth_date")) if data.get("birth_date") else None,
                str(data.get("place_of_birth") or "") or None,
                str(data.get("nationality") or "") or None,
            ),
        )
        for parent in _items(data.get("parents")):
            card.add(_("Parent"), str(parent.get("name") or ""))
        card.add(_("Profession"), str(data.get("profession") or ""))
        for pep in _items(data.get("pep")):
            card.add(
                _("PEP"),
                _join(str(pep.get("function") or ""), str(pep.get("organ_name") or "")),
                "bold",
            )
    else:
        nature = data.get("legal_nature")
        if isinstance(nature, Mapping):
            card.add(
                _("Nature"), _join(str(nature.get("code") or ""), str(nature.get("name") or ""))
            )
        if data.get("entry_date"):
            card.add(_("Opened"), format_date(data["entry_date"]))
        if data.get("share_capital") is not None:
            card.add(_("Capital"), format_money(data["share_capital"]))
        card.add(_("Size"), str(data.get("size") or ""))
        for activity in _items(data.get("branch_activities")):
            name = activity.get("name") or activity.get("description")
            card.add(_("Activity"), _join(str(activity.get("code") or ""), str(name or "")))
        for partner in _items(data.get("partners")):
            role = partner.get("qualification") or partner.get("position") or ""
            document = partner.get("main_document") or partner.get("document") or ""
            card.add(
                _("Partner"),
                _join(
                    str(partner.get("name") or "?"),
                    str(role) or None,
                    format_document(str(document)) or None,
                ),
            )
    for item in _items(data.get("addresses")):
        card.add(_("Address"), _address(item))
    for item in _items(data.get("contacts")):
        card.add(_("Contact"), _contact(item))
    return card.render()
