"""Identifiers derived from the seed and a counter, so that a run is reproducible (D3)."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

__all__ = ["IdGenerator", "stable_uuid"]


def stable_uuid(*parts: object) -> str:
    """A version-4-shaped UUID string that depends only on ``parts``."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=16).digest()
    return str(uuid.UUID(bytes=digest, version=4))


@dataclass
class IdGenerator:
    """Ids of what the sandbox creates (requests, responses, trackings...): plain data, saved
    with a sandbox kept on disk, so its counter goes on from where it stopped.

    ``salt``: None keeps them a function of the seed and a counter alone (tests, snapshots);
    a sandbox kept on disk is salted with its generation (D183), so ids never repeat, not
    even after ``sandbox reset`` starts a new one."""

    seed: int
    salt: str | None = None
    counter: int = 0

    def next(self, kind: str) -> str:
        self.counter += 1
        if self.salt is None:
            return stable_uuid(self.seed, kind, self.counter)
        return stable_uuid(self.seed, self.salt, kind, self.counter)
