"""Court systems (portals) whose credentials the vault holds, and which courts misbehave."""

from __future__ import annotations

from dataclasses import dataclass

from lawsuit_tui.domain.courts import Court
from lawsuit_tui.sandbox.world import names

DOWN_COURTS = frozenset({"TJAP", "TRT14"})  # collection fails: CRAWLER_ERROR
RATE_LIMITED_COURTS = frozenset({"TJRR"})  # the court throttles us: RATE_LIMIT_TRIBUNAL


@dataclass(frozen=True, slots=True)
class SystemInfo:
    """A vault system. ``siblings`` are the *other* systems of the same court, registered
    together with this one (empty for a court with a single system)."""

    name: str
    court_acronym: str
    siblings: tuple[str, ...]


def has_two_degrees(court: Court) -> bool:
    return court.segment in (4, 5, 8) and court.code not in (0, 90)


def portal(court: Court) -> str:
    if court.segment == 8:
        return names.STATE_SYSTEMS.get(court.state or "", "PJe")
    if court.segment == 4 and court.code == 4:
        return "EPROC"
    return names.SYSTEMS_BY_SEGMENT[court.segment]


def system_name(court: Court, instance: int) -> str:
    if has_two_degrees(court):
        return f"{court.acronym} - {portal(court)} - {min(instance, 2)}º grau"
    return f"{court.acronym} - {portal(court)}"


def systems_for(court: Court) -> list[SystemInfo]:
    if not has_two_degrees(court):
        return [SystemInfo(system_name(court, 1), court.acronym, ())]
    first, second = system_name(court, 1), system_name(court, 2)
    return [
        SystemInfo(first, court.acronym, (second,)),
        SystemInfo(second, court.acronym, (first,)),
    ]
