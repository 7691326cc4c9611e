"""Short-lived file addresses (D81, D121): what a link leads to, held by the state.

Both attachment routes and ``GET /transfer-file/{id}`` answer an address instead of the file,
as the service's pre-signed storage URLs do. The sandbox serves it at
``<root>/_sandbox/files/<token>`` (``routes/files.py``): no api-key, 5 minutes of sandbox time
(the only lifetime the documents give, the file-transfer page's), 403 once expired.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["LINK_LIFETIME", "FileLink"]

LINK_LIFETIME = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class FileLink:
    """What a token gives: a lawsuit's attachment, a warrant's document or a transfer file."""

    token: str
    kind: str  # attachment | warrant | transfer_file
    key: str  # the api-key it was issued to (the file belongs to its tenant)
    expires_at: datetime
    filename: str
    code: str = ""
    instance: int = 1
    item_id: str = ""  # the attachment id or the transfer file id

    def expired(self, now: datetime) -> bool:
        return now >= self.expires_at
