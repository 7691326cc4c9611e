"""Every route the client calls: where it lives, and how it may be retried and limited.

The flags decide behaviour elsewhere, so each route states them once here:

- ``limited``: counted by the service's shared rate limit (D25), so it takes a slot of the
  client's sliding window first.
- ``creating``: the call creates something that costs money or cannot be undone twice (a
  request, a tracking, a credential, a count record). It is retried only when the service
  certainly did not process it (see ``retry.py``).
- ``optional``: a route the spec does not show (D16, D23, D28, D34, D41); a 405, or a 404
  naming no resource, means this service does not offer it (OperationNotAvailable).
- ``slow``: the read time-out is ``timeouts.lookup_read`` (a court can be slow to answer).
- ``bearer``: authenticated with ``Authorization: Bearer`` instead of ``api-key``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ROUTES", "Route"]


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    base: str  # attribute of BaseUrls
    path: str  # str.format template, path parameters already quoted by the caller
    limited: bool = False
    creating: bool = False
    optional: bool = False
    slow: bool = False
    bearer: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {{{self.base}}}{self.path}"


_ALL = (
    Route("lookup", "POST", "lawsuits_url", "/lawsuits", slow=True),
    Route("lookup_bearer", "POST", "requests_url", "/lawsuits", slow=True, bearer=True),
    Route("create_request", "POST", "requests_url", "/requests", limited=True, creating=True),
    Route("get_request", "GET", "requests_url", "/requests/{request_id}", limited=True),
    Route("list_requests", "GET", "requests_url", "/requests", limited=True),
    Route("cancel_request", "DELETE", "requests_url", "/requests/{request_id}", optional=True),
    Route("list_responses", "GET", "requests_url", "/responses", limited=True),
    Route(
        "list_tracking_responses",
        "GET",
        "requests_url",
        "/responses/tracking/{origin_id}",
        limited=True,
    ),
    Route("get_tracking", "GET", "tracking_url", "/tracking/{tracking_id}", limited=True),
    Route("list_trackings", "GET", "tracking_url", "/tracking", limited=True),
    Route("create_tracking", "POST", "tracking_url", "/tracking", limited=True, creating=True),
    Route("pause_tracking", "POST", "tracking_url", "/tracking/{tracking_id}/pause", optional=True),
    Route("resume_tracking", "POST", "tracking_url", "/tracking/{tracking_id}/resume"),
    Route("patch_tracking", "PATCH", "tracking_url", "/tracking/{tracking_id}", optional=True),
    Route("delete_tracking", "DELETE", "tracking_url", "/tracking/{tracking_id}", optional=True),
    Route("vault_status", "GET", "vault_url", "/credentials"),
    Route("register_credentials", "POST", "vault_url", "/credentials", creating=True),
    Route("delete_credential", "DELETE", "vault_url", "/credentials", optional=True),
    Route("count", "POST", "miner_url", "/requests/count", creating=True),
    Route(
        "download_attachment",
        "GET",
        "lawsuits_url",
        "/lawsuits/{code}/{instance}/attachments/{attachment_id}",
        optional=True,
        slow=True,
    ),
)

ROUTES: dict[str, Route] = {route.name: route for route in _ALL}
