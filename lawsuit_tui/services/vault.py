"""The credential vault: the status grid (kept without secrets), registration, deletion."""

from __future__ import annotations

from lawsuit_tui.domain.bodies import (
    CredentialDeleteBody,
    CredentialItem,
    CredentialsRegistrationBody,
)
from lawsuit_tui.domain.vault import CredentialRegistrationResult, SystemStatusRow
from lawsuit_tui.services.deps import Deps

__all__ = ["VaultService"]

# Only these fields of a status row are kept: nothing else can carry a secret.
_ROW_FIELDS = ("name", "customer_key", "credential_status")


class VaultService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    async def status(self, customer_key: str = "*") -> list[SystemStatusRow]:
        """GET /credentials for ``customer_key``; the grid is kept as a snapshot."""
        listing = await self._d.api.vault_status(customer_key)
        rows = [
            {k: v for k, v in row.to_json_dict().items() if k in _ROW_FIELDS}
            for row in listing.systems
        ]
        await self._d.cache.save_vault_snapshot(customer_key, rows)
        return list(listing.systems)

    def cached_status(self, customer_key: str = "*") -> list[SystemStatusRow] | None:
        rows = self._d.cache.store.vault_snapshot(customer_key)
        if rows is None:
            return None
        return [SystemStatusRow.model_validate(row) for row in rows]

    async def register(self, items: list[CredentialItem]) -> list[CredentialRegistrationResult]:
        """Register or replace credentials; one result per system (siblings included)."""
        body = CredentialsRegistrationBody.of(*items)
        return await self._d.api.register_credentials(body)

    async def delete(
        self, system_name: str, customer_key: str
    ) -> list[CredentialRegistrationResult]:
        body = CredentialDeleteBody(system_name=system_name, customer_key=customer_key)
        return await self._d.api.delete_credential(body)
