"""What a warrant, a penal execution and registration data say, in words a compliance analyst
reads at a glance: the card of each (full) and its summary for the responses list (short).

Every value comes through the vocabulary (statuses, types, regimes) and the formatting of
dates and documents; what the service sends that no list knows is shown as it came.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.text import Text

from lawsuit_tui.domain import vocabulary as v
from lawsuit_tui.domain.enums import WarrantStatus, WarrantType, enum_or_none
from lawsuit_tui.domain.formatting import format_date, format_document, format_money
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.warrants import (
    Warrant,
    execution_is_active,
    prison_regime,
    warrant_is_open,
)
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.ui.widgets.lawsuit_summaries import lawsuit_court, party_name

__all__ = [
    "entity_card",
    "entity_summary",
    "execution_card",
    "execution_meaning",
    "execution_summary",
    "sentence_words",
    "warrant_card",
    "warrant_meaning",
    "warrant_summary",
]

_LABEL = 12  # the width of the labels of a card


def _line(label: str, value: str | Text, style: str = "") -> Text:
    text = Text(f"{label:<{_LABEL}}", style="bold")
    text.append_text(value if isinstance(value, Text) else Text(value, style=style))
    return text


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


def warrant_meaning(warrant: Warrant) -> Text:
    """One line: what this warrant means for the person, red when they are wanted."""
    recapture = warrant.recapture or enum_or_none(WarrantType, warrant.warrant_type) in (
        WarrantType.WARRANT_OF_ARREST_RECAPTURE,
        WarrantType.RECAPTURE,
    )
    status = enum_or_none(WarrantStatus, warrant.status)
    if warrant_is_open(warrant):
        if recapture:
            said = _(
                "OPEN RECAPTURE WARRANT: the person escaped while serving a sentence and is wanted."
            )
        else:
            said = _("OPEN ARREST WARRANT: the person is wanted; the arrest has not been made.")
        return Text("⚠ " + said, style="bold reverse")
    meanings = {
        WarrantStatus.SERVED: _("Served: the arrest was made; this warrant is no longer open."),
        WarrantStatus.SUSPENDED: _("Suspended by the court: it cannot be carried out for now."),
        WarrantStatus.REVOKED: _("Revoked: the court withdrew the order."),
        WarrantStatus.EXPIRED: _("Expired: its validity ended without the arrest being made."),
    }
    known = meanings.get(status) if status is not None else None
    if known is None:
        known = _("Status at the BNMP: {status}").format(status=warrant.status or "?")
    return Text(known, style="bold")


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


def warrant_summary(warrant: Warrant, download_key: str) -> Text:
    """The warrant in a few lines (the responses list's detail pane)."""
    lines = [
        warrant_meaning(warrant),
        _line(_("Person"), _person(warrant.entity)),
        _line(
            _("Issued by"),
            _join(warrant.court, warrant.tribunal_acronym, format_date(warrant.issue_date)),
        ),
        _line(_("Lawsuit"), warrant.code or ""),
        _line(_("Law"), "; ".join(law.text for law in warrant.laws)),
        Text(
            _("Enter opens the warrant; {key} there saves its document.").format(key=download_key),
            style="dim",
        ),
    ]
    return Text("\n").join(lines)


def warrant_card(warrant: Warrant, download_key: str, lawsuit_key: str) -> Text:
    """Everything the warrant says, one fact a line."""
    lines: list[Text] = [warrant_meaning(warrant), Text("")]
    lines.append(_line(_("Person"), _person(warrant.entity)))
    lines.append(_line(_("Status"), v.word(v.WARRANT_STATUS_WORDS, warrant.status)))
    lines.append(_line(_("Warrant"), _warrant_kind(warrant)))
    lines.append(_line(_("Number"), warrant.number or ""))
    lines.append(
        _line(_("Issued by"), _join(warrant.court, warrant.tribunal_acronym, warrant.judge))
    )
    lines.append(
        _line(
            _("Lawsuit"),
            _("{code} ({key} opens it)").format(code=warrant.code, key=lawsuit_key)
            if warrant.code
            else "",
        )
    )
    for law in warrant.laws or []:
        lines.append(_line(_("Law"), law.text))
    dates = _join(
        _("issued {date}").format(date=format_date(warrant.issue_date))
        if warrant.issue_date
        else None,
        _("valid until {date}").format(date=format_date(warrant.expiration_date))
        if warrant.expiration_date
        else None,
    )
    lines.append(_line(_("Dates"), dates))
    years, months, days = warrant.sentence_parts
    if years or months or days or warrant.regime:
        lines.append(
            _line(
                _("Sentence"), _join(sentence_words(years, months, days), _regime(warrant.regime))
            )
        )
    if warrant.reason:
        lines.append(_line(_("Reason"), warrant.reason))
    if warrant.judgementSummary:
        lines.append(_line(_("Order"), warrant.judgementSummary))
    attachments = [a for a in warrant.attachments or [] if a.attachment_id]
    if attachments:
        captured = attachments[0].status == "done"
        state = (
            _("captured; {key} saves it").format(key=download_key)
            if captured
            else _("not captured by this request; {key} asks for it").format(key=download_key)
        )
        lines.append(_line(_("Document"), _join(attachments[0].attachment_name, state)))
    if warrant.post_warnings:
        lines.append(_line(_("Warnings"), warrant.post_warnings, "dim"))
    return Text("\n").join(lines)


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
    phase = v.word(v.EXECUTION_PHASE_WORDS, execution.phase) if execution.phase else ""
    if execution_is_active(execution):
        said = _("PENAL EXECUTION: a criminal conviction being served")
        return Text("⚠ " + (f"{said} ({phase})." if phase else f"{said}."), style="bold reverse")
    said = _("Penal execution closed: the sentence was served or extinguished")
    return Text(f"{said} ({phase})." if phase else f"{said}.", style="bold")


def _convicted(execution: Lawsuit) -> str:
    for party in execution.parties or []:
        if str(party.person_type or "").upper() in ("REEDUCANDO", "EXECUTADO"):
            return party_name(party)
    return ""


def execution_summary(execution: Lawsuit) -> Text:
    courts = execution.courts or []
    court = courts[0] if courts else None
    lines = [
        execution_meaning(execution),
        _line(_("Convicted"), _convicted(execution)),
        _line(_("Lawsuit"), _join(execution.code, lawsuit_court(execution))),
        _line(_("Court"), court.name if court and court.name else execution.county or ""),
        _line(_("Sentence"), _execution_sentence(execution)),
        Text(_("Enter opens the execution's steps and documents."), style="dim"),
    ]
    return Text("\n").join(lines)


def execution_card(execution: Lawsuit) -> Text:
    """For the lawsuit screen and exports: the execution's summary, without the key hint."""
    lines = execution_summary(execution).split("\n")
    return Text("\n").join(lines[:-1])


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
    active = data.get("revenue_service_active")
    said = _("active") if active is True else _("not active") if active is False else ""
    status = str(data.get("revenue_service_status") or "")
    when = data.get("revenue_service_updated_at")
    checked = _("checked {date}").format(date=format_date(when)) if when else ""
    return _join(said, status, checked)


def entity_summary(data: Mapping[str, Any]) -> Text:
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
    lines.append(Text(_("Enter opens the registration data."), style="dim"))
    return Text("\n").join(lines)


def entity_card(data: Mapping[str, Any]) -> Text:
    """Registration data (requests.json's entity object) one fact a line."""
    person = str(data.get("entity_type") or "") == "person"
    lines: list[Text] = [
        Text(str(data.get("name") or "?"), style="bold"),
        _line(
            _("Kind"),
            _("person") if person else _("company") if data.get("entity_type") else "",
        ),
    ]
    for item in _items(data.get("documents")):
        number = str(item.get("document") or "")
        kind = str(item.get("document_type") or "")
        if number:
            lines.append(
                _line(kind.upper() or _("Document"), format_document(number, kind or None))
            )
    aka = [str(name) for name in data.get("aka_names") or [] if name]
    if aka:
        lines.append(_line(_("Also known"), ", ".join(aka)))
    lines.append(_line(_("Revenue"), _revenue(data)))
    if person:
        born = _join(
            format_date(data.get("birth_date")) if data.get("birth_date") else None,
            str(data.get("place_of_birth") or "") or None,
            str(data.get("nationality") or "") or None,
        )
        lines.append(_line(_("Born"), born))
        for parent in _items(data.get("parents")):
            lines.append(_line(_("Parent"), str(parent.get("name") or "")))
        if data.get("profession"):
            lines.append(_line(_("Profession"), str(data["profession"])))
        for pep in _items(data.get("pep")):
            lines.append(
                _line(
                    _("PEP"),
                    _join(str(pep.get("function") or ""), str(pep.get("organ_name") or "")),
                    "bold",
                )
            )
    else:
        nature = data.get("legal_nature")
        if isinstance(nature, Mapping):
            lines.append(
                _line(
                    _("Nature"), _join(str(nature.get("code") or ""), str(nature.get("name") or ""))
                )
            )
        if data.get("entry_date"):
            lines.append(_line(_("Opened"), format_date(data["entry_date"])))
        if data.get("share_capital") is not None:
            lines.append(_line(_("Capital"), format_money(data["share_capital"])))
        if data.get("size"):
            lines.append(_line(_("Size"), str(data["size"])))
        for activity in _items(data.get("branch_activities")):
            name = activity.get("name") or activity.get("description")
            lines.append(
                _line(_("Activity"), _join(str(activity.get("code") or ""), str(name or "")))
            )
        for partner in _items(data.get("partners")):
            role = partner.get("qualification") or partner.get("position") or ""
            document = partner.get("main_document") or partner.get("document") or ""
            lines.append(
                _line(
                    _("Partner"),
                    _join(
                        str(partner.get("name") or "?"),
                        str(role) or None,
                        format_document(str(document)) or None,
                    ),
                )
            )
    for item in _items(data.get("addresses")):
        lines.append(_line(_("Address"), _address(item)))
    for item in _items(data.get("contacts")):
        contact = _contact(item)
        if contact:
            lines.append(_line(_("Contact"), contact))
    return Text("\n").join(lines)
