"""Shared by the domain model tests: fixtures on disk and payload comparison."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


def load(name: str) -> Any:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def fixture_names() -> list[str]:
    return sorted(path.stem for path in FIXTURES.glob("*.json"))


def normalise(value: Any) -> Any:
    """The payload with every ISO timestamp replaced by the instant it denotes."""
    if isinstance(value, dict):
        return {key: normalise(item) for key, item in value.items()}
    if isinstance(value, list):
        return [normalise(item) for item in value]
    if isinstance(value, str) and _ISO.match(value):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return value
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone(UTC)
        return ("instant", parsed)
    return value


def assert_same_payload(actual: Any, expected: Any) -> None:
    """Equal payloads, timestamps compared as instants (".000Z" and "Z" are the same)."""
    assert normalise(actual) == normalise(expected)
