"""The datalake's answers for a document or a lawsuit, kept with their age (D108, D109).

What a dossier is built on: registration data (``entity``), counts (``count``), aggregations
(``synthetic``), steps per CNJ (``steps_count``) and the stored copy of one lawsuit
(``lawsuit_copy``). Each answer is kept in the cache with the time it was fetched, so a screen
can show yesterday's answer offline (``kept_*``) and ask again only for what is older than an
age (``max_age``): an answer younger than that comes from the cache and costs nothing.

Each call is billed by the service (D108): :meth:`DatalakeService.cost_of` says what a call
will cost before it is made, and every :class:`Kept` says what it did cost.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

import orjson

from lawsuit_tui.domain.datalake import (
    STEPS_COUNT_BATCH,
    DatalakeSearch,
    EntitiesBody,
    EntitySearch,
    LawsuitsCount,
    LawsuitsQueryBody,
    StepsCountBody,
    StepsCountItem,
    SyntheticAggregations,
)
from lawsuit_tui.domain.entities import EntitiesAnswer, mask_document
from lawsuit_tui.domain.identifiers import InvalidSearchKey, SearchKey, parse_search_key
from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.domain.requests import Filter, KeysFilter, SubjectFilter
from lawsuit_tui.i18n import _, ngettext
from lawsuit_tui.services.deps import Deps

__all__ = [
    "DatalakeCost",
    "DatalakeService",
    "Kept",
    "entity_key",
    "lawsuit_filter",
    "person_or_company",
    "query_key",
]

T = TypeVar("T")

# What each kind of question is kept as in the cache (store/tables/datalake.py).
ENTITY, COUNT, SYNTHETIC, STEPS, LAWSUIT = "entity", "count", "synthetic", "steps", "lawsuit"
GATE = "gate"
# The listing reads pages of this many lawsuits (D71); each page is a call.
LISTING_PAGE = 1000


@dataclass(frozen=True)
class DatalakeCost:
    """What a datalake question costs (D108): billable calls to the lawsuits service, and
    whether they read live (``on_demand``: the docs' "higher cost"). The docs give no price."""

    calls: int
    on_demand: bool = False

    def describe(self) -> str:
        if self.calls == 0:
            return _("from the local cache, no call")
        text = ngettext(
            "{n} billable call to the datalake", "{n} billable calls to the datalake", self.calls
        ).format(n=self.calls)
        if self.on_demand:
            text += " " + _("(read live: billed at the higher rate)")
        return text


@dataclass(frozen=True)
class Kept(Generic[T]):
    """An answer, when it was fetched, whether it came from the cache, and what it cost."""

    value: T
    fetched_at: datetime
    from_cache: bool
    cost: DatalakeCost

    def age(self, now: datetime) -> timedelta:
        return now - self.fetched_at


def entity_key(text: str) -> SearchKey:
    """A CPF or CNPJ (as parse_search_key reads it), else a name of at least 3 letters.

    Raises InvalidSearchKey for an OAB, a CNJ number or text that is neither."""
    try:
        key = parse_search_key(text)
    except InvalidSearchKey:
        name = " ".join(text.split())
        if sum(ch.isalpha() for ch in name) < 3 or any(ch.isdigit() for ch in name):
            raise
        return SearchKey("name", name, name)
    return person_or_company(
        key, _("Registration data are searched by CPF, CNPJ or name, not by {kind}")
    )


def person_or_company(key: SearchKey, refusal: str) -> SearchKey:
    """``key`` when it is a CPF or a CNPJ; else InvalidSearchKey saying ``refusal``, whose
    ``{kind}`` names the kind of key given (OAB, CNJ...)."""
    if key.search_type not in ("cpf", "cnpj"):
        raise InvalidSearchKey(
            refusal.format(kind=key.search_type.upper().replace("LAWSUIT_", "")),
            kind=key.search_type,
            reason="format",
        )
    return key


def lawsuit_filter(
    *,
    side: str | None = None,
    tribunals: Sequence[str] = (),
    excluded_tribunals: Sequence[str] = (),
    class_codes: Sequence[str] = (),
    subject_codes: Sequence[str] = (),
    distributed_from: datetime | None = None,
    distributed_to: datetime | None = None,
    amount_min: float | None = None,
    amount_max: float | None = None,
) -> Filter | None:
    """The filter of a datalake search (a count, a listing) that keeps what these choose;
    None when they choose nothing. Courts are kept or left out, not both: the caller
    refuses both in its own words."""
    data: dict[str, Any] = {}
    if side:
        data["side"] = side
    if tribunals or excluded_tribunals:
        keys = list(tribunals or excluded_tribunals)
        data["tribunals"] = KeysFilter(keys=keys, not_equal=bool(excluded_tribunals))
    if class_codes:
        data["classification_codes"] = KeysFilter(keys=list(class_codes), not_equal=False)
    if subject_codes:
        data["subject_codes"] = SubjectFilter(contains=list(subject_codes), not_contains=[])
    if distributed_from is not None:
        data["distribution_date_gte"] = distributed_from
    if distributed_to is not None:
        data["distribution_date_lte"] = distributed_to
    if amount_min is not None:
        data["amount_gte"] = amount_min
    if amount_max is not None:
        data["amount_lte"] = amount_max
    return Filter(**data) if data else None


def query_key(wire: Any) -> str:
    """A question's key: what was asked, key order aside."""
    return hashlib.blake2b(
        orjson.dumps(wire, option=orjson.OPT_SORT_KEYS), digest_size=12
    ).hexdigest()


def _masked(answer: dict[str, Any]) -> dict[str, Any]:
    """D109: partners' CPFs masked again before the answer is kept (the docs: never persist
    the unmasked values longer than necessary)."""
    out = dict(answer)
    entities = []
    for entity in answer.get("response_data") or []:
        if isinstance(entity, dict) and isinstance(entity.get("partners"), list):
            entity = dict(entity)
            entity["partners"] = [
                {**p, "main_document": mask_document(str(p["main_document"]))}
                if isinstance(p, dict)
                and p.get("entity_type") != "company"
                and isinstance(p.get("main_document"), str)
                else p
                for p in entity["partners"]
            ]
        entities.append(entity)
    out["response_data"] = entities
    return out


def _any_lawsuit(page: Any) -> bool:
    """A listing page's answer to "any lawsuit?": ``has_lawsuits``, else a lawsuit in it."""
    if not isinstance(page, dict):
        return False
    if isinstance(page.get("has_lawsuits"), bool):
        return bool(page["has_lawsuits"])
    items = page.get("lawsuits", page.get("response_data"))
    return isinstance(items, list) and bool(items)


class DatalakeService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    # --- what a question costs ------------------------------------------------------------

    @staticmethod
    def cost_of(kind: str, *, on_demand: bool = False, items: int = 1) -> DatalakeCost:
        """The calls a question takes (D108), before it is asked: one, or one per batch of
        CNJ numbers (``steps``), or one per page of the listing (``lawsuits``, ``items`` being
        the number of lawsuits it will bring, from ``count``)."""
        if kind == STEPS:
            return DatalakeCost(max(1, math.ceil(items / STEPS_COUNT_BATCH)))
        if kind == "lawsuits":
            return DatalakeCost(items // LISTING_PAGE + 1)
        return DatalakeCost(1, on_demand=on_demand)

    # --- the one way a question is asked ----------------------------------------------------

    def _fresh(self, kind: str, key: str, max_age: timedelta | None) -> Any | None:
        if max_age is None:
            return None
        kept = self._d.cache.datalake_answer(kind, key)
        if kept is None or self._d.now() - kept.fetched_at > max_age:
            return None
        return kept

    async def _ask(
        self,
        kind: str,
        wire: dict[str, Any],
        document: str,
        fetch: Callable[[], Awaitable[Any]],
        parse: Callable[[Any], T],
        *,
        max_age: timedelta | None,
        cost: DatalakeCost,
        keep: Callable[[Any], Any] = lambda answer: answer,
    ) -> Kept[T]:
        key = query_key(wire)
        kept = self._fresh(kind, key, max_age)
        if kept is not None:
            return Kept(parse(kept.answer), kept.fetched_at, True, replace(cost, calls=0))
        answer = await fetch()
        fetched_at = self._d.now()
        await self._d.cache.keep_datalake_answers(
            [
                {
                    "kind": kind,
                    "query_key": key,
                    "document": document,
                    "query": wire,
                    "answer": keep(answer),
                    "fetched_at": fetched_at,
                }
            ]
        )
        return Kept(parse(answer), fetched_at, False, cost)

    def _kept(self, kind: str, wire: dict[str, Any], parse: Callable[[Any], T]) -> Kept[T] | None:
        kept = self._d.cache.datalake_answer(kind, query_key(wire))
        if kept is None:
            return None
        return Kept(parse(kept.answer), kept.fetched_at, True, DatalakeCost(0))

    # --- registration data -------------------------------------------------------------------

    def _entities_body(self, key: SearchKey, on_demand: bool, reveal: bool) -> EntitiesBody:
        search = EntitySearch(
            search_type=key.search_type, search_key=key.key, on_demand=on_demand or None
        )
        return EntitiesBody(search=search, reveal_partners_documents=reveal or None)

    async def entity(
        self,
        key: SearchKey,
        *,
        on_demand: bool = False,
        reveal_partners: bool = False,
        max_age: timedelta | None = None,
    ) -> Kept[EntitiesAnswer]:
        """POST /entities: registration data of a CPF, CNPJ or name (see :func:`entity_key`).

        ``reveal_partners`` answers the partners' CPFs unmasked for this session only: the
        cache keeps them masked (D109), so such a question is always asked."""
        body = self._entities_body(key, on_demand, reveal_partners)
        wire = self._entities_body(key, on_demand, False).to_wire()

        async def fetch() -> Any:
            return (await self._d.api.entities(body)).to_json_dict()

        return await self._ask(
            ENTITY,
            wire,
            key.key,
            fetch,
            EntitiesAnswer.model_validate,
            max_age=None if reveal_partners else max_age,
            cost=self.cost_of(ENTITY, on_demand=on_demand),
            keep=_masked,
        )

    def kept_entity(
        self, key: SearchKey, *, on_demand: bool = False
    ) -> Kept[EntitiesAnswer] | None:
        """The registration data kept for ``key``, whatever their age (offline)."""
        wire = self._entities_body(key, on_demand, False).to_wire()
        return self._kept(ENTITY, wire, EntitiesAnswer.model_validate)

    # --- the gate: any lawsuit at all? ------------------------------------------------------

    @staticmethod
    def _gate_body(key: SearchKey) -> LawsuitsQueryBody:
        # The KYC guide's cheap check: one lawsuit a page, one page (D190).
        return LawsuitsQueryBody(search=DatalakeSearch.of(key.search_type, key.key)).page(1, 1)

    async def has_lawsuits(self, key: SearchKey, *, max_age: timedelta | None = None) -> Kept[bool]:
        """POST /lawsuits with a page of one lawsuit: whether the datalake holds any lawsuit
        of ``key`` (the guide's "boolean gate"), one billable call (D108, D190)."""
        body = self._gate_body(key)

        async def fetch() -> Any:
            page = await self._d.api.lookup_page(body)
            return {"has_lawsuits": _any_lawsuit(page)}

        return await self._ask(
            GATE,
            body.to_wire(),
            key.key,
            fetch,
            lambda answer: bool(answer.get("has_lawsuits")),
            max_age=max_age,
            cost=self.cost_of(GATE),
        )

    def kept_has_lawsuits(self, key: SearchKey) -> Kept[bool] | None:
        """The gate's answer kept for ``key``, whatever its age (offline)."""
        return self._kept(
            GATE, self._gate_body(key).to_wire(), lambda a: bool(a.get("has_lawsuits"))
        )

    # --- counts and aggregations ---------------------------------------------------------

    async def count(
        self, key: SearchKey, flt: Filter | None = None, *, max_age: timedelta | None = None
    ) -> Kept[int]:
        """POST /lawsuits/count: how many lawsuits of ``key`` (matching ``flt``) the
        datalake holds; the filter is checked before any call."""
        search = DatalakeSearch.of(key.search_type, key.key, flt)

        async def fetch() -> Any:
            return (await self._d.api.count_lawsuits(search)).to_json_dict()

        return await self._ask(
            COUNT,
            {"search": search.to_wire()},
            key.key,
            fetch,
            lambda answer: LawsuitsCount.model_validate(answer).count,
            max_age=max_age,
            cost=self.cost_of(COUNT),
        )

    def kept_count(self, key: SearchKey, flt: Filter | None = None) -> Kept[int] | None:
        search = DatalakeSearch.of(key.search_type, key.key, flt)
        return self._kept(
            COUNT, {"search": search.to_wire()}, lambda a: LawsuitsCount.model_validate(a).count
        )

    async def synthetic(
        self, key: SearchKey, flt: Filter | None = None, *, max_age: timedelta | None = None
    ) -> Kept[SyntheticAggregations]:
        """POST /lawsuits/synthetic: the lawsuits counted by class, subject, court, side..."""
        search = DatalakeSearch.of(key.search_type, key.key, flt)

        async def fetch() -> Any:
            return (await self._d.api.synthetic_lawsuits(search)).to_json_dict()

        return await self._ask(
            SYNTHETIC,
            {"search": search.to_wire()},
            key.key,
            fetch,
            SyntheticAggregations.model_validate,
            max_age=max_age,
            cost=self.cost_of(SYNTHETIC),
        )

    def kept_synthetic(
        self, key: SearchKey, flt: Filter | None = None
    ) -> Kept[SyntheticAggregations] | None:
        search = DatalakeSearch.of(key.search_type, key.key, flt)
        return self._kept(
            SYNTHETIC, {"search": search.to_wire()}, SyntheticAggregations.model_validate
        )

    # --- steps per CNJ -------------------------------------------------------------------

    async def steps_count(
        self, codes: list[str], *, max_age: timedelta | None = None
    ) -> Kept[list[StepsCountItem]]:
        """POST /steps/count for the numbers whose kept answer is missing or older than
        ``max_age`` (all of them without one); each number is kept on its own, so a later
        question asks only for what it lacks. The answer lists the numbers in order."""
        numbers = StepsCountBody(lawsuit_cnj=codes).lawsuit_cnj
        kept: dict[str, tuple[list[dict[str, Any]], datetime]] = {}
        for number in numbers:
            found = self._fresh(STEPS, number, max_age)
            if found is not None:
                kept[number] = (found.answer, found.fetched_at)
        missing = [n for n in numbers if n not in kept]
        cost = DatalakeCost(0)
        if missing:
            cost = self.cost_of(STEPS, items=len(missing))
            items = await self._d.api.steps_count(missing)
            fetched_at = self._d.now()
            by_code: dict[str, list[dict[str, Any]]] = {n: [] for n in missing}
            for item in items:
                by_code.setdefault(item.code, []).append(item.to_json_dict())
            await self._d.cache.keep_datalake_answers(
                [
                    {
                        "kind": STEPS,
                        "query_key": number,
                        "document": number,
                        "query": {"lawsuit_cnj": [number]},
                        "answer": answer,
                        "fetched_at": fetched_at,
                    }
                    for number, answer in by_code.items()
                ]
            )
            kept.update({n: (a, fetched_at) for n, a in by_code.items()})
        ordered = [StepsCountItem.model_validate(i) for n in numbers for i in kept[n][0]]
        oldest = min((at for _a, at in kept.values()), default=self._d.now())
        return Kept(ordered, oldest, not missing, cost)

    def kept_steps(self, code: str) -> Kept[list[StepsCountItem]] | None:
        """The steps kept for one CNJ number, whatever their age (offline)."""
        number = StepsCountBody(lawsuit_cnj=[code]).lawsuit_cnj[0]
        kept = self._d.cache.datalake_answer(STEPS, number)
        if kept is None:
            return None
        items = [StepsCountItem.model_validate(i) for i in kept.answer or []]
        return Kept(items, kept.fetched_at, True, DatalakeCost(0))

    # --- the stored copy of one lawsuit ----------------------------------------------------

    async def lawsuit_copy(
        self, code: str, instance: int | None = None, *, max_age: timedelta | None = None
    ) -> Kept[Lawsuit | None]:
        """GET /lawsuits/{cnj}: the datalake's copy of one instance (D101); None in the value
        when the datalake holds none. Kept as an answer, and as a provisional version of the
        lawsuit (as the lookup's are: a definitive one is never replaced by it)."""
        number = parse_search_key(code, allow_wrong_check_digits=True).key
        wire = {"lawsuit_cnj": number, "instance": instance}

        async def fetch() -> Any:
            found = await self._d.api.stored_lawsuit_with_raw(number, instance)
            if found is None:
                return None
            _lawsuit, raw = found
            await self._d.cache.upsert_lawsuit(raw, provisional=True, source="stored-copy")
            return raw

        return await self._ask(
            LAWSUIT,
            wire,
            number,
            fetch,
            lambda answer: Lawsuit.model_validate(answer) if answer is not None else None,
            max_age=max_age,
            cost=self.cost_of(LAWSUIT),
        )

    def kept_lawsuit_copy(
        self, code: str, instance: int | None = None
    ) -> Kept[Lawsuit | None] | None:
        number = parse_search_key(code, allow_wrong_check_digits=True).key
        return self._kept(
            LAWSUIT,
            {"lawsuit_cnj": number, "instance": instance},
            lambda answer: Lawsuit.model_validate(answer) if answer is not None else None,
        )

    # --- everything kept about a document --------------------------------------------------

    def kept_about(self, document: str) -> list[tuple[str, datetime]]:
        """The kinds of answers kept about a document (a CPF, CNPJ or CNJ number) and when
        each was fetched, newest first: what a dossier can show offline."""
        return [(k.kind, k.fetched_at) for k in self._d.cache.datalake_answers_of(document)]
