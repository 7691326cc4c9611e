"""One-line summaries of a lawsuit, shared by the lists and the tree header."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lawsuit_tui.domain.formatting import format_document, format_int
from lawsuit_tui.i18n import ngettext

if TYPE_CHECKING:
    from lawsuit_tui.domain.lawsuit import Lawsuit, Party


def lawsuit_court(lawsuit: Lawsuit) -> str:
    court = lawsuit.tribunal_acronym or lawsuit.tribunal or ""
    if lawsuit.instance:
        return f"{court} {lawsuit.instance}º".strip()
    return court


def lawsuit_class(lawsuit: Lawsuit) -> str:
    for item in lawsuit.classifications or ():
        if item.name:
            return item.name
    return lawsuit.name or ""


def party_name(party: Party) -> str:
    return party.name or party.social_name or format_document(party.main_document) or "?"


def news_words(steps: int, attachments: int, parties: int) -> str:
    """ "3 new steps, 1 new attachment"; "" when a version brought nothing new."""
    parts = []
    if steps:
        parts.append(ngettext("{n} new step", "{n} new steps", steps).format(n=format_int(steps)))
    if attachments:
        parts.append(
            ngettext("{n} new attachment", "{n} new attachments", attachments).format(
                n=format_int(attachments)
            )
        )
    if parties:
        parts.append(
            ngettext("{n} new party", "{n} new parties", parties).format(n=format_int(parties))
        )
    return ", ".join(parts)


def lawsuit_parties(lawsuit: Lawsuit) -> str:
    """ "First active x first passive (+n)"."""
    parties = lawsuit.parties or []
    # Imported here: domain.enums pulls in pydantic, which the first frame does without.
    from lawsuit_tui.domain.enums import Side

    active = [p for p in parties if p.side == Side.ACTIVE]
    passive = [p for p in parties if p.side == Side.PASSIVE]
    if not active and not passive:
        return ", ".join(party_name(p) for p in parties[:2])
    left = party_name(active[0]) if active else "?"
    right = party_name(passive[0]) if passive else "?"
    extra = len(parties) - (1 if active else 0) - (1 if passive else 0)
    # A class with no other side (a reorganisation, a candidacy: D184) names only its own.
    text = f"{left} × {right}" if passive or not active else left
    return f"{text} (+{extra})" if extra > 0 else text
