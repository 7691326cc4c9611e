"""Properties: unknown fields at any depth, timestamps, cheap imports."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lawsuit_tui.domain.base import format_timestamp
from lawsuit_tui.domain.lawsuit import Lawsuit, Party
from lawsuit_tui.domain.responses import ResponseRecord
from tests.support.roundtrip import load

_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=10,
)
_unknown_keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=3, max_size=12).filter(
    lambda key: key not in Lawsuit.model_fields and key not in Party.model_fields
)


@settings(max_examples=60, deadline=None)
@given(key=_unknown_keys, value=_values, depth=st.sampled_from(["top", "party", "lawyer", "doc"]))
def test_unknown_fields_survive_at_any_depth(key: str, value: Any, depth: str) -> None:
    payload = load("lawsuit")
    party = payload["parties"][0]
    target = {
        "top": payload,
        "party": party,
        "lawyer": party["lawyers"][0],
        "doc": party["lawyers"][0]["documents"][0],
    }[depth]
    target[key] = value
    record = {"response_type": "lawsuit", "response_data": payload}
    dumped = ResponseRecord.model_validate(record).model_dump(mode="json", exclude_unset=True)
    assert dumped == record


_aware = st.datetimes(
    min_value=datetime(1900, 1, 1),
    max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=-3)), timezone(timedelta(hours=5, minutes=30))]
    ),
)


@given(_aware)
def test_timestamps_keep_their_instant(moment: datetime) -> None:
    text = format_timestamp(moment)
    parsed = Lawsuit.model_validate({"code": "x", "updated_at": text}).updated_at
    assert parsed == moment
    if moment.utcoffset() == timedelta(0):
        assert text.endswith("Z")
    dumped = Lawsuit.model_validate({"code": "x", "updated_at": text}).model_dump(mode="json")
    assert dumped["updated_at"] == text


def test_importing_the_models_builds_no_schema() -> None:
    """Schemas are deferred to the first validation, so importing the domain stays cheap."""
    code = """
import json, sys
import importlib
names = ["base", "enums", "lawsuit", "requests", "responses", "trackings", "vault",
         "count", "webhooks", "pagination", "errors", "bodies"]
from pydantic import BaseModel
built = []
for name in names:
    module = importlib.import_module("lawsuit_tui.domain." + name)
    for value in vars(module).values():
        if (isinstance(value, type) and issubclass(value, BaseModel)
                and value.__module__ == module.__name__ and value.__pydantic_complete__):
            built.append(value.__name__)
print(json.dumps(built))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(out.stdout) == []
