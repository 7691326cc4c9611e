"""The conformance tests' helpers (tests/conformance/README.md): fixtures written from the
provider's examples, JSON Schemas written from its documented answers, the Postman items
written down as data, and the sandbox served on a loopback port to replay them against.

Every family has ``tests/conformance/fixtures/<family>/*.json``, one schema document
``tests/conformance/schemas/<family>.json`` (its answers under ``$defs``) and, when the
collection has items of it, ``tests/conformance/postman/<family>.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator, FormatChecker

from tests.support.served_sandbox import clean_env
from tests.support.served_sandbox import served_sandbox as serve_sandbox

__all__ = [
    "CONFORMANCE",
    "PostmanItem",
    "ServedSandbox",
    "fixture",
    "fixture_names",
    "postman_items",
    "problems",
    "served_sandbox",
    "substitute",
]

CONFORMANCE = Path(__file__).resolve().parent.parent / "conformance"


def fixture_names(family: str) -> list[str]:
    """The fixtures of ``family``, without ``.json``, sorted."""
    return sorted(p.stem for p in (CONFORMANCE / "fixtures" / family).glob("*.json"))


def fixture(family: str, name: str) -> Any:
    return json.loads((CONFORMANCE / "fixtures" / family / f"{name}.json").read_text("utf-8"))


@cache
def _schema_document(family: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (CONFORMANCE / "schemas" / f"{family}.json").read_text("utf-8")
    )
    Draft202012Validator.check_schema(document)
    return document


def problems(family: str, definition: str, value: Any) -> list[str]:
    """Why ``value`` is not the documented ``definition`` of ``family`` (empty: it is)."""
    document = _schema_document(family)
    if definition not in document["$defs"]:
        raise KeyError(f"{family}.json has no $defs/{definition}")
    schema = {**document, "$ref": f"#/$defs/{definition}"}
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    return [
        f"{'/'.join(str(p) for p in error.absolute_path) or '(root)'}: {error.message[:200]}"
        for error in validator.iter_errors(value)
    ]


@dataclass(frozen=True)
class PostmanItem:
    """One request of the collection, written down: its name there, method, URL (with the
    collection's ``{{requests_url}}`` variables and ``{placeholders}`` for sandbox samples),
    body, and the answer the documents promise (status and schema definition)."""

    name: str
    method: str
    url: str
    body: Any
    status: int
    answer: str
    keep: Mapping[str, str]
    """answer field -> placeholder the later items use (``request_id``)"""
    pending: str | None
    """the family whose route is not served yet (the item is expected to fail until then)"""


def postman_items(family: str) -> list[PostmanItem]:
    data = json.loads((CONFORMANCE / "postman" / f"{family}.json").read_text("utf-8"))
    return [
        PostmanItem(
            name=item["name"],
            method=item["method"],
            url=item["url"],
            body=item.get("body"),
            status=item["status"],
            answer=item["answer"],
            keep=item.get("keep", {}),
            pending=item.get("pending"),
        )
        for item in data["items"]
    ]


_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}|\{(\w+)\}")


def substitute(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with every ``{{variable}}`` and ``{placeholder}`` replaced from ``names``."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda m: names[m.group(1) or m.group(2)], value)
    if isinstance(value, list):
        return [substitute(item, names) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, names) for key, item in value.items()}
    return value


@dataclass(frozen=True)
class ServedSandbox:
    """The sandbox on a loopback port: its root and the five base URLs (D1)."""

    root: str

    @property
    def urls(self) -> dict[str, str]:
        return {
            f"{name}_url": f"{self.root}/{name}"
            for name in ("requests", "lawsuits", "tracking", "vault", "miner")
        } | {"crawler_url": f"{self.root}/vault"}

    def samples(self) -> dict[str, Any]:
        answer = httpx.get(f"{self.root}/_sandbox/samples", headers={"api-key": "sandbox"})
        answer.raise_for_status()
        found: dict[str, Any] = answer.json()
        return found


@contextmanager
def served_sandbox(tmp: Path, *, speed: float = 20.0) -> Iterator[ServedSandbox]:
    """``python -m lawsuit_tui sandbox serve --port 0`` (a free loopback port), its clock at
    ``speed`` times real time, with a configuration of its own under ``tmp``."""
    env = clean_env(
        LAWSUIT_TUI_CONFIG=str(tmp / "config.toml"), LAWSUIT_TUI_CACHE_DIR=str(tmp / "cache")
    )
    arguments = ("--host", "127.0.0.1", "--rate-limit", "100000/60")
    with serve_sandbox(*arguments, env=env, speed=speed) as root:
        yield ServedSandbox(root)
