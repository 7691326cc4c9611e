"""An index from a value to the keys that hold it, cheap when most values have one key.

The lawsuits table is indexed by CNJ number and by every party's and lawyer's document:
tens of thousands of values, nearly all of them held by one lawsuit. A set per value cost
about 16 MiB at 20,000 lawsuits; here a value with one key holds the key itself (a string
already in memory), and only values with several keys hold a set.
"""

from __future__ import annotations

__all__ = ["KeySets"]


class KeySets:
    __slots__ = ("_map",)

    def __init__(self) -> None:
        self._map: dict[str, str | set[str]] = {}

    def add(self, value: str, key: str) -> None:
        held = self._map.get(value)
        if held is None:
            self._map[value] = key
        elif isinstance(held, set):
            held.add(key)
        elif held != key:
            self._map[value] = {held, key}

    def discard(self, value: str, key: str) -> None:
        held = self._map.get(value)
        if held is None:
            return
        if isinstance(held, set):
            held.discard(key)
            if len(held) == 1:
                self._map[value] = next(iter(held))
        elif held == key:
            del self._map[value]

    def get(self, value: str) -> tuple[str, ...]:
        """The keys that hold ``value`` (empty when none)."""
        held = self._map.get(value)
        if held is None:
            return ()
        return tuple(held) if isinstance(held, set) else (held,)

    def __len__(self) -> int:
        return len(self._map)
