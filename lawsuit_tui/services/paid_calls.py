"""Paid calls: recorded the moment the service answers, brought into the cache afterwards.

:class:`PaidCallLog` listens to the api client (``ApiClient.on_created``): when a route that
creates something (a request, a tracking, a credential, a count; ``Route.creating``) is
answered 2xx, it first tells its listeners (a command prints the ids on standard error), then
appends a line to the record of paid calls (``store/paid_calls.py``) in the cache directory,
before the answer is parsed and long before the cache is written. Whatever fails afterwards
(a full disk, a cache held by another process, a kill), the ids are on the terminal and in
the record, and a retry need not pay twice.

:class:`PaidCallService` brings into the cache what the record holds and the cache does not
(D136): each request and tracking is read again from the service (with the responses of a
request), and kept as the service answered at creation when the service cannot give it
(gone from a sandbox that has restarted, the network down). Counts come back from the
record itself. Credentials and other creations are listed, nothing more (there is nothing
to re-read). It runs by itself when a command or the app opens the services, and on demand
(``lawsuit-tui cache recover``). How far it has read is kept in the cache's meta as a byte
offset into the record, so each line is looked at once.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from lawsuit_tui.api.filters import ResponseFilters
from lawsuit_tui.api.routes import ROUTES
from lawsuit_tui.domain.listeners import Listeners
from lawsuit_tui.i18n import _
from lawsuit_tui.services.deps import Deps, utcnow
from lawsuit_tui.services.errors import ApiError, CacheError, NotFound
from lawsuit_tui.store import Sanitizer
from lawsuit_tui.store.paid_calls import RECORD_FILE, PaidCallLine, PaidCallRecord

__all__ = [
    "RECORD_FILE",
    "RECOVERED_META_KEY",
    "CreatedCall",
    "PaidCallLog",
    "PaidCallService",
    "Recovery",
    "ids_of",
    "kind_of",
]

RECOVERED_META_KEY = "paid_calls:recovered_to"
# Beyond this an answer is not copied into the record (its ids still are): a bulk creation
# of thousands of trackings is re-read from the service instead.
_MAX_ANSWER_BYTES = 256 * 1024
# Bodies sent that are never copied into the record: a credential carries passwords.
_BODY_NEVER_KEPT = frozenset({"credentials"})
_ID_FIELDS = {"request": "request_id", "tracking": "tracking_id", "count": "request_id"}
_LISTS = ("page_data", "data", "trackings", "requests", "items")


def kind_of(route_name: str) -> str:
    """What a creating route creates: "request", "tracking", "count", "credentials",
    "miner", or the route's name (recorded, never re-read)."""
    route = ROUTES.get(route_name)
    if route is None:
        return route_name
    if route.base == "tracking_url":
        return "tracking"
    if route.base == "vault_url":
        return "credentials"
    if route.base == "miner_url":
        return "count" if route.path.rstrip("/").endswith("/count") else "miner"
    if route.base == "requests_url" and route.path.rstrip("/") == "/requests":
        return "request"
    return route_name


def _items(answer: Any) -> list[dict[str, Any]]:
    """The records an answer holds: itself, the items of a list, or of a list inside it."""
    if isinstance(answer, list):
        return [item for item in answer if isinstance(item, dict)]
    if isinstance(answer, dict):
        for name in _LISTS:
            inner = answer.get(name)
            if isinstance(inner, list):
                return [answer, *(item for item in inner if isinstance(item, dict))]
        return [answer]
    return []


def ids_of(kind: str, answer: Any) -> list[str]:
    """The ids an answer of ``kind`` carries, in order, each once."""
    id_field = _ID_FIELDS.get(kind)
    found: list[str] = []
    for item in _items(answer):
        names = [id_field] if id_field else ["request_id", "tracking_id"]
        for name in names:
            value = item.get(name)
            usable = isinstance(value, str | int) and not isinstance(value, bool) and str(value)
            if usable and str(value) not in found:
                found.append(str(value))
    return found


@dataclass(frozen=True)
class CreatedCall:
    """A creation the service answered: told to listeners before it is recorded.
    ``recorded`` and ``problem`` say how the record went (known after listeners ran, so a
    listener gets the call once, with ``recorded`` None)."""

    route: str
    kind: str
    ids: tuple[str, ...]
    at: datetime
    record: Path
    recorded: bool | None = None
    problem: str | None = None


