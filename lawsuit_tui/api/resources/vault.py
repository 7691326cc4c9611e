"""The vault: the court logins and certificates the service keeps on the customer's behalf."""

from __future__ import annotations

import httpx
import orjson

from lawsuit_tui.api.resources.base import RouteCaller, wire_of
from lawsuit_tui.domain.bodies import (
    CertificateBody,
    CredentialDeleteBody,
    CredentialsRegistrationBody,
)
from lawsuit_tui.domain.vault import (
    CertificateRegistrationResult,
    CredentialRegistrationResult,
    VaultListing,
    parse_registration_results,
)

__all__ = ["VaultRoutes"]


class VaultRoutes(RouteCaller):
    async def vault_status(self, customer_key: str = "*") -> VaultListing:
        """GET {vault_url}/credentials?customer_key=..."""
        return await self._call(
            "vault_status", self._model(VaultListing), params={"customer_key": customer_key}
        )

    async def register_credentials(
        self, body: CredentialsRegistrationBody
    ) -> list[CredentialRegistrationResult]:
        """POST {vault_url}/credentials; one entry per system registered (siblings too)."""

        def parse(response: httpx.Response) -> list[CredentialRegistrationResult]:
            return parse_registration_results(orjson.loads(response.content))

        return await self._call("register_credentials", parse, body=wire_of(body))

    async def register_certificate(self, body: CertificateBody) -> CertificateRegistrationResult:
        """POST {vault_url}/credentials/certificate (D67): the holder and expiry read by the
        vault; ``system_name`` filled with the one sent (the answer does not carry it)."""

        def parse(response: httpx.Response) -> CertificateRegistrationResult:
            result = CertificateRegistrationResult.model_validate_json(response.content)
            if result.system_name is None:
                result.system_name = body.system_name
            return result

        return await self._call("register_certificate", parse, body=wire_of(body))

    async def delete_credential(
        self, body: CredentialDeleteBody
    ) -> list[CredentialRegistrationResult]:
        """DELETE {vault_url}/credentials with ``{system_name, customer_key}``. The service
        answers an empty object (D83); an older answer's entries are read too."""

        def parse(response: httpx.Response) -> list[CredentialRegistrationResult]:
            data = orjson.loads(response.content) if response.content.strip() else {}
            if isinstance(data, dict) and not data:
                return []
            return parse_registration_results(data)

        return await self._call("delete_credential", parse, body=wire_of(body))
