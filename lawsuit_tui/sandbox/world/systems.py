"""Court systems (portals) whose credentials the vault holds, and which courts misbehave.

The systems are the documented ones (D83, ``assets/sandbox/vault_systems.json``): ``"PJE
TJBA - 1º grau"``, ``"ESAJ - TJSP - 2º grau"``... A lawsuit goes through the system of its
court and instance that :func:`~lawsuit_tui.domain.vault.pick_system` chooses (the app's hint
chooses the same way); a court without a documented system of that degree has none, and only
a wildcard credential serves it. Registering a system also registers its siblings: the same
family and court, the other degrees (D83).

The steps' ``source_name`` is not a vault system: it names the crawler that read the court
(``crawler_source``), as the provider's step examples do.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from lawsuit_tui.assets_dir import read_asset_json
from lawsuit_tui.domain.courts import Court
from lawsuit_tui.domain.vault import SystemName, parse_system_name, pick_system
from lawsuit_tui.sandbox.world import names

__all__ = [
    "DOWN_COURTS",
    "RATE_LIMITED_COURTS",
    "SystemInfo",
    "crawler_source",
    "documented_systems",
    "portal",
    "system_name",
]

DOWN_COURTS = frozenset({"TJAP", "TRT14"})  # collection fails: CRAWLER_ERROR
RATE_LIMITED_COURTS = frozenset({"TJRR"})  # the court throttles us: RATE_LIMIT_TRIBUNAL


@dataclass(frozen=True, slots=True)
class SystemInfo:
    """A vault system. ``siblings`` are the *other* systems registered together with it (the
    same family and court, the other degrees); empty when it has none."""

    name: str
    court_acronym: str
    siblings: tuple[str, ...]


@cache
def _documented() -> tuple[SystemName, ...]:
    raw = read_asset_json("sandbox/vault_systems.json")["systems"]
    parsed = [parse_system_name(str(name)) for name in raw]
    return tuple(item for item in parsed if item is not None)


@cache
def documented_systems() -> tuple[SystemInfo, ...]:
    """Every documented system, in the documented order, with its siblings."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for item in _documented():
        groups[(item.family, item.court)].append(item.name)
    return tuple(
        SystemInfo(
            item.name,
            item.court,
            tuple(name for name in groups[(item.family, item.court)] if name != item.name),
        )
        for item in _documented()
    )


def system_name(court: Court, instance: int) -> str | None:
    """The documented system a lawsuit of ``court`` at ``instance`` goes through, or None."""
    return pick_system((item.name for item in _documented()), court.acronym, instance)


def portal(court: Court) -> str:
    if court.segment == 8:
        return names.STATE_SYSTEMS.get(court.state or "", "PJe")
    if court.segment == 4 and court.code == 4:
        return "EPROC"
    return names.SYSTEMS_BY_SEGMENT[court.segment]


def crawler_source(court: Court, instance: int) -> str:
    """The steps' ``source_name``: the crawler of the court's portal, per degree."""
    if court.segment in (4, 5, 8) and court.code not in (0, 90):
        return f"{court.acronym} - {portal(court)} - {min(instance, 2)}º grau"
    return f"{court.acronym} - {portal(court)}"
