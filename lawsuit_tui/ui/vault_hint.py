"""Which court system of the vault unlocks a lawsuit (the service's errors do not say)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_cnj

if TYPE_CHECKING:
    from lawsuit_tui.services.context import ServiceContext


def court_acronym(code: str) -> str | None:
    """The court of a CNJ number (TJSP, TRF3, ...), None when the number does not say."""
    try:
        court = parse_cnj(code).court
    except (InvalidSearchKey, ValueError):
        return None
    return court.acronym if court is not None else None


async def court_system(context: ServiceContext, code: str, instance: int | None) -> str | None:
    """The exact vault system name for the lawsuit's court and instance, as the vault lists
    it (``TJSP - ESAJ - 1º grau``); the court's acronym when the listing has no match."""
    acronym = court_acronym(code)
    if acronym is None:
        return None
    rows = context.vault.cached_status("*") or await context.vault.status("*")
    names = [row.name for row in rows if row.name and row.name.startswith(acronym + " ")]
    grade = f"{instance or 1}º grau"
    for name in names:
        if grade in name:
            return name
    return names[0] if names else acronym
