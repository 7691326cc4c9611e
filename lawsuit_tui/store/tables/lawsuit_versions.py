"""Lawsuit versions: what changed between two versions, and the fields the indexes need.

Works on plain JSON dicts (the service's lawsuit object), never on pydantic models.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

_NON_DIGITS = re.compile(r"\D")
_NON_ALNUM = re.compile(r"[^0-9A-Za-z]")


@dataclass
class LawsuitChange:
    """What a stored version brought compared with the version it replaced.

    ``first_version``: nothing was stored before (the ``new_*`` lists are then empty: there
    is nothing to highlight against). ``replaced_provisional``: a definitive version took
    the place of a cached (provisional) one. ``ignored``: the version was not stored (a
    provisional one while a definitive exists, an older or identical one).
    """

    code: str
    instance: int | None
    new_step_ids: list[str] = field(default_factory=list)
    new_party_names: list[str] = field(default_factory=list)
    new_attachment_ids: list[str] = field(default_factory=list)
    replaced_provisional: bool = False
    first_version: bool = False
    provisional: bool = False
    ignored: bool = False
    source: str = ""

    @property
    def has_news(self) -> bool:
        return bool(self.new_step_ids or self.new_party_names or self.new_attachment_ids)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LawsuitChange:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


@dataclass
class LawsuitState:
    """How the cache holds a lawsuit (its version, when, what it brought), without it."""

    provisional: bool
    stored_at: datetime
    changes: LawsuitChange | None
    source: str = ""


@dataclass
class LawsuitEntry:
    """The lawsuit as the cache holds it, with how it got there."""

    lawsuit: dict[str, Any]
    provisional: bool
    stored_at: datetime
    changes: LawsuitChange | None
    source: str = ""


def code_key(code: str) -> str:
    """CNJ numbers compare by digits, so a formatted and a bare number are the same lawsuit."""
    digits = _NON_DIGITS.sub("", code)
    return digits or code.strip()


def document_key(document: str) -> str:
    return _NON_ALNUM.sub("", document).upper()


def fold(text: str) -> str:
    """Lower case without accents, for searching ("joão" matches "JOAO")."""
    if text.isascii():
        return text.lower()
    # Letters without an ASCII decomposition are dropped: a search aid, not a transliteration.
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def lawsuit_key(code: str, instance: int | None) -> str:
    return f"{code_key(code)}#{'' if instance is None else instance}"


def instance_of(lawsuit: dict[str, Any]) -> int | None:
    value = lawsuit.get("instance")
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def version_stamp(lawsuit: dict[str, Any]) -> str:
    """When the service last refreshed this lawsuit (ISO text compares in time order)."""
    crawler = lawsuit.get("crawler")
    stamps = [lawsuit.get("updated_at")]
    if isinstance(crawler, dict):
        stamps.append(crawler.get("updated_at"))
    return max((s for s in stamps if isinstance(s, str)), default="")


def recency(lawsuit: dict[str, Any]) -> str:
    """Order of "newest first" for lawsuits: last movement, else last update, else filing."""
    last = lawsuit.get("last_step")
    if isinstance(last, dict) and isinstance(last.get("step_date"), str):
        return str(last["step_date"])
    for name in ("updated_at", "distribution_date", "created_at"):
        value = lawsuit.get(name)
        if isinstance(value, str):
            return value
    return ""


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _ids(items: list[dict[str, Any]], key: str) -> list[str]:
    return [str(i[key]) for i in items if i.get(key) is not None]


def party_documents(lawsuit: dict[str, Any]) -> list[str]:
    """Normalised documents of the parties and their lawyers (CPF, CNPJ, OAB)."""
    found: set[str] = set()
    people = list(_dicts(lawsuit.get("parties")))
    for party in _dicts(lawsuit.get("parties")):
        people.extend(_dicts(party.get("lawyers")))
    for person in people:
        main = person.get("main_document")
        if isinstance(main, str) and main:
            found.add(document_key(main))
        for doc in _dicts(person.get("documents")):
            value = doc.get("document")
            if isinstance(value, str) and value:
                found.add(document_key(value))
    found.discard("")
    return sorted(found)


def search_text(lawsuit: dict[str, Any], documents: list[str] | None = None) -> str:
    parts: list[str] = []
    for name in ("code", "name", "tribunal_acronym", "tribunal", "judge", "county", "city"):
        value = lawsuit.get(name)
        if isinstance(value, str):
            parts.append(value)
    code = lawsuit.get("code")
    if isinstance(code, str):
        parts.append(code_key(code))
    for party in _dicts(lawsuit.get("parties")):
        parts.extend(v for v in (party.get("name"), party.get("social_name")) if isinstance(v, str))
        parts.extend(
            v for law in _dicts(party.get("lawyers")) if isinstance(v := law.get("name"), str)
        )
    parts.extend(party_documents(lawsuit) if documents is None else documents)
    return fold(" ".join(parts))


def party_names(lawsuit: dict[str, Any]) -> list[str]:
    return [str(p["name"]) for p in _dicts(lawsuit.get("parties")) if p.get("name")]


def diff(
    old: dict[str, Any] | None, new: dict[str, Any], *, code: str, instance: int | None
) -> LawsuitChange:
    if old is None:
        return LawsuitChange(code=code, instance=instance, first_version=True)

    def new_items(items: list[str], before: list[str]) -> list[str]:
        seen = set(before)
        return [i for i in dict.fromkeys(items) if i not in seen]

    return LawsuitChange(
        code=code,
        instance=instance,
        new_step_ids=new_items(
            _ids(_dicts(new.get("steps")), "step_id"), _ids(_dicts(old.get("steps")), "step_id")
        ),
        new_party_names=new_items(party_names(new), party_names(old)),
        new_attachment_ids=new_items(
            _ids(_dicts(new.get("attachments")), "attachment_id"),
            _ids(_dicts(old.get("attachments")), "attachment_id"),
        ),
    )
