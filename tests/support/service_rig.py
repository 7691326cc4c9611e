"""A service context over the in-process sandbox, on a clock the test drives."""

from __future__ import annotations

import asyncio
import heapq
from pathlib import Path
from typing import Any

import httpx
import orjson

from lawsuit_tui.config import Settings
from lawsuit_tui.sandbox.app import create_app, drain, sandbox_state
from lawsuit_tui.sandbox.clock import DEFAULT_START, SandboxClock
from lawsuit_tui.sandbox.world import World
from lawsuit_tui.services.context import ServiceContext
from lawsuit_tui.services.requests import FollowPolicy


class Rig:
    """The sandbox (frozen clock: it moves only when the services sleep) and a context."""

    def __init__(
        self,
        cache_dir: Path,
        *,
        rate_limit: tuple[int, float] = (180, 60.0),
        speed: float = 0.0,
        max_attempts: int = 5,
    ) -> None:
        self.clock = (
            SandboxClock.frozen() if speed == 0 else SandboxClock(DEFAULT_START, speed=speed)
        )
        self.app = create_app(
            seed=7, clock=self.clock, rate_limit=rate_limit, world=World.shared(7)
        )
        self.state = sandbox_state(self.app)
        self.transport: httpx.AsyncBaseTransport = httpx.ASGITransport(app=self.app)
        self.settings = Settings(
            cache_dir=cache_dir,
            rate_limit={"calls": rate_limit[0], "seconds": rate_limit[1]},
            retries={"max_attempts": max_attempts, "max_total_seconds": 600.0},
        )
        self.slept: list[float] = []
        self.ctx: ServiceContext | None = None

    async def sleep(self, seconds: float) -> None:
        """The services' sleep. Frozen clock: the sandbox's time moves on and what is due
        happens at once. Running clock: a real sleep, scaled by the clock's speed."""
        self.slept.append(seconds)
        if self.clock.is_frozen:
            self.clock.advance(seconds)
            await drain(self.app)
        else:
            await asyncio.sleep(seconds / self.clock.speed)

    def now(self) -> float:
        return self.clock.now().timestamp()

    async def open(self, **kwargs: Any) -> ServiceContext:
        kwargs.setdefault("follow_policy", FollowPolicy(base=0.5, factor=1.6, ceiling=4.0))
        self.ctx = await ServiceContext.open(
            self.settings,
            transport=self.transport,
            clock=self.now,
            sleep=self.sleep,
            **kwargs,
        )
        return self.ctx

    async def samples(self) -> dict[str, Any]:
        return dict(self.state.world.samples())

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await drain(self.app)

    def held_responses(self, key: str = "sandbox") -> list[dict[str, Any]]:
        """The responses the sandbox holds for ``key``, as the JSON it would send."""
        return [orjson.loads(orjson.dumps(s.json)) for s in self.state.responses.get(key, [])]

    def seed_responses(self, count: int, *, key: str = "sandbox") -> int:
        """Append ``count`` responses to what the sandbox holds (white box: bulk data the
        world would take minutes to produce). Mostly small application_error results, with
        a copy of a real lawsuit response now and then. The total held."""
        held = self.held_responses(key)
        if not held:
            raise AssertionError("create and complete a request first")
        model = held[0]
        stamp = self.clock.now().strftime("%Y-%m-%dT%H:%M:%S")
        for n in range(count):
            if n % 100 == 0:
                item = dict(model)
            else:
                item = {
                    **{k: model.get(k) for k in ("request_id", "origin", "origin_id", "user_id")},
                    "response_type": "application_error",
                    "response_data": {
                        "code": "LAWSUIT_NOT_FOUND",
                        "message": "not found",
                        "details": f"seeded {n}",
                    },
                    "cached": False,
                    "tags": {"cached_response": False},
                }
            item["response_id"] = f"seeded-{n:06d}"
            item["created_at"] = f"{stamp}.{n % 1000:03d}Z"
            self.state.add_response(key, item)
        return len(self.state.responses[key])

    def stats(self) -> dict[str, Any]:
        return dict(self.state.stats.snapshot())

    async def aclose(self) -> None:
        if self.ctx is not None:
            await self.ctx.aclose()

    async def __aenter__(self) -> Rig:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def serve_failures(self, rate: float, statuses: list[int], *, latency_ms: int = 0) -> None:
        """The sandbox answers ``rate`` of the calls with one of ``statuses``, each call
        ``latency_ms`` late."""
        faults = self.state.faults
        faults.error_rate = rate
        faults.error_statuses = statuses
        faults.latency_ms = latency_ms


class VirtualTime:
    """Time that moves only when every worker waits: on a sleep, or for a rate-limit slot.

    The sandbox's frozen clock is advanced to the earliest wake-up each time, so CPU time
    spent by either side costs no virtual time, and the run takes what the CPU needs."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self._heap: list[tuple[float, int, asyncio.Future[None], str]] = []
        self._seq = 0

    def sleeper(self, kind: str) -> Any:
        async def sleep(seconds: float) -> None:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[None] = loop.create_future()
            self._seq += 1
            heapq.heappush(
                self._heap, (self.rig.now() + max(0.0, seconds), self._seq, future, kind)
            )
            await future

        return sleep

    def sleeping(self, kind: str) -> int:
        return sum(1 for _t, _s, f, k in self._heap if k == kind and not f.done())

    async def drive(
        self, workers: list[asyncio.Task[None]], limiter: Any, until: float, *, limit: float = 60.0
    ) -> None:
        """Move virtual time to ``until``; ``limit`` bounds the real seconds it may take."""
        deadline = asyncio.get_running_loop().time() + limit
        while self.rig.now() < until:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"virtual time stuck at {self.rig.now()} (wanted {until})")
            for _ in range(5):
                await asyncio.sleep(0)
            for task in workers:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            live = sum(1 for t in workers if not t.done())
            blocked = self.sleeping("follow") + limiter.waiting
            if self._heap and blocked >= live:
                wake_at = self._heap[0][0]
                step = wake_at - self.rig.now()
                if step > 0:
                    # The sandbox clock counts whole microseconds: round up.
                    self.rig.clock.advance(step + 1e-6)
                    await drain(self.rig.app)
                while self._heap and self._heap[0][0] <= self.rig.now() + 1e-6:
                    _t, _s, future, _k = heapq.heappop(self._heap)
                    if not future.done():
                        future.set_result(None)
            else:
                await asyncio.sleep(0.0005)  # a store write in a worker thread
