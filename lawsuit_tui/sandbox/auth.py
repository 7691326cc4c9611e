"""The guards of a route, as FastAPI dependencies: its API key, its feature, its rate limit.

Authentication (D9, spec "Authentication"): a missing or unknown ``api-key`` header gives 401
in the transport shape; a known key without the feature of the route gives 403 in the flat
shape with code ``INSUFFICIENT_PERMISSIONS``.

Rate limit (D25, D26): the limited routes declare :func:`rate_limited` in ``dependencies=``.
It records the call, or raises 429 in the flat shape with ``Retry-After`` in whole seconds.
The ``X-RateLimit-*`` headers are left in ``request.state.ratelimit_headers``; the sandbox
middleware adds them to whatever answer the route gives (success or error), so every answer of
a limited route carries them (D26).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from lawsuit_tui.sandbox.dependencies import State
from lawsuit_tui.sandbox.errors import FlatServiceError, ServiceError
from lawsuit_tui.sandbox.keys import FEATURES, KeyConfig
from lawsuit_tui.sandbox.ratelimit import SlidingWindowLimiter
from lawsuit_tui.sandbox.state import SandboxState

__all__ = [
    "api_key_header",
    "bearer_scheme",
    "datalake_rate_limited",
    "rate_limited",
    "require_any_key",
    "require_bearer",
    "require_key",
]

# auto_error=False: the sandbox answers 401 itself, in the service's shape.
api_key_header = APIKeyHeader(name="api-key", auto_error=False, description="The API key")
bearer_scheme = HTTPBearer(
    auto_error=False, description="Token from POST /_sandbox/token (D40)", bearerFormat="JWT"
)


def _unauthorized(message: str) -> ServiceError:
    return ServiceError(401, message, name="HttpUnauthorizedError")


def _resolve_key(state: SandboxState, request: Request, api_key: str | None) -> KeyConfig:
    if not api_key:
        raise _unauthorized("User must be authenticated")  # D64
    config = state.keys.get(api_key.strip())
    if config is None:
        raise _unauthorized("USER_NOT_FOUND")  # D64
    request.state.key_config = config
    state.stats.count_call(config.key, request)
    return config


def require_key(feature: str) -> Callable[..., Awaitable[KeyConfig]]:
    """Dependency: the caller's KeyConfig, else 401 (no/unknown key) or 403 (no feature)."""
    if feature not in FEATURES:
        raise ValueError(f"unknown feature {feature!r}")

    # async: FastAPI runs sync dependencies in worker threads; the state lives on the loop.
    async def dependency(
        request: Request,
        state: State,
        api_key: Annotated[str | None, Depends(api_key_header)],
    ) -> KeyConfig:
        config = _resolve_key(state, request, api_key)
        if not config.allows(feature):
            raise FlatServiceError.forbidden(
                "INSUFFICIENT_PERMISSIONS", f"this API key has no access to the {feature} service"
            )
        return config

    dependency.__name__ = f"require_key_{feature}"
    return dependency


async def require_any_key(
    request: Request, state: State, api_key: Annotated[str | None, Depends(api_key_header)]
) -> KeyConfig:
    """Dependency for the sandbox-only routes (D45): any configured key."""
    return _resolve_key(state, request, api_key)


async def require_bearer(
    request: Request,
    state: State,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
) -> KeyConfig:
    """Dependency for the bearer lookup (D40): a token minted by /_sandbox/token."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise _unauthorized("Authorization: Bearer token missing")
    key = state.tokens.key_for(credentials.credentials, state.clock.now())
    config = state.keys.get(key) if key is not None else None
    if config is None:
        raise _unauthorized("bearer token invalid or expired")
    request.state.key_config = config
    state.stats.count_call(config.key, request)
    if not config.allows("lookup"):
        raise FlatServiceError.forbidden(
            "INSUFFICIENT_PERMISSIONS", "this API key has no access to the lookup service"
        )
    return config


async def rate_limited(
    request: Request, state: State, api_key: Annotated[str | None, Depends(api_key_header)]
) -> None:
    """Dependency for the limited routes (D25).

    FastAPI resolves a route's ``dependencies=`` before its parameters, so this reads the key
    itself; an unknown or missing key is not counted (the key dependency answers 401).
    """
    _count_call(request, state, state.limiter, api_key)


async def datalake_rate_limited(
    request: Request, state: State, api_key: Annotated[str | None, Depends(api_key_header)]
) -> None:
    """Dependency for the lawsuits service's synchronous routes: their own window (D74)."""
    _count_call(request, state, state.datalake_limiter, api_key)


def _count_call(
    request: Request, state: SandboxState, limiter: SlidingWindowLimiter, api_key: str | None
) -> None:
    config = state.keys.get(api_key.strip()) if api_key else None
    if config is None:
        return
    decision = limiter.hit(config.key)
    headers = decision.headers()
    request.state.ratelimit_headers = headers
    if not decision.allowed:
        state.stats.count_429(config.key)
        raise FlatServiceError(
            429,
            "TOO_MANY_REQUESTS",
            f"rate limit of {decision.limit} calls per {limiter.seconds:g} s exceeded",
            "RATE_LIMIT_EXCEEDED",
            headers={**headers, "Retry-After": str(decision.retry_after)},
        )
