"""API keys of the sandbox and the FastAPI dependencies that check them.

A key is configured as ``KEY`` (every feature) or ``KEY:no-miner,no-vault`` (without those
features). Authentication (D9, spec "Authentication"): a missing or unknown ``api-key`` header
gives 401 in the transport shape; a known key without the feature of the route gives 403 in
the flat shape with code ``INSUFFICIENT_PERMISSIONS``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from lawsuit_tui.sandbox.errors import FlatServiceError, ServiceError

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.state import SandboxState

__all__ = [
    "FEATURES",
    "KeyConfig",
    "api_key_header",
    "bearer_scheme",
    "parse_key_spec",
    "parse_keys",
    "require_any_key",
    "require_bearer",
    "require_key",
    "sandbox_state",
]

FEATURES: frozenset[str] = frozenset({"lookup", "requests", "tracking", "vault", "miner"})

# auto_error=False: the sandbox answers 401 itself, in the service's shape.
api_key_header = APIKeyHeader(name="api-key", auto_error=False, description="The API key")
bearer_scheme = HTTPBearer(
    auto_error=False, description="Token from POST /_sandbox/token (D40)", bearerFormat="JWT"
)


@dataclass(frozen=True)
class KeyConfig:
    key: str
    features: frozenset[str] = FEATURES

    def allows(self, feature: str) -> bool:
        return feature in self.features

    def __repr__(self) -> str:  # the key is a secret: never in a log line
        return f"KeyConfig(key='***', features={sorted(self.features)})"


def parse_key_spec(spec: str) -> KeyConfig:
    """``"KEY"`` or ``"KEY:no-miner,no-vault"`` -> KeyConfig; ValueError on a bad spec."""
    key, _, options = spec.partition(":")
    key = key.strip()
    if not key:
        raise ValueError("an API key may not be empty")
    features = set(FEATURES)
    for option in filter(None, (o.strip() for o in options.split(","))):
        name = option.removeprefix("no-")
        if not option.startswith("no-") or name not in FEATURES:
            allowed = ", ".join(f"no-{f}" for f in sorted(FEATURES))
            raise ValueError(f"unknown key option {option!r} (allowed: {allowed})")
        features.discard(name)
    return KeyConfig(key, frozenset(features))


def parse_keys(specs: Iterable[str]) -> dict[str, KeyConfig]:
    configs = [parse_key_spec(s) for s in specs]
    return {c.key: c for c in configs}


def sandbox_state(request: Request) -> SandboxState:
    state: SandboxState = request.app.state.sandbox
    return state


def _unauthorized(message: str) -> ServiceError:
    return ServiceError(401, message, name="HttpUnauthorizedError")


def _resolve_key(request: Request, api_key: str | None) -> KeyConfig:
    state = sandbox_state(request)
    if not api_key:
        raise _unauthorized("api-key header missing")
    config = state.keys.get(api_key.strip())
    if config is None:
        raise _unauthorized("api-key invalid or expired")
    request.state.key_config = config
    state.stats.count_call(config.key, request)
    return config


def require_key(feature: str) -> Callable[..., Awaitable[KeyConfig]]:
    """Dependency: the caller's KeyConfig, else 401 (no/unknown key) or 403 (no feature)."""
    if feature not in FEATURES:
        raise ValueError(f"unknown feature {feature!r}")

    # async: FastAPI runs sync dependencies in worker threads; the state lives on the loop.
    async def dependency(
        request: Request, api_key: Annotated[str | None, Depends(api_key_header)]
    ) -> KeyConfig:
        config = _resolve_key(request, api_key)
        if not config.allows(feature):
            raise FlatServiceError.forbidden(
                "INSUFFICIENT_PERMISSIONS", f"this API key has no access to the {feature} service"
            )
        return config

    dependency.__name__ = f"require_key_{feature}"
    return dependency


async def require_any_key(
    request: Request, api_key: Annotated[str | None, Depends(api_key_header)]
) -> KeyConfig:
    """Dependency for the sandbox-only routes (D45): any configured key."""
    return _resolve_key(request, api_key)


async def require_bearer(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
) -> KeyConfig:
    """Dependency for the bearer lookup (D40): a token minted by /_sandbox/token."""
    state = sandbox_state(request)
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise _unauthorized("Authorization: Bearer token missing")
    key = state.tokens.key_for(credentials.credentials)
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
