"""Looking after the cache: its figures, pruning, verifying, and damage until acknowledged.

The ``cache`` command's use cases, and :class:`DamageReport`, what every command and the
app say about damaged files until the user acknowledges them (D139): a file the cache could
not read is set aside (never deleted), what it held that still reads is kept (D140), and
it is reported by ``cache verify`` (exit 1), by every command's standard error and by the
app's status line until ``cache verify --acknowledge``.

Each function opens the cache itself (read-only where it can, so it works beside the app)
and blocks on the disk: call it from a thread when an event loop must keep running.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.store import Store
from lawsuit_tui.store.damage import SetAside

__all__ = [
    "DamageReport",
    "VerifyReport",
    "cache_stats",
    "prune_cache",
    "verify_cache",
]


@dataclass(frozen=True)
class DamageReport:
    """``found_now``: files this open set aside; ``waiting``: files set aside and not yet
    acknowledged (those of ``found_now`` included); ``problems``: what the open could not
    read, in the engine's words."""

    found_now: tuple[str, ...] = ()
    waiting: tuple[SetAside, ...] = ()
    problems: tuple[str, ...] = ()

    @classmethod
    def of(cls, store: Store) -> DamageReport:
        return cls(
            found_now=tuple(store.found_damage),
            waiting=tuple(f for f in store.damage() if not f.acknowledged),
            problems=tuple(store.problems),
        )

    def __bool__(self) -> bool:
        return bool(self.waiting or self.problems)

    def lines(self) -> list[str]:
        """What a command says on standard error before it starts."""
        lines = [_("cache: {problem}").format(problem=p) for p in self.problems]
        names = ", ".join(f.name for f in self.waiting)
        if self.waiting:
            lines.append(
                ngettext(
                    "cache: {n} damaged file set aside and not yet acknowledged ({names}); "
                    "'lawsuit-tui cache verify' says more, '--acknowledge' stops this warning",
                    "cache: {n} damaged files set aside and not yet acknowledged ({names}); "
                    "'lawsuit-tui cache verify' says more, '--acknowledge' stops this warning",
                    len(self.waiting),
                ).format(n=len(self.waiting), names=names)
            )
        return lines

    def status_text(self) -> str:
        """Short, for the app's status line ("" when nothing is waiting)."""
        if not self.waiting:
            return ""
        return _("damaged cache: {n} (cache verify)").format(n=len(self.waiting))


@dataclass
class VerifyReport:
    """``problems``: what cannot be read now; ``waiting``: files set aside and not yet
    acknowledged; ``acknowledged``: the names acknowledged by this run."""

    problems: list[str] = field(default_factory=list)
    waiting: list[SetAside] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.problems or self.waiting)


def cache_stats(directory: Path) -> dict[str, Any]:
    """Counts per table, sizes on disk, damaged files (read-only: works beside the app)."""
    with Store.open(directory, read_only=True) as store:
        stats: dict[str, Any] = store.stats()
        stats["set_aside"] = store.damage()
    return stats


def prune_cache(directory: Path, days: int) -> int:
    """Forget what was stored more than ``days`` ago; the records removed. Needs the writer
    lock (raises CacheLocked when another process holds the cache)."""
    with Store.open(directory) as store:
        return store.prune(days)


def verify_cache(directory: Path, *, acknowledge: bool = False) -> VerifyReport:
    """Read every file of the cache; with ``acknowledge``, acknowledge the damaged files set
    aside so far first (they stay on disk, no longer reported)."""
    report = VerifyReport()
    with Store.open(directory, read_only=True) as store:
        if acknowledge:
            report.acknowledged = store.acknowledge_damage()
        opened = list(store.problems)
        # A file the open already named is not named twice (the open says more of it).
        named = {problem.split(":", 1)[0] for problem in opened}
        fresh = [p for p in store.verify() if p.split(":", 1)[0] not in named]
        report.problems = list(dict.fromkeys([*opened, *fresh]))
        report.waiting = [f for f in store.damage() if not f.acknowledged]
    return report
