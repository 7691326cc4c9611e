"""The API keys the sandbox accepts, and the features each one may use.

A key is configured as ``KEY`` (every feature) or ``KEY:no-miner,no-vault`` (without those
features). Checking a caller's key is :mod:`lawsuit_tui.sandbox.auth`'s job.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["FEATURES", "KeyConfig", "parse_key_spec", "parse_keys"]

FEATURES: frozenset[str] = frozenset({"lookup", "requests", "tracking", "vault", "miner"})


@dataclass(frozen=True)
class KeyConfig:
    key: str
    features: frozenset[str] = FEATURES

    def allows(self, feature: str) -> bool:
        return feature in self.features

    def __repr__(self) -> str:  # the key is a secret: never in a log line
        return f"KeyConfig(key='***', features={sorted(self.features)})"


def parse_key_spec(spec: str) -> KeyConfig:
    """``"KEY"`` or ``"KEY:no-miner,no-vault"`` -> KeyConfig; ValueError on a bad spec."""
    key, _, options = spec.partition(":")
    key = key.strip()
    if not key:
        raise ValueError("an API key may not be empty")
    features = set(FEATURES)
    for option in filter(None, (o.strip() for o in options.split(","))):
        name = option.removeprefix("no-")
        if not option.startswith("no-") or name not in FEATURES:
            allowed = ", ".join(f"no-{f}" for f in sorted(FEATURES))
            raise ValueError(f"unknown key option {option!r} (allowed: {allowed})")
        features.discard(name)
    return KeyConfig(key, frozenset(features))


def parse_keys(specs: Iterable[str]) -> dict[str, KeyConfig]:
    configs = [parse_key_spec(s) for s in specs]
    return {c.key: c for c in configs}
