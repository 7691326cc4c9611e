"""Everything a use case can raise, in one place for the TUI and the commands.

No httpx here: the UI imports this module.
"""

from __future__ import annotations

from lawsuit_tui.api.errors import (
    ApiError,
    BadRequest,
    Conflict,
    CourtUnavailable,
    Forbidden,
    Maintenance,
    MalformedResponse,
    NotFound,
    OperationNotAvailable,
    PayloadTooLarge,
    RateLimited,
    ServerError,
    TransportFailure,
    Unauthorized,
    Unprocessable,
)
from lawsuit_tui.domain.identifiers import InvalidSearchKey
from lawsuit_tui.store import CacheError, CacheLocked, CacheReadOnly, CacheUnavailable, os_problem

__all__ = [
    "ApiError",
    "BadRequest",
    "CacheError",
    "CacheLocked",
    "CacheReadOnly",
    "CacheUnavailable",
    "Conflict",
    "CourtUnavailable",
    "Forbidden",
    "InvalidSearchKey",
    "Maintenance",
    "MalformedResponse",
    "NotFound",
    "OperationNotAvailable",
    "PayloadTooLarge",
    "RateLimited",
    "ServerError",
    "TransportFailure",
    "Unauthorized",
    "Unprocessable",
    "os_problem",
]
