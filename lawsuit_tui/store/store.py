"""The facade of the cache: opens the engine with every table, and offers their operations.

No logic lives here: each method hands its call to a table (``tables/``) or to the engine
(``engine.py``, ``maintenance.py``). The tables are also reachable by name
(``store.lawsuits.search(...)``); a table added later is reached that way only, so adding
one is a module in ``tables/`` and one line in :meth:`Store.__init__`. The flat methods
(``store.search_lawsuits(...)``) are the surface the services were written against.

Layout of a cache directory (0700; every file 0600)::

    schema.json                  version and shard layout (see schema.py)
    lock                         held by the one writer process (fcntl.flock)
    checkpoint.lock              readers vs. journal clean-up (see lock.py)
    tables/<table>-<NNN>.json    TinyDB databases, one per shard (see shards.py)
    journal/seg-<N>.log          write-ahead journal (see journal.py)

Every write method returns only once its batch is durable (see engine.py for the contract,
threads and locks). Reads answer from memory, or from one ``pread`` for the body of a cold
record (see cold.py), and return a freshly parsed dict that the caller may keep or change.
Lists come in pages (``responses_of(offset=, limit=)``, ``list_requests(offset=, limit=)``)
that read only the page. Nothing secret is written (see sanitize.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lawsuit_tui.store import maintenance
from lawsuit_tui.store.changes import Listener
from lawsuit_tui.store.damage import SetAside, acknowledge, set_aside_files
from lawsuit_tui.store.engine import DEFAULT_CHECKPOINT_BYTES, Clock, Engine
from lawsuit_tui.store.records import OnUnreadable
from lawsuit_tui.store.tables.count_requests import CountRequests
from lawsuit_tui.store.tables.datalake import DatalakeAnswers
from lawsuit_tui.store.tables.lawsuit_versions import LawsuitChange, LawsuitEntry, LawsuitState
from lawsuit_tui.store.tables.lawsuits import Lawsuits
from lawsuit_tui.store.tables.meta import Meta
from lawsuit_tui.store.tables.portfolio_imports import PortfolioImports
from lawsuit_tui.store.tables.requests import Requests
from lawsuit_tui.store.tables.responses import Responses
from lawsuit_tui.store.tables.trackings import Trackings
from lawsuit_tui.store.tables.vault import Vault
from lawsuit_tui.store.tables.webhooks import Webhooks

__all__ = ["Store"]


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Store:
    """The cache. Create with :meth:`open`; close with :meth:`close` or a ``with`` block."""

    def __init__(self, engine: Engine) -> None:
        """The tables on ``engine`` (not yet opened): one line each, in the order a batch
        may span them (a table takes the tables it writes with)."""
        self._engine = engine
        self.meta = Meta(engine)
        self.requests = Requests(engine)
        self.lawsuits = Lawsuits(engine, self.meta)
        self.responses = Responses(engine, self.lawsuits, self.meta)
        self.trackings = Trackings(engine)
        self.webhooks = Webhooks(engine, self.responses)
        self.counts = CountRequests(engine)
        self.vault = Vault(engine)
        self.datalake = DatalakeAnswers(engine)
        self.portfolio_imports = PortfolioImports(engine)

    # ------------------------------------------------------------------ opening, closing

    @classmethod
    def open(
        cls,
        directory: Path,
        *,
        read_only: bool = False,
        clock: Clock | None = None,
        checkpoint_bytes: int = DEFAULT_CHECKPOINT_BYTES,
        secrets: Iterable[str] = (),
    ) -> Store:
        """Open (creating it when writable) the cache in ``directory``.

        Raises CacheLocked when another process writes to it. Damaged files do not raise:
        they are set aside as ``*.damaged-<timestamp>`` and listed in ``problems``.
        ``secrets``: values (the API key, the bearer token) to scrub from anything written.
        """
        engine = Engine(
            Path(directory),
            read_only=read_only,
            clock=clock or _utcnow,
            checkpoint_bytes=checkpoint_bytes,
            secrets=secrets,
        )
        store = cls(engine)
        engine.open()
        return store

    @property
    def path(self) -> Path:
        return self._engine.path

    @property
    def read_only(self) -> bool:
        return self._engine.read_only

    @read_only.setter
    def read_only(self, value: bool) -> None:
        self._engine.read_only = value

    @property
    def problems(self) -> list[str]:
        """What could not be read or written (damaged files set aside, failed checkpoints)."""
        return self._engine.problems

    @property
    def found_damage(self) -> list[str]:
        """Files this open found damaged and set aside (paths inside the cache)."""
        return list(self._engine.found_now)

    def damage(self) -> list[SetAside]:
        """Every file of the cache set aside as damaged, acknowledged or not (damage.py)."""
        return set_aside_files(self.path)

    def acknowledge_damage(self) -> list[str]:
        """Acknowledge every damaged file set aside so far (they are no longer reported;
        the files stay for inspection); returns the names newly acknowledged. Works beside
        the writer: the acknowledgement is a file of its own."""
        names = [f.name for f in self.damage() if not f.acknowledged]
        if names:
            acknowledge(self.path, names)
        return names

    def refresh(self) -> bool:
        """Read-only stores: pick up what the writer wrote since; True if anything changed."""
        return self._engine.refresh()

    def checkpoint(self) -> int:
        """Rewrite the dirty shards and drop the journal they cover; returns shards written."""
        return self._engine.checkpoint()

    def close(self) -> None:
        """Fold the journal into the shards (writer), release the lock. Idempotent."""
        self._engine.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def subscribe(
        self, listener: Listener, *, tables: Iterable[str] | None = None
    ) -> Callable[[], None]:
        """Be told of every committed batch's changes, of ``tables`` only when given (see
        changes.py); returns the function that unsubscribes ``listener``."""
        return self._engine.changes.subscribe(listener, tables=tables)

    # ------------------------------------------------------------------ maintenance

    def stats(self) -> dict[str, Any]:
        """Counts per table, provisional lawsuits and sizes on disk."""
        found = maintenance.stats(self._engine)
        found["provisional_lawsuits"] = self.lawsuits.count_provisional()
        return found

    def prune(self, older_than_days: int) -> int:
        """Forget what was stored more than ``older_than_days`` ago (requests, responses,
        lawsuits, deliveries, quarantine, count requests, datalake answers); trackings, vault
        snapshots, recent searches and sync bookkeeping stay. Returns the number of records
        removed."""
        if older_than_days < 0:
            raise ValueError("older_than_days must be 0 or more")
        return self._engine.prune(self._engine.now() - older_than_days * 86400)

    def verify(self) -> list[str]:
        """Read every file of the cache; a list of what could not be read (empty: all good)."""
        return maintenance.verify(self._engine)

    # ------------------------------------------------------------------ requests

    def upsert_requests(self, records: Iterable[dict[str, Any]]) -> None:
        """Store request records (keyed by request_id; the latest record wins)."""
        self.requests.upsert(records)

    def get_request(self, request_id: str) -> dict[str, Any] | None:
        return self.requests.get(request_id)

    def list_requests(
        self,
        *,
        status: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        on_unreadable: OnUnreadable | None = None,
    ) -> list[dict[str, Any]]:
        """Requests newest first (by created_at), optionally of one status, a page of them;
        a damaged record raises, or is skipped and named to ``on_unreadable``."""
        return self.requests.newest_first(
            status=status, limit=limit, offset=offset, on_unreadable=on_unreadable
        )

    def count_requests(self, *, status: str | None = None) -> int:
        return self.requests.count(status=status)

    # ------------------------------------------------------------------ responses

    def upsert_responses(
        self, records: Iterable[dict[str, Any]], *, meta: dict[str, object] | None = None
    ) -> list[LawsuitChange]:
        """Store response records (and the lawsuits they carry) in one durable batch."""
        return self.responses.upsert(records, meta=meta)

    def iter_responses(self, on_unreadable: OnUnreadable | None = None) -> Iterator[dict[str, Any]]:
        """Every cached response, oldest first, parsed one at a time (a damaged record
        raises, or is skipped and named to ``on_unreadable``)."""
        return self.responses.iterate(on_unreadable)

    def responses_of(
        self,
        request_id: str,
        *,
        limit: int | None = None,
        offset: int = 0,
        oldest_first: bool = False,
        on_unreadable: OnUnreadable | None = None,
    ) -> list[dict[str, Any]]:
        """Responses of a request, newest first (``oldest_first``: the other way), a page."""
        return self.responses.of_request(
            request_id,
            limit=limit,
            offset=offset,
            oldest_first=oldest_first,
            on_unreadable=on_unreadable,
        )

    def count_responses_of(self, request_id: str) -> int:
        return self.responses.count_of_request(request_id)

    def get_response(self, response_id: str) -> dict[str, Any] | None:
        return self.responses.get(response_id)

    def count_responses(self) -> int:
        return self.responses.count()

    # ------------------------------------------------------------------ lawsuits

    def upsert_lawsuit(
        self, lawsuit: dict[str, Any], *, provisional: bool, source: str = ""
    ) -> LawsuitChange:
        """Store a lawsuit version; see LawsuitChange for what comes back."""
        return self.lawsuits.upsert(lawsuit, provisional=provisional, source=source)

    def upsert_lawsuits(
        self,
        items: Iterable[tuple[dict[str, Any], bool, str]],
        *,
        meta: dict[str, object] | None = None,
    ) -> list[LawsuitChange]:
        """Store several lawsuit versions, ``(lawsuit, provisional, source)`` each, in one
        durable batch; one LawsuitChange per item, in order."""
        return self.lawsuits.upsert_many(items, meta=meta)

    def get_lawsuit(self, code: str, instance: int | None = None) -> dict[str, Any] | None:
        """The definitive version if any, else the provisional one (lawsuit_entry tells)."""
        return self.lawsuits.get(code, instance)

    def lawsuit_entry(self, code: str, instance: int | None = None) -> LawsuitEntry | None:
        return self.lawsuits.entry(code, instance)

    def lawsuit_state(self, code: str, instance: int | None = None) -> LawsuitState | None:
        """As :meth:`lawsuit_entry` without the lawsuit (no body unpacked)."""
        return self.lawsuits.state(code, instance)

    def lawsuits_of_document(self, document: str) -> list[dict[str, Any]]:
        """Lawsuits where a party or a lawyer has this CPF, CNPJ or OAB; newest first."""
        return self.lawsuits.of_document(document)

    def search_lawsuits(self, text: str, limit: int = 50) -> list[dict[str, Any]]:
        """Lawsuits whose number, name, parties, lawyers or documents hold every word."""
        return self.lawsuits.search(text, limit)

    def iter_lawsuits(self, on_unreadable: OnUnreadable | None = None) -> Iterator[dict[str, Any]]:
        """Every cached lawsuit (per instance), by CNJ number then instance (a damaged
        record raises, or is skipped and named to ``on_unreadable``)."""
        return self.lawsuits.iterate(on_unreadable)

    def count_lawsuits(self) -> int:
        return self.lawsuits.count()

    # ------------------------------------------------------------------ trackings

    def upsert_trackings(self, records: Iterable[dict[str, Any]]) -> None:
        """Store tracking records (keyed by tracking_id; the latest record wins)."""
        self.trackings.upsert(records)

    def get_tracking(self, tracking_id: str) -> dict[str, Any] | None:
        return self.trackings.get(tracking_id)

    def list_trackings(self, status: str | None = None) -> list[dict[str, Any]]:
        """Trackings newest first (by created_at), optionally of one status."""
        return self.trackings.newest_first(status)

    # ------------------------------------------------------------------ webhooks

    def is_delivered(self, callback_id: str) -> bool:
        return self.webhooks.is_delivered(callback_id)

    def record_delivery(self, envelope: dict[str, Any]) -> bool:
        """Remember a webhook delivery by callback_id: True if new, False for a redelivery."""
        return self.webhooks.ingest(envelope)[0]

    def ingest_delivery(
        self,
        envelope: dict[str, Any],
        responses: Iterable[dict[str, Any]] = (),
        *,
        quarantine_reason: str | None = None,
    ) -> tuple[bool, list[LawsuitChange]]:
        """Record a delivery and store the responses it carried, in one durable batch."""
        return self.webhooks.ingest(envelope, responses, quarantine_reason=quarantine_reason)

    def quarantine(self, body: bytes, reason: str) -> None:
        """Keep a delivery the receiver could not accept (secrets scrubbed, size capped)."""
        self.webhooks.quarantine(body, reason)

    def list_quarantine(self) -> list[dict[str, Any]]:
        """Quarantined deliveries, newest first: received_at, reason, size, body (text)."""
        return self.webhooks.quarantined()

    # ------------------------------------------------------------------ count, vault, searches

    def add_count_request(self, record: dict[str, Any]) -> None:
        self.counts.add(record)

    def list_count_requests(self) -> list[dict[str, Any]]:
        """Count requests, newest first (by when they were stored)."""
        return self.counts.newest_first()

    def save_vault_snapshot(self, customer_key: str, rows: list[dict[str, Any]]) -> None:
        """Keep the last vault status grid of a customer_key (never a password)."""
        self.vault.save(customer_key, rows)

    def vault_snapshot(self, customer_key: str) -> list[dict[str, Any]] | None:
        return self.vault.snapshot(customer_key)

    def vault_snapshot_at(self, customer_key: str) -> datetime | None:
        return self.vault.snapshot_at(customer_key)

    def add_recent_search(self, text: str) -> None:
        self.meta.add_recent_search(text)

    # ------------------------------------------------------------------ datalake, imports
    # Store-level writes, so that a process beside the holder of the cache can hand them
    # over by name (services/shared_cache.FORWARDED_WRITES).

    def keep_datalake_answers(self, answers: Iterable[dict[str, Any]]) -> None:
        """Keep datalake answers (``datalake.put``'s arguments each) in one durable batch."""
        self.datalake.put_many(answers)

    def begin_portfolio_import(self, service: str, keys: Iterable[Iterable[str]]) -> str:
        """Record the keys a bulk call is about to send; the intent's id (durable)."""
        pairs = [(str(kind), str(key)) for kind, key in keys]
        return self.portfolio_imports.begin(service, pairs)

    def settle_portfolio_import(
        self,
        intent_id: str,
        outcome: str,
        tracking_ids: dict[str, str],
        trackings: Iterable[dict[str, Any]] = (),
    ) -> None:
        """Close an import's intent and keep the trackings it made, in one durable batch."""
        self.portfolio_imports.settle(intent_id, outcome, tracking_ids, trackings)

    def recent_searches(self, limit: int = 20) -> list[str]:
        return self.meta.recent_searches(limit)

    # ------------------------------------------------------------------ meta

    def get_meta(self, key: str) -> object:
        """A value set with set_meta (sync bookkeeping), or None."""
        return self.meta.get(key)

    def set_meta(self, key: str, value: object) -> None:
        """Store a JSON value under ``key`` (None deletes it); durable on return."""
        self.meta.set(key, value)
