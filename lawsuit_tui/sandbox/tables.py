"""Tables: the dicts the sandbox's state keeps its records in, which remember what was reached.

A sandbox kept on disk saves, at the end of each call, the records the call may have changed
(sandbox/persistence.py). Records change in place (``entry.record.update(...)``), which no
dict can see; but nothing reaches a record except through its table, so a table that
remembers which keys were reached (read or written) since the last save names every record
that may have changed: the saver encodes those, and writes the ones whose bytes differ.

``values()``, ``items()`` and iteration reach every key (a scan may change any record);
``in``, ``len`` and ``keys()`` reach none. Each key is remembered once, in the order it was
first reached, so that records added in one call are written in the order they were made.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar, overload

__all__ = ["Table"]

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")

_MISSING: Any = object()


class Table(dict[K, V]):
    """A dict that remembers the keys reached since :meth:`take_reached`."""

    __slots__ = ("_all", "_reached")

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        super().__init__(items)
        # an insertion-ordered set: the order keys were first reached in
        self._reached: dict[K, None] = {}
        self._all = False

    # ----------------------------------------------------------------- what was reached

    def take_reached(self) -> tuple[bool, list[K]]:
        """(whether every key was reached, the keys reached) since the last call; forgets them."""
        everything, keys = self._all, list(self._reached)
        self._reached = {}
        self._all = False
        return everything, keys

    def _reach(self, key: K) -> None:
        if not self._all:
            self._reached[key] = None

    def _reach_all(self) -> None:
        self._all = True

    # ----------------------------------------------------------------- reading

    def __getitem__(self, key: K) -> V:
        self._reach(key)
        return super().__getitem__(key)

    @overload
    def get(self, key: K, default: None = None, /) -> V | None: ...

    @overload
    def get(self, key: K, default: V | D, /) -> V | D: ...

    def get(self, key: K, default: Any = None, /) -> Any:
        self._reach(key)
        return super().get(key, default)

    def values(self) -> Any:
        self._reach_all()
        return super().values()

    def items(self) -> Any:
        self._reach_all()
        return super().items()

    def __iter__(self) -> Iterator[K]:
        self._reach_all()
        return super().__iter__()

    def __reversed__(self) -> Iterator[K]:
        self._reach_all()
        return super().__reversed__()

    def copy(self) -> dict[K, V]:
        self._reach_all()
        return dict(super().items())

    # ----------------------------------------------------------------- writing

    def __setitem__(self, key: K, value: V) -> None:
        self._reach(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: K) -> None:
        self._reach(key)
        super().__delitem__(key)

    def setdefault(self, key: K, default: Any = None, /) -> Any:
        self._reach(key)
        return super().setdefault(key, default)

    def pop(self, key: K, default: Any = _MISSING, /) -> Any:
        self._reach(key)
        if default is _MISSING:
            return super().pop(key)
        return super().pop(key, default)

    def popitem(self) -> tuple[K, V]:
        key, value = super().popitem()
        self._reach(key)
        return key, value

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self) -> None:
        self._reach_all()
        super().clear()

    def __ior__(self, other: Any) -> Table[K, V]:  # type: ignore[misc,override]
        self.update(other)
        return self

    # ----------------------------------------------------------------- the saver's own access

    def load(self, key: K, value: V) -> None:
        """Set ``key`` without remembering it (what was read from disk is not a change)."""
        super().__setitem__(key, value)

    def unload(self, key: K) -> None:
        """Remove ``key`` without remembering it (another process removed it)."""
        super().pop(key, None)

    def raw_get(self, key: K) -> V | None:
        return super().get(key)

    def raw_items(self) -> Iterator[tuple[K, V]]:
        return iter(super().items())
