"""The sandbox's ASGI middleware: body limit, timed work, one transaction per call, faults,
rate-limit headers.

- D46: a body over 1 MiB is refused with 413 before any route reads it.
- Every request first starts the background runner (lazily, on its own loop), reads what
  other processes wrote (a sandbox kept on disk) and takes the timed steps due by now, so a
  route never reads state behind the clock.
- D180: the route runs inside one transaction on the state; its answer is sent once what it
  changed is kept (a 201 is never sent for a creation the file does not hold). When it
  cannot be kept the answer is a 503 that says so.
- D45 faults, on service routes only (not ``/_sandbox`` nor the OpenAPI document): added
  latency, a share of 5xx answers, malformed or truncated bodies.
- D26: the ``X-RateLimit-*`` headers a limited route's dependency left in the request state
  are added to its answer, whatever the answer is.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lawsuit_tui.sandbox.errors import error_body_for
from lawsuit_tui.sandbox.state import SandboxState, StateNotKept
from lawsuit_tui.sandbox.state_file import StateFileError

__all__ = ["MAX_BODY_BYTES", "SandboxMiddleware"]

MAX_BODY_BYTES = 1024 * 1024  # D46
_NOT_FAULTED = ("/_sandbox", "/openapi.json", "/docs", "/redoc")
# The documents of the interface touch no state.
_NO_STATE = ("/openapi.json", "/docs", "/redoc")
# Routes that open their own transactions (D185: the samples, made outside any lock).
_OWN_TRANSACTIONS = ("/_sandbox/samples",)


def _json_answer(status: int, body: dict[str, Any]) -> tuple[Message, Message]:
    data = orjson.dumps(body)
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(data)).encode()),
        ],
    }
    return start, {"type": "http.response.body", "body": data, "more_body": False}


class SandboxMiddleware:
    def __init__(self, app: ASGIApp, state: SandboxState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if path.startswith(_NO_STATE):
            await self.app(scope, receive, send)
            return
        state = self.state
        state.background.ensure_running()
        replay = await self._limited_body(scope, receive, send)
        if replay is None:
            return
        answer: list[Message] = []

        async def keep(message: Message) -> None:
            answer.append(message)

        try:
            await state.refresh()
            await state.background.take_due()
            if path.startswith(_OWN_TRANSACTIONS):
                await self._faulted(scope, path, replay, keep)
            else:
                async with state.transaction():
                    await self._faulted(scope, path, replay, keep)
        except Exception as exc:
            if not _keeping_failed(exc):
                raise
            body = error_body_for(path, 503, f"the sandbox could not keep its state: {exc}")
            answer = list(_json_answer(503, body))
        for message in answer:
            await send(message)

    async def _faulted(self, scope: Scope, path: str, receive: Receive, send: Send) -> None:
        """The route, with the faults in force (D45) and the rate-limit headers (D26)."""
        state = self.state
        faulted = not path.startswith(_NOT_FAULTED) and state.faults.active
        body_fault: str | None = None
        if faulted:
            faults = state.faults
            if faults.latency_ms:
                await asyncio.sleep(faults.latency_ms / 1000)
            status = faults.pick_error(state.fault_dice)
            if status is not None:
                state.stats.count_fault(str(status))
                body = error_body_for(path, status, {"message": "injected fault"})
                for message in _json_answer(status, body):
                    await send(message)
                return
            body_fault = faults.pick_body_fault(state.fault_dice)
            if body_fault:
                state.stats.count_fault(body_fault)

        scope_state: dict[str, Any] = scope.setdefault("state", {})
        pending_start: Message | None = None
        chunks: list[bytes] = []

        async def wrapped_send(message: Message) -> None:
            nonlocal pending_start
            if message["type"] == "http.response.start":
                headers = scope_state.get("ratelimit_headers")
                if headers:
                    present = {k.lower() for k, _ in message.get("headers", [])}
                    extra = [
                        (k.lower().encode(), v.encode())
                        for k, v in headers.items()
                        if k.lower().encode() not in present
                    ]
                    message = {**message, "headers": [*message.get("headers", []), *extra]}
                if body_fault:
                    pending_start = message
                    return
                await send(message)
                return
            if message["type"] == "http.response.body" and body_fault:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                body = b"".join(chunks)
                if body_fault == "truncated":
                    body = body[: max(1, len(body) // 2)]
                else:
                    body = b'{"page_data": [<<malformed>>' + body[:16]
                assert pending_start is not None
                headers = [
                    (k, v) for k, v in pending_start.get("headers", []) if k != b"content-length"
                ]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({**pending_start, "headers": headers})
                await send({"type": "http.response.body", "body": body, "more_body": False})
                return
            await send(message)

        await self.app(scope, receive, wrapped_send)

    async def _limited_body(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """Read the body up to the limit and replay it; None after answering 413 (D46)."""
        if scope.get("method") not in ("POST", "PUT", "PATCH", "DELETE"):
            return receive
        too_large = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_large = int(value) > MAX_BODY_BYTES
                except ValueError:
                    too_large = False
        body = b""
        more = not too_large
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY_BYTES:
                too_large = True
                break
        if too_large:
            body = error_body_for(scope.get("path", ""), 413, "body over 1 MiB")
            for message in _json_answer(413, body):
                await send(message)
            return None
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay


def _keeping_failed(exc: BaseException) -> bool:
    """Whether ``exc`` says the state could not be read or kept (not a route's own error)."""
    return isinstance(exc, StateNotKept | StateFileError | sqlite3.Error)
