"""Bearer tokens for the alternate lookup (D40), minted by ``POST /_sandbox/token``.

They are JWT-shaped (header.payload.signature, HS256 over a secret drawn when the sandbox's
state is made) so a client that inspects them sees the usual form; the sandbox itself only
looks them up. The secret and the tokens are plain data on the state (saved with a sandbox
kept on disk): a token minted by one process works in every process sharing that state.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

__all__ = ["TOKEN_LIFETIME_SECONDS", "TokenGrant", "TokenStore"]

TOKEN_LIFETIME_SECONDS = 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass(frozen=True, slots=True)
class TokenGrant:
    api_key: str
    expires_at: datetime


@dataclass
class TokenStore:
    secret: str = field(default_factory=lambda: secrets.token_hex(32))
    grants: dict[str, TokenGrant] = field(default_factory=dict)

    def mint(self, api_key: str, now: datetime) -> tuple[str, int]:
        """A new token for ``api_key`` and its lifetime in seconds."""
        header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        claims = {
            "sub": hashlib.sha256(api_key.encode()).hexdigest()[:16],
            "iat": int(now.timestamp()),
            "exp": int(now.timestamp()) + TOKEN_LIFETIME_SECONDS,
            "jti": secrets.token_hex(8),
        }
        payload = _b64(json.dumps(claims).encode())
        signature = _b64(
            hmac.new(
                bytes.fromhex(self.secret), f"{header}.{payload}".encode(), hashlib.sha256
            ).digest()
        )
        token = f"{header}.{payload}.{signature}"
        # Expired grants go when a new one comes: the list stays as long as the live ones.
        for old in [t for t, grant in self.grants.items() if now >= grant.expires_at]:
            del self.grants[old]
        self.grants[token] = TokenGrant(api_key, now + timedelta(seconds=TOKEN_LIFETIME_SECONDS))
        return token, TOKEN_LIFETIME_SECONDS

    def key_for(self, token: str, now: datetime) -> str | None:
        found = self.grants.get(token.strip())
        if found is None or now >= found.expires_at:
            return None
        return found.api_key
