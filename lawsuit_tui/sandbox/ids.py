"""Identifiers derived from the seed and a counter, so that a run is reproducible (D3)."""

from __future__ import annotations

import hashlib
import itertools
import uuid

__all__ = ["IdGenerator", "stable_uuid"]


def stable_uuid(*parts: object) -> str:
    """A version-4-shaped UUID string that depends only on ``parts``."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=16).digest()
    return str(uuid.UUID(bytes=digest, version=4))


class IdGenerator:
    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._counter = itertools.count(1)
        self._count_ids = itertools.count(1)

    def next(self, kind: str) -> str:
        return stable_uuid(self.seed, kind, next(self._counter))

    def next_count_id(self) -> int:
        """D38: the count service's request_id is an integer sequence."""
        return next(self._count_ids)
