"""The client's vault and Miner routes against the sandbox: the two-factor key where the
provider reads it, certificates on their own route (D67), the Miner's courts, and a find
request from creation to its lawsuits (D72)."""

from __future__ import annotations

import json

import httpx
import pytest

from lawsuit_tui.api.errors import Conflict, Forbidden, NotFound, Unprocessable
from lawsuit_tui.domain.bodies import (
    CertificateBody,
    CountBody,
    CredentialItem,
    CredentialsRegistrationBody,
)
from lawsuit_tui.domain.enums import MinerRequestStatus
from tests.support.certificates import HOLDER_CN, PFX_PASSWORD, pfx_base64
from tests.support.client_rig import ROOT, SandboxRig

ESAJ_1 = "ESAJ - TJSP - 1º grau"


async def test_the_two_factor_key_is_sent_as_custom_data_secret(sandbox: SandboxRig) -> None:
    """Issue 15: the provider reads ``credential.custom_data.secret``, not ``totp_secret``."""
    seen: list[dict[str, object]] = []

    async def spy(request: httpx.Request) -> None:
        if request.url.path.endswith("/credentials"):
            seen.append(json.loads(request.content))

    sandbox.api.http.event_hooks["request"].append(spy)
    item = CredentialItem(
        system_name="PJE TJBA - 1º grau",
        username="999.999.999-99",
        password="Senha123",
        custom_data={"secret": "JBSWY3DPEHPK3PXP"},
    )
    results = await sandbox.api.register_credentials(CredentialsRegistrationBody.of(item))
    assert [r.system_name for r in results] == ["PJE TJBA - 1º grau", "PJE TJBA - 2º grau"]
    sent = seen[0]["credentials"][0]["credential"]  # type: ignore[index]
    assert sent["custom_data"] == {"secret": "JBSWY3DPEHPK3PXP"}
    assert "totp_secret" not in sent


async def test_a_certificate_goes_to_its_own_route(sandbox: SandboxRig) -> None:
    body = CertificateBody(
        file_base64=pfx_base64(), password=PFX_PASSWORD, system_name=ESAJ_1, customer_key="teste"
    )
    created = await sandbox.api.register_certificate(body)
    assert created.message == "CERTIFICATE_CREATED"
    assert (created.subject_cn, created.customer_key, created.system_name) == (
        HOLDER_CN,
        "teste",
        ESAJ_1,
    )
    assert created.not_after is not None and created.uploaded_at is not None
    listing = await sandbox.api.vault_status("teste")
    assert [(r.name, r.credential_status) for r in listing.systems][1:] == [(ESAJ_1, "active")]
    same_holder = await sandbox.api.register_certificate(body)
    assert same_holder.message == "CERTIFICATE_UPDATED"


async def test_certificate_refusals_carry_the_vaults_code(sandbox: SandboxRig) -> None:
    wrong = CertificateBody(file_base64=pfx_base64(), password="not-it", system_name=ESAJ_1)
    # the sandbox's 422 (D94; vault.json says 400): the code is read from either
    with pytest.raises(Unprocessable) as refused:
        await sandbox.api.register_certificate(wrong)
    assert refused.value.name == "PFX_PASSWORD_INVALID"
    other = CertificateBody(file_base64=pfx_base64(), password=PFX_PASSWORD, system_name=ESAJ_1)
    await sandbox.api.register_certificate(other)
    mismatch = CertificateBody(
        file_base64=pfx_base64(cn="OUTRO TITULAR:52998224725"),
        password=PFX_PASSWORD,
        system_name=ESAJ_1,
    )
    with pytest.raises(Conflict) as conflict:
        await sandbox.api.register_certificate(mismatch)
    assert conflict.value.name == "CERTIFICATE_HOLDER_MISMATCH"


async def test_the_miners_courts(sandbox: SandboxRig) -> None:
    courts = await sandbox.api.tribunals()
    by_name = {court.name: court.tribunal_id for court in courts}
    assert (by_name["TJSP"], by_name["TRF3"], by_name["TRT2"]) == (10, 1, 150610)
    assert [c.name for c in courts] == sorted(c.name for c in courts)
    tjdf = next(c for c in courts if c.name == "TJDF")
    assert "Distrito Federal" in tjdf.full_name


async def test_a_find_request_from_creation_to_its_lawsuits(sandbox: SandboxRig) -> None:
    body = CountBody(kind="judgement-bond", tribunals=[10], responses_limit=7)
    counted = await sandbox.api.count(body)
    assert counted.total_lawsuits is not None and counted.total_lawsuits > 7
    created = await sandbox.api.create_find(body)
    assert created.status == MinerRequestStatus.PENDING
    assert created.cost is not None and created.cost > 0
    with pytest.raises(Unprocessable) as early:
        await sandbox.api.miner_responses(created.request_id)
    assert early.value.messages == ["REQUEST_NOT_COMPLETED"]
    await sandbox.advance(1.1)
    moving = await sandbox.api.miner_request(created.request_id)
    assert moving.status == MinerRequestStatus.PENDING
    assert moving.processed_lawsuits and 0 < moving.processed_lawsuits < 7
    await sandbox.advance(5)
    done = await sandbox.api.miner_request(created.request_id)
    assert (done.status, done.total_lawsuits, done.processed_lawsuits) == ("completed", 7, 7)
    assert done.type == "find" and done.filter is not None and done.filter.tribunals == [10]
    page = await sandbox.api.miner_responses(created.request_id, page=2, page_size=5)
    assert (page.page, page.page_size, page.total, page.total_pages) == (2, 5, 7, 2)
    assert len(page.data) == 2
    lawsuits = [
        item async for item in sandbox.api.iter_miner_lawsuits(created.request_id, page_size=3)
    ]
    assert len({item.code for item in lawsuits}) == 7
    assert all(item.tribunal_id == 10 and item.kind == "judgement-bond" for item in lawsuits)
    # What a find materialized is no longer counted (the credits page: no repeats).
    again = await sandbox.api.count(CountBody(kind="judgement-bond", tribunals=[10]))
    assert again.total_lawsuits == counted.total_lawsuits - 7


async def test_miner_errors(sandbox: SandboxRig) -> None:
    counted = await sandbox.api.count(CountBody(kind="sentence-execution"))
    with pytest.raises(Unprocessable) as not_a_find:
        await sandbox.api.miner_responses(counted.request_id or 0)
    assert not_a_find.value.messages == ["INVALID_REQUEST_TYPE"]
    with pytest.raises(NotFound) as unknown:
        await sandbox.api.miner_request(987654)
    assert unknown.value.messages == ["REQUEST_NOT_FOUND"]
    await sandbox.api.http.post(
        f"{ROOT}/_sandbox/miner/credits", json={"balance": 1}, headers={"api-key": "sandbox"}
    )
    with pytest.raises(Forbidden) as poor:
        await sandbox.api.create_find(CountBody(kind="sentence-execution"))
    assert poor.value.messages == ["INSUFFICIENT_CREDITS"]
