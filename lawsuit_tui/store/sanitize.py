"""One sanitizer for everything the cache writes: no secret ever reaches a file.

Dropped: any key that names a secret (password, api-key/api_key/apikey, authorization,
bearer, anything ending in token, secret or password, private keys, two-factor secrets),
wherever it is nested (a vault credential inside a request body, headers kept in a tag).
Redacted: string values that look like a credential whatever their key (``Bearer ...``,
a JWT), and any string containing a secret value the caller registered (the API key and the
bearer token in use), so a key pasted into a free-text field does not leak either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import orjson

REDACTED = "[redacted]"

_SECRET_KEYS = frozenset(
    {
        "password",
        "passwd",
        "senha",
        "apikey",
        "authorization",
        "proxyauthorization",
        "bearer",
        "secret",
        "clientsecret",
        "privatekey",
        "twofactorsecret",
        "otpsecret",
        "totpsecret",
        "certificate",
        "certificatecontent",
        "pfx",
        "pkcs12",
        "cookie",
        "setcookie",
    }
)
_SECRET_SUFFIXES = ("token", "password", "secret", "apikey", "passphrase")
# Credentials inside free text: "Bearer <token>", a JWT, "api-key: <key>", "password=<x>".
_INLINE = re.compile(
    r"(?P<scheme>\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{6,}"
    r"|eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"
    r"|(?P<name>\b(?:api[-_ ]?key|authorization|password|passwd|senha|secret|"
    r"[a-z_-]*token)\b\s*[:=]\s*)(?:bearer\s+)?[^\s,;&\"']+",
    re.IGNORECASE,
)


# A quick test before the walk: _SECRET_KEYS, _SECRET_SUFFIXES and _INLINE all contain one
# of these (keep them in step). Ordinary legal text rarely does, so most records skip the walk.
_KEYWORDS = (
    "passw",
    "passphrase",
    "senha",
    "apikey",
    "authorization",
    "bearer",
    "basic",
    "secret",
    "token",
    "privatekey",
    "certificate",
    "pfx",
    "pkcs12",
    "cookie",
    "eyj",
)


_KEYWORD_BYTES = tuple(word.encode() for word in _KEYWORDS)
# _suspect lower-cases and squeezes the text a window at a time (a lawsuit of 10,000 steps
# is 5 MB of JSON: whole, that was five 5 MB copies at once). Windows overlap by more than
# any keyword spread out by separators.
_WINDOW = 256 * 1024
_OVERLAP = 1024
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def _escaped(value: str) -> str:
    return orjson.dumps(value).decode()[1:-1]


def _mask(match: re.Match[str]) -> str:
    prefix = match.group("scheme") or match.group("name") or ""
    return f"{prefix}{REDACTED}"


def is_secret_key(key: str) -> bool:
    norm = key.lower().replace("-", "").replace("_", "").replace(" ", "")
    return norm in _SECRET_KEYS or norm.endswith(_SECRET_SUFFIXES)


class Sanitizer:
    """Strips secrets from JSON-like values; holds the secret values to scrub as well."""

    def __init__(self, secret_values: Iterable[str] = ()) -> None:
        self._values: tuple[str, ...] = ()
        self.add_secrets(secret_values)

    def add_secrets(self, values: Iterable[str]) -> None:
        # Short values would redact ordinary text; real keys and tokens are long.
        fresh = {v for v in values if isinstance(v, str) and len(v) >= 8}
        self._values = tuple(sorted(set(self._values) | fresh, key=len, reverse=True))

    def text(self, value: str) -> str:
        if _INLINE.search(value):
            value = _INLINE.sub(_mask, value)
        for secret in self._values:
            if secret in value:
                value = value.replace(secret, REDACTED)
        return value

    def clean_json(self, value: Any) -> tuple[Any, bytes]:
        """``value`` without secrets, and its JSON text (orjson bytes).

        The common case costs one serialisation and a few scans of the text: only when the
        text shows a key that may name a secret, a credential-looking string or a registered
        secret value is the value walked and rebuilt.
        """
        raw = orjson.dumps(value)
        if not self._suspect(raw):
            return value, raw
        clean = self.clean(value)
        return clean, orjson.dumps(clean)

    def _suspect(self, raw: bytes) -> bool:
        # Every secret key name and every pattern of _INLINE contains one of _KEYWORDS once
        # lower-cased and stripped of "-", "_" and spaces, as is_secret_key compares names.
        for start in range(0, len(raw), _WINDOW):
            squeezed = raw[start : start + _WINDOW + _OVERLAP].translate(_LOWER, b"-_ ")
            if any(word in squeezed for word in _KEYWORD_BYTES):
                return True
        return any(v.encode() in raw or _escaped(v).encode() in raw for v in self._values)

    def clean(self, value: Any) -> Any:
        """A copy of ``value`` without secrets (dicts and lists are rebuilt, never mutated)."""
        if isinstance(value, dict):
            return {
                k: self.clean(v)
                for k, v in value.items()
                if not (isinstance(k, str) and is_secret_key(k))
            }
        if isinstance(value, list | tuple):
            return [self.clean(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value


def sanitize(value: Any, secret_values: Iterable[str] = ()) -> Any:
    """Module-level shortcut: ``value`` without secret keys or credential-looking strings."""
    return Sanitizer(secret_values).clean(value)
