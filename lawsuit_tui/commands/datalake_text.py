"""The datalake's answers as text for a terminal: registration data, aggregations, steps."""

from __future__ import annotations

from datetime import UTC, datetime

from lawsuit_tui.domain.base import as_datetime
from lawsuit_tui.domain.datalake import SYNTHETIC_DIMENSIONS, StepsCountItem, SyntheticAggregations
from lawsuit_tui.domain.entities import Entity, Partner
from lawsuit_tui.domain.formatting import format_date, format_document, format_int, format_money
from lawsuit_tui.domain.vocabulary import (
    ENTITY_TYPE_WORDS,
    REVENUE_STATUS_WORDS,
    SIDE_WORDS,
    word,
)
from lawsuit_tui.i18n import N_, _, ngettext

__all__ = ["entity_lines", "steps_lines", "synthetic_lines"]

# How each aggregation is titled, in the order shown.
_DIMENSION_TITLES = {
    "sides": N_("Sides"),
    "tribunals": N_("Courts"),
    "areas": N_("Areas"),
    "classifications": N_("Classes"),
    "subjects": N_("Subjects"),
    "phases": N_("Phases"),
    "states": N_("States"),
    "instances": N_("Instances"),
    "justices": N_("Branches of justice"),
    "person_types": N_("Roles"),
    "names": N_("Names"),
    "other_parties": N_("Other parties"),
}
_TOP = 8


def _day(value: datetime | str | None) -> str:
    """A date the registry gives as midnight UTC (a birth, an opening): that calendar day,
    not shifted into the reader's zone (which would show the day before in Brazil)."""
    moment = as_datetime(value)
    if moment is None:
        return ""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return format_date(moment.date())


def _document(text: str | None) -> str:
    return format_document(text) if text and "*" not in text else (text or "")


def _partner_line(partner: Partner) -> str:
    since = _day(partner.since)
    parts = [
        partner.name or "",
        _document(partner.main_document),
        partner.position or "",
        _("since {date}").format(date=since) if since else "",
    ]
    return "  " + " · ".join(p for p in parts if p)


def entity_lines(entity: Entity) -> list[str]:
    """The registration data of one person or company, a fact a line."""
    head = [
        entity.name or "",
        _document(entity.main_document),
        word(ENTITY_TYPE_WORDS, entity.entity_type),
    ]
    lines = [" · ".join(p for p in head if p)]
    status = word(REVENUE_STATUS_WORDS, entity.revenue_service_status)
    if status:
        read = entity.revenue_updated_at
        line = _("Receita Federal: {status}").format(status=status)
        if read is not None:
            line += " " + _("(read {date})").format(date=format_date(read))
        reason = (entity.tags or {}).get("revenue_status_reason")
        if reason:
            line += f" · {reason}"
        lines.append(line)
    if entity.social_name:
        lines.append(_("Trade name: {name}").format(name=entity.social_name))
    if entity.aka_names:
        lines.append(_("Also known as: {names}").format(names="; ".join(entity.aka_names)))
    if entity.is_company:
        if entity.legal_nature and entity.legal_nature.name:
            lines.append(_("Legal nature: {nature}").format(nature=entity.legal_nature.name))
        if entity.entry_date:
            lines.append(_("Opened on {date}").format(date=_day(entity.entry_date)))
        if entity.closing_date:
            lines.append(_("Closed on {date}").format(date=_day(entity.closing_date)))
        activity = entity.main_activity
        if activity is not None:
            lines.append(
                _("Main activity: {code} {name}").format(
                    code=activity.code or "", name=activity.name or ""
                )
            )
        if entity.share_capital is not None:
            lines.append(
                _("Share capital: {amount}").format(amount=format_money(entity.share_capital))
            )
        if entity.special_status:
            when = _day(entity.special_status_date)
            lines.append(
                _("Special status: {status}").format(status=entity.special_status)
                + (f" ({when})" if when else "")
            )
    else:
        if entity.birth_date:
            lines.append(_("Born on {date}").format(date=_day(entity.birth_date)))
        mothers = [p.name for p in entity.parents or [] if p.kinship == "mother" and p.name]
        if mothers:
            lines.append(_("Mother: {name}").format(name=mothers[0]))
    for address in entity.addresses or []:
        lines.append(_("Address: {address}").format(address=address.one_line()))
    contacts = [c.description for c in entity.contacts or [] if c.description]
    if contacts:
        lines.append(_("Contacts: {contacts}").format(contacts="; ".join(contacts)))
    partners = entity.partner_links
    if partners:
        lines.append(_("Partners:") if entity.is_company else _("Partner of:"))
        lines.extend(_partner_line(p) for p in partners)
    return lines


def synthetic_lines(aggregations: SyntheticAggregations) -> list[str]:
    """Each aggregation on one line, its largest groups first."""
    total = int(aggregations.lawsuits_count or 0)
    secret = int(aggregations.secrecy_lawsuits_count or 0)
    head = ngettext("{n} lawsuit", "{n} lawsuits", total).format(n=format_int(total))
    if secret:
        head += " · " + ngettext("{n} more under secrecy", "{n} more under secrecy", secret).format(
            n=format_int(secret)
        )
    lines = [head]
    for name in _DIMENSION_TITLES:
        assert name in SYNTHETIC_DIMENSIONS
        buckets = aggregations.dimension(name)
        if not buckets:
            continue
        shown = ", ".join(
            f"{_bucket_value(name, b.value)} {format_int(int(b.count))}" for b in buckets[:_TOP]
        )
        more = len(buckets) - _TOP
        if more > 0:
            shown += " " + _("(+{n} more)").format(n=more)
        lines.append(f"{_(_DIMENSION_TITLES[name])}: {shown}")
    return lines


def _bucket_value(dimension: str, value: object) -> str:
    """A side in words, an instance as an ordinal (``2º``); the rest as the service gave it."""
    if dimension == "sides":
        return word(SIDE_WORDS, value)
    if dimension == "instances":
        return f"{value}º"
    return str(value)


def steps_lines(items: list[StepsCountItem]) -> list[str]:
    """One line per lawsuit instance: steps and attachments, or why it failed."""
    lines = []
    for item in items:
        where = f"{item.code}  " + (
            _("instance {n}").format(n=item.instance) if item.instance else ""
        )
        if item.failed:
            lines.append(f"{where}  {item.error_message}")
        else:
            lines.append(
                _("{where}  {steps} steps, {attachments} attachments").format(
                    where=where,
                    steps=format_int(int(item.steps_count)),
                    attachments=format_int(int(item.attachments_count)),
                )
            )
    return lines
