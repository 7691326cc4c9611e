"""The portfolio: the trackings of this key seen as one book, by tier, label, status and court.

- :func:`portfolio_tiers`: the tiers in force (the guide's hot, warm and cold, changed or
  extended by the configuration, D160) and the tier a row without one gets.
- :class:`PortfolioEntry`: a tracking as a list of thousands shows it, read straight from the
  cached record (no model per row: 10,000 entries in tens of milliseconds).
- :class:`PortfolioService`: the entries (cache, then the service), the status (counts by tier
  and status, monthly runs), selections (by tier, label, status, court, or a file of keys), and
  bulk changes over a selection (pause, resume, delete, move to a tier), each first described
  by a :class:`ChangePlan` (how many, what changes, the monthly runs before and after) so the
  screen and the command can ask before doing it.

The portfolio's state lives behind this service (and the tracking service under it), so a
shared team store can take it later without touching a screen or a command.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from lawsuit_tui.config import Portfolio
from lawsuit_tui.domain.bodies import TrackingPatchBody
from lawsuit_tui.domain.courts import court_for
from lawsuit_tui.domain.formatting import format_int, local_clock_to_utc
from lawsuit_tui.domain.identifiers import InvalidSearchKey, parse_search_key
from lawsuit_tui.domain.portfolio import TierChoice, key_identity
from lawsuit_tui.domain.tiers import (
    DEFAULT_TIERS,
    TIER_ALIASES,
    Tier,
    labels_of,
    monthly_runs,
    tier_of,
    with_tier,
)
from lawsuit_tui.domain.trackings import NotificationFilters, TrackingRecord
from lawsuit_tui.domain.vocabulary import TIER_WORDS, word
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.errors import ApiError, BadRequest, OperationNotAvailable
from lawsuit_tui.services.trackings import TrackingService

__all__ = [
    "OPERATIONS",
    "ChangeOutcome",
    "ChangePlan",
    "PortfolioConfigError",
    "PortfolioEntry",
    "PortfolioService",
    "PortfolioStatus",
    "Selection",
    "describe_change",
    "entry_of",
    "portfolio_tiers",
    "runs_text",
    "tier_word",
]

# Bulk changes: each its own route; none is limited (D74), so a few run at once.
OPERATIONS: Final = ("pause", "resume", "delete", "set_tier")
CONCURRENT_CHANGES = 8
ACTIVE_STATUSES: Final = frozenset({"created", "updating", "updated"})
# D155: PATCH fields no document shows for it; sent when a tier needs them, dropped if refused.
_UNDOCUMENTED_PATCH: Final = (
    "notification_filters",
    "fixed_time",
    "hour_range",
    "execution_minute",
)


class PortfolioConfigError(Exception):
    """The portfolio's configuration cannot be used (phrased for the user, naming the key)."""


def portfolio_tiers(settings: Any) -> TierChoice:
    """The tiers in force for ``settings.portfolio`` (the whole Settings or that section)."""
    section = getattr(settings, "portfolio", settings)
    tiers: dict[str, Tier] = {tier.name: tier for tier in DEFAULT_TIERS}
    for name, given in section.tiers.items():
        base = tiers.get(name)
        if base is None and given.recurrence is None:
            raise PortfolioConfigError(
                _("portfolio.tiers.{name}.recurrence: a new tier needs its recurrence").format(
                    name=name
                )
            )
        hour: int | None = base.hour if base else None
        minute = base.minute if base else 0
        if given.fixed_time:
            local_hour, local_minute = (int(part) for part in given.fixed_time.split(":"))
            hour, minute = local_clock_to_utc(local_hour, local_minute)
        tiers[name] = Tier(
            name,
            given.recurrence or (base.recurrence if base else 1),
            tuple(given.step_terms)
            if given.step_terms is not None
            else (base.step_terms if base else ()),
            hour,
            minute,
        )
    default = section.default_tier
    if default not in tiers:
        raise PortfolioConfigError(
            _("portfolio.default_tier: {name!r} is not a tier (known: {known})").format(
                name=default, known=", ".join(tiers)
            )
        )
    return TierChoice(tiers, default, TIER_ALIASES)


