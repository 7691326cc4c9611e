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
    """Ids of what a run creates (requests, responses, trackings...).

    ``salt``: None keeps them a function of the seed and a counter alone (tests, snapshots);
    a per-run salt makes them differ from one run to the next, so a cache kept across runs
    never mistakes a new request for an old one with the same id.
    """

    def __init__(self, seed: int, salt: str | None = None) -> None:
        self.seed = seed
        self.salt = salt
        self._counter = itertools.count(1)
        # D38: count ids are an integer sequence; a salted run starts it elsewhere.
        base = 0
        if salt is not None:
            digest = hashlib.blake2b(salt.encode(), digest_size=4).digest()
            base = int.from_bytes(digest, "big") % 1_000_000 * 1000
        self._count_ids = itertools.count(base + 1)

    def next(self, kind: str) -> str:
        if self.salt is None:
            return stable_uuid(self.seed, kind, next(self._counter))
        return stable_uuid(self.seed, self.salt, kind, next(self._counter))

    def next_count_id(self) -> int:
        """D38: the count service's request_id is an integer sequence."""
        return next(self._count_ids)
