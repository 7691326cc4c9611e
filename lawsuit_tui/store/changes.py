"""What a committed write changed, and who is told: the feed a derived index follows.

A listener (a full-text index beside the cache, say) is called once per committed batch,
after the batch is durable and visible, on the writer's thread with the writer lock held:
listeners see batches in the order they were committed, and no write slips in between.
What a listener raises reaches the writer's caller; the batch stays written (a derived index
that cannot keep up marks itself stale and is rebuilt from the tables).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from lawsuit_tui.domain.listeners import Listeners

__all__ = ["Change", "ChangeFeed", "Listener"]


class Change(NamedTuple):
    """One record a committed write changed: its new form, or None when it was deleted.

    ``doc`` is the record as written (whole, its bodies packed); a listener must not
    change it. A batch lists its changes in order; a key listed twice ends as the last."""

    table: str
    key: str
    doc: dict[str, Any] | None


# Called once per committed batch with the changes of the tables it listens to.
Listener = Callable[[list[Change]], None]


class ChangeFeed:
    def __init__(self) -> None:
        # Each with the tables it listens to (None: all of them).
        self._listeners: Listeners[tuple[Listener, frozenset[str] | None]] = Listeners()

    def subscribe(
        self, listener: Listener, *, tables: Iterable[str] | None = None
    ) -> Callable[[], None]:
        """Call ``listener`` with each committed batch's changes (of ``tables`` only, when
        given; not at all for a batch that changed none of them). Returns the function that
        unsubscribes it."""
        return self._listeners.add((listener, None if tables is None else frozenset(tables)))

    def tell(self, ops: Iterable[tuple[str, str, Any]]) -> None:
        """Tell every listener of a committed batch (``(table, key, record or None)`` each)."""
        listeners = tuple(self._listeners)
        if not listeners:
            return
        changes = [Change(table, key, doc) for table, key, doc in ops]
        for listener, tables in listeners:
            chosen = changes if tables is None else [c for c in changes if c.table in tables]
            if chosen:
                listener(chosen)