@dataclass(frozen=True, slots=True)
class PortfolioEntry:
    """One tracking as the portfolio lists it."""

    tracking_id: str
    status: str
    search_type: str
    search_key: str
    display: str
    tier: str | None
    labels: tuple[str, ...]
    name: str | None
    court: str | None
    recurrence: int
    fixed_time: tuple[int, int] | None
    created_at: str
    updated_at: str

    @property
    def identity(self) -> tuple[str, str]:
        return key_identity(self.search_type, self.search_key)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    def haystack(self) -> str:
        """What a text filter looks in (folded)."""
        parts = [self.display, self.search_key, self.tracking_id, self.tier or "", self.name or ""]
        parts.extend(self.labels)
        if self.court:
            parts.append(self.court)
        return " ".join(parts).casefold()


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def entry_of(record: Mapping[str, Any]) -> PortfolioEntry:
    """A :class:`PortfolioEntry` from a tracking record as the service sends it."""
    search = record.get("search") if isinstance(record.get("search"), dict) else {}
    assert isinstance(search, dict)
    search_type = _text(search.get("search_type"))
    key = _text(search.get("search_key"))
    display, court = key, None
    if search_type in ("cpf", "cnpj", "oab", "lawsuit_cnj"):
        with contextlib.suppress(InvalidSearchKey):
            parsed = parse_search_key(key, allow_wrong_check_digits=True)
            display = parsed.display
            if parsed.search_type == "lawsuit_cnj":
                digits = parsed.digits
                found = court_for(int(digits[13]), int(digits[14:16]))
                court = found.acronym if found else None
    tags = record.get("tags") if isinstance(record.get("tags"), dict) else None
    name = tags.get("name") if tags else None
    fixed = None
    if record.get("fixed_time") and isinstance(record.get("hour_range"), int):
        fixed = (int(record["hour_range"]), int(record.get("execution_minute") or 0))
    recurrence = record.get("recurrence")
    return PortfolioEntry(
        tracking_id=_text(record.get("tracking_id")),
        status=_text(record.get("status")),
        search_type=search_type,
        search_key=key,
        display=display,
        tier=tier_of(tags),
        labels=labels_of(tags),
        name=name if isinstance(name, str) and name else None,
        court=court,
        recurrence=int(recurrence) if isinstance(recurrence, int | float) else 1,
        fixed_time=fixed,
        created_at=_text(record.get("created_at")),
        updated_at=_text(record.get("updated_at")),
    )


@dataclass(frozen=True)
class PortfolioStatus:
    """Counts by tier and by status of the live trackings, and their monthly runs."""

    total: int
    by_tier: dict[str, int]
    by_status: dict[str, int]
    by_tier_status: dict[str, dict[str, int]]
    monthly_runs: dict[str, float]
    deleted: int = 0

    @property
    def total_runs(self) -> float:
        return sum(self.monthly_runs.values())


def _runs(entry: PortfolioEntry) -> float:
    """Runs a month of one tracking: only an active one runs."""
    return monthly_runs(entry.recurrence) if entry.active else 0.0


NO_TIER = ""


@dataclass(frozen=True)
class Selection:
    """Which trackings a bulk change applies to; every criterion given must hold."""

    tier: str | None = None
    label: str | None = None
    status: str | None = None
    court: str | None = None
    keys: frozenset[tuple[str, str]] | None = None
    tracking_ids: frozenset[str] | None = None

    def matches(self, entry: PortfolioEntry) -> bool:
        if self.tier is not None and (entry.tier or NO_TIER) != self.tier:
            return False
        if self.label is not None and self.label.casefold() not in (
            label.casefold() for label in entry.labels
        ):
            return False
        if self.status is not None and entry.status != self.status:
            return False
        if self.court is not None and (entry.court or "").upper() != self.court.upper():
            return False
        if self.keys is not None and entry.identity not in self.keys:
            return False
        return self.tracking_ids is None or entry.tracking_id in self.tracking_ids

    @property
    def empty(self) -> bool:
        return all(
            value is None
            for value in (
                self.tier,
                self.label,
                self.status,
                self.court,
                self.keys,
                self.tracking_ids,
            )
        )


@dataclass(frozen=True)
class ChangePlan:
    """A bulk change described before it is made: what it does to how many trackings."""

    operation: str
    entries: list[PortfolioEntry]
    affected: list[PortfolioEntry]
    tier: str | None
    runs_before: float
    runs_after: float

    @property
    def unchanged(self) -> int:
        """Selected trackings the change leaves as they are (a paused one asked to pause)."""
        return len(self.entries) - len(self.affected)


@dataclass
class ChangeOutcome:
    """What a bulk change did; ``partial``: trackings changed without their step terms or
    fixed time, which the service refused to change (D155)."""

    done: list[PortfolioEntry] = field(default_factory=list)
    failed: list[tuple[PortfolioEntry, str]] = field(default_factory=list)
    partial: list[PortfolioEntry] = field(default_factory=list)


