"""The Miner (D72): its courts, free counts, paid find requests, and their history in the cache.

A count is free and synchronous. A *find* is paid: ``create_find`` debits its cost at once (it
is never retried once it may have reached the service) and is recorded in the history before
anything else can fail; ``follow_find`` polls it to ``completed`` (or ``failed``) reporting
``processed_lawsuits``; ``lawsuits`` pages what it materialized; ``export_csv`` writes them all
to a file. The history (counts and finds, newest first) is the cache's count table: the
service's answer plus ``asked`` (the filter sent), ``counted_at`` and, for a find,
``type: "find"`` and ``cost``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lawsuit_tui.domain.bodies import CountBody
from lawsuit_tui.domain.count import CountRequestResult
from lawsuit_tui.domain.enums import MinerRequestType
from lawsuit_tui.domain.miner import (
    FindRequestCreated,
    MinerLawsuit,
    MinerRequest,
    MinerResponsesPage,
    Tribunal,
)
from lawsuit_tui.services.deps import Deps
from lawsuit_tui.services.downloads import save_bytes

__all__ = ["EXPORT_COLUMNS", "CountService", "FindProgress"]

# The Miner's tribunal list, kept in the cache so the court picker works before it answers.
_TRIBUNALS_META = "miner.tribunals"
# How often a find is polled (seconds of real time), at first and at most.
_POLL_FIRST = 1.0
_POLL_CEILING = 15.0
# The CSV of a find's lawsuits: the Miner's own fields, in the order an analyst reads them.
EXPORT_COLUMNS = ("code", "tribunal_id", "kind", "amount", "name", "instance", "lawsuit_id")

FindProgress = Callable[[MinerRequest], None]


class CountService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps
        self._tribunals: list[Tribunal] | None = None

    # --- courts -----------------------------------------------------------------------------

    def cached_tribunals(self) -> list[Tribunal] | None:
        """The Miner's courts as last read (this session, else the cache), or None."""
        if self._tribunals is not None:
            return list(self._tribunals)
        value = self._d.cache.get_meta(_TRIBUNALS_META)
        if isinstance(value, list) and value:
            try:
                return [Tribunal.model_validate(item) for item in value]
            except ValueError:
                return None
        return None

    async def tribunals(self) -> list[Tribunal]:
        """``GET /tribunals`` (free): the Miner's courts and the ids its filters take."""
        if self._tribunals is None:
            found = await self._d.api.tribunals()
            self._tribunals = found
            await self._d.cache.set_meta(_TRIBUNALS_META, [item.to_json_dict() for item in found])
        return list(self._tribunals)

    # --- counting ---------------------------------------------------------------------------

    async def count(self, body: CountBody) -> CountRequestResult:
        """POST /requests/count (free); the result and what was asked are kept."""
        result = await self._d.api.count(body)
        await self._remember(result.to_json_dict(), MinerRequestType.COUNT, body.to_wire())
        return result

    async def _remember(
        self, answer: dict[str, Any], kind: MinerRequestType, asked: dict[str, Any]
    ) -> None:
        """Keep a count or a find in the history: the service's answer, what was asked, when."""
        record = {
            **answer,
            "type": kind.value,
            "asked": asked,
            "counted_at": self._d.now().isoformat(),
        }
        await self._d.cache.add_count_request(record)

    def history(self) -> list[dict[str, Any]]:
        """Counts and finds made, newest first: the service's answer plus ``asked`` and
        ``counted_at`` (and ``type``, ``cost`` for a find)."""
        return self._d.cache.store.list_count_requests()

    # --- finding (paid) ---------------------------------------------------------------------

    async def create_find(self, body: CountBody) -> FindRequestCreated:
        """POST /requests/create: the credits are debited when it answers. Recorded in the
        history at once, with its cost and cap."""
        created = await self._d.api.create_find(body)
        await self._remember(created.to_json_dict(), MinerRequestType.FIND, body.to_find_wire())
        return created

    async def find_status(self, request_id: int) -> MinerRequest:
        return await self._d.api.miner_request(request_id)

    async def follow_find(
        self, request_id: int, on_progress: FindProgress | None = None
    ) -> MinerRequest:
        """Poll ``GET /requests/{id}`` until the find is completed or failed; every answer
        goes to ``on_progress``. The wait grows from 1 s to 15 s while nothing moves."""
        wait = _POLL_FIRST
        last: int | None = None
        while True:
            state = await self._d.api.miner_request(request_id)
            if on_progress is not None:
                on_progress(state)
            if state.is_finished:
                return state
            moved = state.processed_lawsuits != last
            last = state.processed_lawsuits
            wait = _POLL_FIRST if moved else min(wait * 2, _POLL_CEILING)
            await self._d.sleep(wait)

    async def lawsuits(self, request_id: int, page: int, page_size: int) -> MinerResponsesPage:
        """One page of a completed find's lawsuits (``GET /responses``)."""
        return await self._d.api.miner_responses(request_id, page=page, page_size=page_size)

    async def all_lawsuits(self, request_id: int) -> list[MinerLawsuit]:
        return [item async for item in self._d.api.iter_miner_lawsuits(request_id)]

    async def export_csv(self, request_id: int, folder: Path) -> tuple[Path, int]:
        """Every lawsuit of a completed find as ``miner-find-<id>.csv`` in ``folder`` (a new
        name if it exists; written whole or not at all). Answers the file and the count."""
        lawsuits = await self.all_lawsuits(request_id)
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(EXPORT_COLUMNS)
        for item in lawsuits:
            row = item.to_json_dict()
            writer.writerow(["" if row.get(c) is None else row.get(c) for c in EXPORT_COLUMNS])
        content = text.getvalue().encode("utf-8")
        name = f"miner-find-{request_id}.csv"
        # expanduser reads the environment only; save_bytes does the disk work in a thread.
        path = await save_bytes(Path(folder).expanduser(), name, content)  # noqa: ASYNC240
        return path, len(lawsuits)
