"""Bearer tokens for the alternate lookup (D40), minted by ``POST /_sandbox/token``.

They are JWT-shaped (header.payload.signature, HS256 over a secret drawn from the seed) so a
client that inspects them sees the usual form; the sandbox itself only looks them up.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lawsuit_tui.sandbox.clock import SandboxClock

__all__ = ["TOKEN_LIFETIME_SECONDS", "TokenStore"]

TOKEN_LIFETIME_SECONDS = 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class TokenStore:
    def __init__(self, clock: SandboxClock) -> None:
        self._clock = clock
        self._secret = secrets.token_bytes(32)
        self._tokens: dict[str, tuple[str, datetime]] = {}

    def mint(self, api_key: str) -> tuple[str, int]:
        """A new token for ``api_key`` and its lifetime in seconds."""
        now = self._clock.now()
        header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        claims = {
            "sub": hashlib.sha256(api_key.encode()).hexdigest()[:16],
            "iat": int(now.timestamp()),
            "exp": int(now.timestamp()) + TOKEN_LIFETIME_SECONDS,
            "jti": secrets.token_hex(8),
        }
        payload = _b64(json.dumps(claims).encode())
        signature = _b64(
            hmac.new(self._secret, f"{header}.{payload}".encode(), hashlib.sha256).digest()
        )
        token = f"{header}.{payload}.{signature}"
        self._tokens[token] = (api_key, now + timedelta(seconds=TOKEN_LIFETIME_SECONDS))
        return token, TOKEN_LIFETIME_SECONDS

    def key_for(self, token: str) -> str | None:
        found = self._tokens.get(token.strip())
        if found is None:
            return None
        key, expires = found
        if self._clock.now() >= expires:
            del self._tokens[token.strip()]
            return None
        return key