Progress = Callable[[int, int], None]


class PortfolioService:
    def __init__(self, deps: Deps, trackings: TrackingService, settings: Portfolio) -> None:
        self._d = deps
        self._trackings = trackings
        self._settings = settings
        self._tiers: TierChoice | None = None

    @property
    def tiers(self) -> TierChoice:
        """The tiers in force; PortfolioConfigError when the configuration is unusable."""
        if self._tiers is None:
            self._tiers = portfolio_tiers(self._settings)
        return self._tiers

    @property
    def chunk_size(self) -> int:
        return int(self._settings.chunk_size)

    # --- what is tracked -------------------------------------------------------------------

    def cached_entries(self, *, include_deleted: bool = False) -> list[PortfolioEntry]:
        """The trackings the cache holds, newest first (blocking: a thread for thousands)."""
        rows = self._d.cache.store.list_trackings()
        entries = [entry_of(row) for row in rows if isinstance(row, dict)]
        if include_deleted:
            return entries
        return [entry for entry in entries if entry.status != "deleted"]

    async def entries(self, *, include_deleted: bool = False) -> list[PortfolioEntry]:
        """The cache's entries, read off the event loop."""
        return await asyncio.to_thread(lambda: self.cached_entries(include_deleted=include_deleted))

    async def refresh(self) -> list[PortfolioEntry]:
        """Every live tracking from the service (kept in the cache), as entries."""
        records = await self._trackings.refresh()
        return [entry_of(record.to_json_dict()) for record in records]

    def status(self, entries: Iterable[PortfolioEntry]) -> PortfolioStatus:
        by_tier: dict[str, int] = {}
        by_status: dict[str, int] = {}
        by_tier_status: dict[str, dict[str, int]] = {}
        runs: dict[str, float] = {}
        total = deleted = 0
        for entry in entries:
            if entry.status == "deleted":
                deleted += 1
                continue
            total += 1
            tier = entry.tier or NO_TIER
            by_tier[tier] = by_tier.get(tier, 0) + 1
            by_status[entry.status] = by_status.get(entry.status, 0) + 1
            cell = by_tier_status.setdefault(tier, {})
            cell[entry.status] = cell.get(entry.status, 0) + 1
            runs[tier] = runs.get(tier, 0.0) + _runs(entry)
        order = {name: n for n, name in enumerate(self.tiers.tiers)}
        ranked = sorted(by_tier, key=lambda name: (order.get(name, len(order)), name))
        return PortfolioStatus(
            total,
            {name: by_tier[name] for name in ranked},
            by_status,
            {name: by_tier_status[name] for name in ranked},
            {name: runs[name] for name in ranked},
            deleted,
        )

    @staticmethod
    def select(entries: Iterable[PortfolioEntry], selection: Selection) -> list[PortfolioEntry]:
        return [
            entry for entry in entries if entry.status != "deleted" and selection.matches(entry)
        ]

    # --- bulk changes ----------------------------------------------------------------------

    def plan(
        self, operation: str, entries: list[PortfolioEntry], tier: str | None = None
    ) -> ChangePlan:
        """What ``operation`` would do to ``entries`` (``tier`` for set_tier, D165)."""
        if operation not in OPERATIONS:
            raise ValueError(operation)
        if operation == "set_tier":
            if tier is None or tier not in self.tiers.tiers:
                raise PortfolioConfigError(
                    _("{name!r} is not a tier (known: {known})").format(
                        name=tier, known=self.tiers.known()
                    )
                )
            target = self.tiers.tiers[tier]
            affected = [
                e
                for e in entries
                if e.tier != tier
                or e.recurrence != target.recurrence
                or (e.fixed_time is not None) != (target.hour is not None)
            ]

            def runs_after(e: PortfolioEntry, changed: bool) -> float:
                if not changed:
                    return _runs(e)
                return monthly_runs(target.recurrence) if e.active else 0.0

        elif operation == "pause":
            affected = [e for e in entries if e.active]

            def runs_after(e: PortfolioEntry, changed: bool) -> float:
                return 0.0 if changed else _runs(e)

        elif operation == "resume":
            affected = [e for e in entries if e.status in ("paused", "suspended")]

            def runs_after(e: PortfolioEntry, changed: bool) -> float:
                return monthly_runs(e.recurrence) if changed else _runs(e)

        else:
            affected = [e for e in entries if e.status != "deleted"]

            def runs_after(e: PortfolioEntry, changed: bool) -> float:
                return 0.0 if changed else _runs(e)

        changing = {e.tracking_id for e in affected}
        before = sum(_runs(e) for e in entries)
        after = sum(runs_after(e, e.tracking_id in changing) for e in entries)
        return ChangePlan(operation, entries, affected, tier, before, after)

    async def apply(self, plan: ChangePlan, progress: Progress | None = None) -> ChangeOutcome:
        """Make the change to every affected tracking (a few at a time); each failure is
        kept with the service's words, the others go on."""
        outcome = ChangeOutcome()
        gate = asyncio.Semaphore(CONCURRENT_CHANGES)
        done = 0
        total = len(plan.affected)

        async def one(entry: PortfolioEntry) -> None:
            nonlocal done
            async with gate:
                try:
                    partial = await self._change(plan, entry)
                except OperationNotAvailable:
                    outcome.failed.append(
                        (entry, _("this operation is not available on this service"))
                    )
                except ApiError as exc:
                    outcome.failed.append((entry, str(exc)))
                else:
                    outcome.done.append(entry)
                    if partial:
                        outcome.partial.append(entry)
                done += 1
                if progress is not None:
                    progress(done, total)

        await asyncio.gather(*(one(entry) for entry in plan.affected))
        return outcome

    async def _change(self, plan: ChangePlan, entry: PortfolioEntry) -> bool:
        """Change one tracking; True when the service refused part of a tier's change."""
        trackings = self._trackings
        if plan.operation == "pause":
            await trackings.pause(entry.tracking_id)
        elif plan.operation == "resume":
            await trackings.resume(entry.tracking_id)
        elif plan.operation == "delete":
            await trackings.delete(entry.tracking_id)
        else:
            assert plan.tier is not None
            return await self._move(entry, self.tiers.tiers[plan.tier])
        return False

    async def _move(self, entry: PortfolioEntry, tier: Tier) -> bool:
        """D155: recurrence and tags (documented) with the tier's step terms and fixed time
        (not documented for PATCH); a 400 naming those is sent again without them."""
        record = self._d.cache.store.get_tracking(entry.tracking_id) or {}
        tags = with_tier(
            record.get("tags") if isinstance(record.get("tags"), dict) else None, tier.name
        )
        full = TrackingPatchBody(
            recurrence=tier.recurrence,
            tags=tags,
            notification_filters=NotificationFilters(step_terms=list(tier.step_terms)),
            fixed_time=tier.hour is not None,
            hour_range=tier.hour,
            execution_minute=tier.minute if tier.hour is not None else None,
        )
        try:
            await self._trackings.patch(entry.tracking_id, full)
        except BadRequest as exc:
            if not any(name in str(exc) for name in _UNDOCUMENTED_PATCH):
                raise
            documented = TrackingPatchBody(recurrence=tier.recurrence, tags=tags)
            await self._trackings.patch(entry.tracking_id, documented)
            return True
        return False

    async def record_of(self, tracking_id: str) -> TrackingRecord:
        return await self._trackings.get(tracking_id)


