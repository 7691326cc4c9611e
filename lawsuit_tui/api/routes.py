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
- ``datalake``: counted by the lawsuits service's own window of its synchronous routes (D74,
  D100) instead of the shared one; implies ``limited``.
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
    datalake: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {{{self.base}}}{self.path}"


_ALL: tuple[Route, ...] = (
    # The datalake's synchronous routes (D100): billed per call (D108), so never repeated once
    # they may have reached the service.
    Route("lookup", "POST", "lawsuits_url", "/lawsuits", slow=True, creating=True, datalake=True),
    Route("lookup_bearer", "POST", "requests_url", "/lawsuits", slow=True, bearer=True),
    Route("create_request", "POST", "requests_url", "/requests", limited=True, creating=True),
    Route("get_request", "GET", "requests_url", "/requests/{request_id}", limited=True),
    Route("list_requests", "GET", "requests_url", "/requests", limited=True),
    Route("cancel_request", "DELETE", "requests_url", "/requests/{request_id}", optional=True),
    Route("list_responses", "GET", "requests_url", "/responses", limited=True),
    Route("get_response", "GET", "requests_url", "/responses/{response_id}", limited=True),
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
    # D73, D74: one slot of the window per bulk call; never retried once it may have arrived.
    Route(
        "create_trackings_bulk",
        "POST",
        "tracking_url",
        "/tracking/bulk",
        limited=True,
        creating=True,
        optional=True,
    ),
    Route("list_tracked_items", "GET", "tracking_url", "/tracked-item", optional=True),
    Route("count_tracked_items", "GET", "tracking_url", "/tracked-item-count", optional=True),
    Route(
        "get_tracked_item",
        "GET",
        "tracking_url",
        "/tracked-item/{tracked_item_id}",
        optional=True,
    ),
    Route("vault_status", "GET", "vault_url", "/credentials"),
    Route("register_credentials", "POST", "vault_url", "/credentials", creating=True),
    Route("delete_credential", "DELETE", "vault_url", "/credentials", optional=True),
    Route("count", "POST", "miner_url", "/requests/count", creating=True),
    Route("register_certificate", "POST", "vault_url", "/credentials/certificate", creating=True),
    Route("tribunals", "GET", "miner_url", "/tribunals"),
    Route("create_find", "POST", "miner_url", "/requests/create", creating=True),
    Route("get_miner_request", "GET", "miner_url", "/requests/{request_id}"),
    Route("list_miner_responses", "GET", "miner_url", "/responses"),
    Route(
        "download_attachment",
        "GET",
        "lawsuits_url",
        "/lawsuits/{code}/{instance}/attachments/{attachment_id}",
        optional=True,
        slow=True,
    ),
    # D122: the document of an arrest warrant (its address, D81).
    Route(
        "warrant_attachment",
        "GET",
        "lawsuits_url",
        "/warrants/{code}/attachments/{attachment_id}",
        slow=True,
    ),
    # D123: transfer files (not rate limited, D74).
    Route("list_transfer_files", "GET", "lawsuits_url", "/transfer-file"),
    Route("get_transfer_file", "GET", "lawsuits_url", "/transfer-file/{transfer_file_id}"),
    Route("update_transfer_file", "PATCH", "lawsuits_url", "/transfer-file/{transfer_file_id}"),
)

_ALL += (
    Route(
        "count_lawsuits", "POST", "lawsuits_url", "/lawsuits/count", creating=True, datalake=True
    ),
    Route(
        "synthetic_lawsuits",
        "POST",
        "lawsuits_url",
        "/lawsuits/synthetic",
        creating=True,
        datalake=True,
    ),
    Route("steps_count", "POST", "lawsuits_url", "/steps/count", creating=True, datalake=True),
    # on_demand reads the Receita Federal live: seconds, not milliseconds.
    Route("entities", "POST", "lawsuits_url", "/entities", slow=True, creating=True, datalake=True),
    Route(
        "stored_lawsuit",
        "GET",
        "lawsuits_url",
        "/lawsuits/{lawsuit_cnj}",
        creating=True,
        datalake=True,
    ),
)

ROUTES: dict[str, Route] = {route.name: route for route in _ALL}