class PaidCallLog:
    """The api client's listener for creations, and the record of this cache directory."""

    def __init__(
        self,
        directory: Path,
        *,
        secrets: tuple[str, ...] | list[str] = (),
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.record = PaidCallRecord(directory)
        self._sanitizer = Sanitizer(secrets)
        self._now = now
        self._listeners: Listeners[Callable[[CreatedCall], None]] = Listeners()
        self._lock = threading.Lock()
        self.calls: list[CreatedCall] = []
        """Every creation of this session, as recorded (or not)."""

    @property
    def path(self) -> Path:
        return self.record.path

    def subscribe(self, listener: Callable[[CreatedCall], None]) -> Callable[[], None]:
        """``listener(call)`` the moment a creation is answered, before it is recorded."""
        return self._listeners.add(listener)

    @property
    def unrecorded(self) -> list[CreatedCall]:
        return [call for call in self.calls if call.recorded is False]

    def created(self, route_name: str, sent: Mapping[str, Any] | None, answer: bytes) -> None:
        """The hook (``ApiClient.on_created``): tell, then record. Never raises."""
        kind = kind_of(route_name)
        try:
            parsed: Any = orjson.loads(answer)
        except orjson.JSONDecodeError:
            parsed = None
        ids = tuple(ids_of(kind, parsed))
        call = CreatedCall(route_name, kind, ids, self._now(), self.record.path)
        for listener in self._listeners:
            listener(call)
        entry: dict[str, Any] = {
            "at": call.at.isoformat(),
            "route": route_name,
            "kind": kind,
            "ids": list(ids),
        }
        if parsed is not None and len(answer) <= _MAX_ANSWER_BYTES:
            entry["answer"] = self._sanitizer.clean(parsed)
        elif parsed is None:
            entry["answer_text"] = answer[:2048].decode("utf-8", errors="replace")
        if sent is not None and kind not in _BODY_NEVER_KEPT:
            entry["sent"] = self._sanitizer.clean(dict(sent))
        try:
            with self._lock:
                self.record.append(entry)
        except OSError as exc:
            problem = _("the record of paid calls {path} could not be written ({problem})").format(
                path=self.record.path, problem=exc.strerror or exc
            )
            self.calls.append(
                CreatedCall(route_name, kind, ids, call.at, call.record, False, problem)
            )
            return
        self.calls.append(CreatedCall(route_name, kind, ids, call.at, call.record, True))


@dataclass
class Recovery:
    """What :meth:`PaidCallService.recover` did: ``recovered`` (kind, id) brought into the
    cache, ``from_record`` those of them kept as recorded (the service could not give them),
    ``present`` ids the cache already held, ``listed`` creations with nothing to bring
    (credentials...), ``problems`` sentences, ``pending`` lines left for next time."""

    recovered: list[tuple[str, str]] = field(default_factory=list)
    from_record: list[tuple[str, str]] = field(default_factory=list)
    present: int = 0
    listed: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    pending: int = 0
    read_lines: int = 0


class PaidCallService:
    """Brings what the record of paid calls holds into the cache (D136)."""

    def __init__(self, deps: Deps, log: PaidCallLog) -> None:
        self._d = deps
        self.log = log

    @property
    def path(self) -> Path:
        return self.log.path

    def _recovered_to(self) -> int:
        value = self._d.cache.get_meta(RECOVERED_META_KEY)
        return value if isinstance(value, int) and value >= 0 else 0

    def waiting(self) -> int:
        """Lines of the record not yet looked at (a blocking file read; small)."""
        return len(self.log.record.read(self._recovered_to()).lines)

    async def recover(self, *, from_start: bool = False) -> Recovery:
        """Bring into the cache each request, tracking and count of the record it does not
        hold; ``from_start`` looks at every line again (``cache recover --all``)."""
        cache = self._d.cache
        report = Recovery()
        if not cache.writable:
            report.problems.append(
                _("the cache cannot be written now, so nothing could be recovered")
            )
            return report
        start = 0 if from_start else self._recovered_to()
        read = await asyncio.to_thread(self.log.record.read, start)
        report.problems.extend(read.problems)
        report.read_lines = len(read.lines)
        done_to = start
        for index, line in enumerate(read.lines):
            try:
                await self._bring(line, report)
            except (CacheError, OSError) as exc:
                report.problems.append(
                    _("the cache could not keep what the record holds: {problem}").format(
                        problem=exc
                    )
                )
                report.pending = len(read.lines) - index
                break
            done_to = line.end
        else:
            done_to = read.end
        if done_to != start or (from_start and read.lines):
            try:
                await cache.set_meta(RECOVERED_META_KEY, max(done_to, self._recovered_to()))
            except (CacheError, OSError) as exc:
                report.problems.append(str(exc))
        return report

    async def _bring(self, line: PaidCallLine, report: Recovery) -> None:
        kind = line.kind
        answer = line.entry.get("answer")
        if kind == "request":
            for ident in line.ids:
                await self._bring_request(ident, answer, report)
        elif kind == "tracking":
            for ident in line.ids:
                await self._bring_record("tracking", ident, answer, report)
        elif kind == "count":
            await self._bring_count(line, report)
        else:
            report.listed.append((kind, tuple(line.ids)))

    async def _bring_request(self, ident: str, answer: Any, report: Recovery) -> None:
        if not await self._bring_record("request", ident, answer, report):
            return
        cache = self._d.cache
        try:
            found = [
                r.to_json_dict()
                async for r in self._d.api.iter_responses(filters=ResponseFilters(request_id=ident))
            ]
        except ApiError as exc:
            if not isinstance(exc, NotFound):
                report.problems.append(
                    _(
                        "request {id}: its responses could not be read ({problem}); "
                        "lawsuit-tui sync reads them later"
                    ).format(id=ident, problem=exc)
                )
            return
        if found:
            await cache.upsert_responses(found)

    async def _bring_record(self, kind: str, ident: str, answer: Any, report: Recovery) -> bool:
        """Keep the request or tracking (``kind``) ``ident`` unless the cache holds it: as the
        service gives it now, else as the record's answer has it. True when it was read now
        (a request's responses can then be read too)."""
        cache = self._d.cache
        request = kind == "request"
        held = cache.store.get_request(ident) if request else cache.store.get_tracking(ident)
        if held is not None:
            report.present += 1
            return False
        record, fresh = await self._fresh_or_recorded(
            kind, ident, _recorded(answer, f"{kind}_id", ident), report
        )
        if record is None:
            return False
        await (cache.upsert_requests if request else cache.upsert_trackings)([record])
        return fresh

    async def _fresh_or_recorded(
        self, kind: str, ident: str, recorded: dict[str, Any] | None, report: Recovery
    ) -> tuple[dict[str, Any] | None, bool]:
        """The record as the service gives it now (True), else as it was recorded (False);
        None when neither has it (said in ``report``). Counted as recovered when found."""
        try:
            if kind == "request":
                fresh = (await self._d.api.get_request(ident)).to_json_dict()
            else:
                fresh = (await self._d.api.get_tracking(ident)).to_json_dict()
        except ApiError as exc:
            if recorded is None:
                message = (
                    _("request {id}: not in the record's answer and not readable ({problem})")
                    if kind == "request"
                    else _("tracking {id}: not in the record's answer and not readable ({problem})")
                )
                report.problems.append(message.format(id=ident, problem=exc))
                return None, False
            report.recovered.append((kind, ident))
            report.from_record.append((kind, ident))
            return recorded, False
        report.recovered.append((kind, ident))
        return fresh, True

    async def _bring_count(self, line: PaidCallLine, report: Recovery) -> None:
        cache = self._d.cache
        answer = line.entry.get("answer")
        if not isinstance(answer, dict) or not line.ids:
            report.listed.append(("count", tuple(line.ids)))
            return
        ident = line.ids[0]
        known = {str(r.get("request_id")) for r in cache.store.list_count_requests()}
        if ident in known:
            report.present += 1
            return
        sent = line.entry.get("sent")
        record = {**answer, "counted_at": line.entry.get("at")}
        if isinstance(sent, dict):
            asked = dict(sent)
            asked.pop("limit", None)
            record["asked"] = asked
        await cache.add_count_request(record)
        report.recovered.append(("count", ident))
        report.from_record.append(("count", ident))


def _recorded(answer: Any, id_field: str, ident: str) -> dict[str, Any] | None:
    for item in _items(answer):
        if str(item.get(id_field)) == ident:
            return dict(item)
    return None