def runs_text(value: float) -> str:
    """Runs a month as people read them: a whole number (a month has no fraction of a run)."""
    return format_int(round(value))


def tier_word(name: str | None) -> str:
    """A tier as people read it: the default ones in words, a configured one by its name."""
    if not name:
        return _("no tier")
    return word(TIER_WORDS, name)


def describe_change(plan: ChangePlan) -> str:
    """The question before a bulk change: how many, what changes, the runs before and after."""
    n = len(plan.affected)
    counted = format_int(n)
    if plan.operation == "pause":
        what = ngettext("Pause {n} tracking", "Pause {n} trackings", n).format(n=counted)
    elif plan.operation == "resume":
        what = ngettext("Resume {n} tracking", "Resume {n} trackings", n).format(n=counted)
    elif plan.operation == "delete":
        what = ngettext(
            "Delete {n} tracking (this cannot be undone)",
            "Delete {n} trackings (this cannot be undone)",
            n,
        ).format(n=counted)
    else:
        what = ngettext(
            "Move {n} tracking to the tier {tier}", "Move {n} trackings to the tier {tier}", n
        ).format(n=counted, tier=tier_word(plan.tier))
    runs = _("runs a month: {before} → {after}").format(
        before=runs_text(plan.runs_before), after=runs_text(plan.runs_after)
    )
    text = f"{what}; {runs}"
    if plan.unchanged:
        text += "; " + ngettext(
            "{n} selected tracking is left as it is",
            "{n} selected trackings are left as they are",
            plan.unchanged,
        ).format(n=format_int(plan.unchanged))
    return text
