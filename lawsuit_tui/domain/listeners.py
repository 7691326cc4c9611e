"""The callbacks registered for one kind of event: the client's calls, the rate window, the
status line, the cache's writes, the paid calls.

Every ``subscribe``/``on_*`` method of the client, the services and the store keeps its
listeners here and returns ``Listeners.add``'s function that removes the listener again, so
the "subscribe, get an unsubscribe" contract is written once.

Telling is safe while the set changes: a listener may unsubscribe itself (or another) while
it is being told, and a thread may subscribe while another tells (the store tells on the
writer's thread). The set is replaced whole on each change, never edited in place, so
iterating reads a snapshot without taking the lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

__all__ = ["Listeners"]

L = TypeVar("L")


class Listeners(Generic[L]):
    """Listeners in the order they subscribed; iterate to tell each of them."""

    def __init__(self) -> None:
        self._registered: tuple[L, ...] = ()
        self._edit = threading.Lock()

    def add(self, listener: L) -> Callable[[], None]:
        """Register ``listener``; returns the function that unsubscribes it (a second call
        does nothing, even when the same listener subscribed twice)."""
        with self._edit:
            self._registered = (*self._registered, listener)

        removed = False

        def unsubscribe() -> None:
            nonlocal removed
            with self._edit:
                registered = self._registered
                if not removed and listener in registered:
                    removed = True
                    at = registered.index(listener)
                    self._registered = registered[:at] + registered[at + 1 :]

        return unsubscribe

    def __iter__(self) -> Iterator[L]:
        return iter(self._registered)

    def __len__(self) -> int:
        return len(self._registered)
