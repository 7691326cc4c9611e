"""An HTTP client on a sandbox app in this process (``httpx.ASGITransport``), as a caller with
an api-key or, with ``api_key=None``, as one without (a browser, a bearer-token caller)."""

from __future__ import annotations

from typing import Any

import httpx

__all__ = ["sandbox_http"]


def sandbox_http(
    app: Any, *, api_key: str | None = "sandbox", base_url: str = "http://sandbox"
) -> httpx.AsyncClient:
    """``async with sandbox_http(app) as http:``. ``base_url`` is the host the sandbox's
    addresses (attachment and transfer-file links) are minted under."""
    headers = {"api-key": api_key} if api_key is not None else None
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=base_url, headers=headers
    )
