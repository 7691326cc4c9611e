"""Seeded randomness and small helpers shared by the world's generators.

Every entity draws from its own ``random.Random(f"{seed}:{kind}:{key}")`` so that lazy
generation does not depend on the order in which things are asked for.
"""

from __future__ import annotations

import functools
import hashlib
import random
import time
import unicodedata
from datetime import datetime, timedelta


def rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join([str(seed), *(str(p) for p in parts)]))


def short_id(seed: int, *parts: object, length: int = 24) -> str:
    text = ":".join([str(seed), *(str(p) for p in parts)])
    return hash_text(text, length)


def hash_text(text: str, length: int = 24) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()[:length]


def iso(moment: datetime) -> str:
    """ISO 8601 UTC with a Z, to the second (the spec's <timestamp>)."""
    return iso_ts(moment.timestamp())


def iso_ts(timestamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(timestamp)))


@functools.lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """Case- and accent-insensitive form of a name, single-spaced."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = (
        decomposed.encode("ascii", "ignore").decode()
        if decomposed.isascii() is False
        else decomposed
    )
    return " ".join(bare.casefold().split())


def days(n: float) -> timedelta:
    return timedelta(days=n)


def between(r: random.Random, start: datetime, end: datetime) -> datetime:
    """A moment uniformly between start and end, to the second."""
    span = max(0, int((end - start).total_seconds()))
    return start + timedelta(seconds=r.randint(0, span))
