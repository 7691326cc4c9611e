"""The sandbox's credential vault: the spec's state table, wildcard resolution, listing rules
(D33), sibling systems (D83), both item shapes (D32), two-factor keys and certificates (D67),
deletion (D34, D83) and secrets never kept.

The first part tests :class:`lawsuit_tui.sandbox.vault.Vault` directly; the second goes through
the HTTP routes of ``/vault/credentials``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from lawsuit_tui.sandbox.clock import SandboxClock
from lawsuit_tui.sandbox.vault import (
    MAX_CREDENTIALS_PER_CALL,
    CredentialNotFoundError,
    Vault,
    VaultRefusal,
    VaultValidationError,
)
from tests.support.certificates import HOLDER_CN, PFX_PASSWORD, pfx_base64
from tests.support.error_bodies import error_fields, error_name
from tests.support.sandbox_http import sandbox_http

ESAJ_1 = "ESAJ - TJSP - 1º grau"
ESAJ_2 = "ESAJ - TJSP - 2º grau"
PJE_TRT2 = "PJE TRT2 - 1º grau"
EPROC = "EPROC - TRF4 - 2º grau"

PASSWORD = "s3cr3t-P4ss!"
TOTP = "JBSWY3DPEHPK3PXP"
PFX = pfx_base64()
SECRETS = (PASSWORD, TOTP, PFX, PFX_PASSWORD)


@dataclass(frozen=True)
class System:
    name: str
    court_acronym: str
    siblings: tuple[str, ...] = ()


SYSTEMS = [
    System(ESAJ_1, "TJSP", (ESAJ_2,)),
    System(ESAJ_2, "TJSP", (ESAJ_1,)),
    System(PJE_TRT2, "TRT2"),
    System(EPROC, "TRF4"),
]


def cred(system: str, key: str | None = "*", **extra: Any) -> dict[str, Any]:
    item: dict[str, Any] = {"system_name": system, "username": "ana", "password": PASSWORD}
    if key is not None:
        item["customer_key"] = key
    item.update(extra)
    return item


def wrapped(system: str, key: str | None = "*", **extra: Any) -> dict[str, Any]:
    return {"credential": cred(system, key, **extra)}


@pytest.fixture
def vault() -> Vault:
    return Vault(systems=SYSTEMS, clock=SandboxClock.frozen())


def rows(vault: Vault, key: str | None = None) -> list[tuple[str, str, str]]:
    return [(r.name, r.customer_key, r.credential_status) for r in vault.listing(key)]


# -- the state table ---------------------------------------------------------------------


def test_not_exists_then_registration_creates_an_active_credential(vault: Vault) -> None:
    assert vault.status(PJE_TRT2, "acme") == "not exists"
    entries = vault.register([wrapped(PJE_TRT2, "acme")])
    assert [e.as_dict() for e in entries] == [
        {"system_name": PJE_TRT2, "customer_key": "acme", "message": "CREDENTIAL_CREATED"}
    ]
    assert vault.status(PJE_TRT2, "acme") == "active"


def test_registering_again_updates_and_stays_active(vault: Vault) -> None:
    vault.register([wrapped(PJE_TRT2, "acme")])
    entries = vault.register([wrapped(PJE_TRT2, "acme", password="another")])
    assert [e.message for e in entries] == ["CREDENTIAL_UPDATED"]
    assert vault.status(PJE_TRT2, "acme") == "active"


def test_failed_login_turns_active_into_inactive(vault: Vault) -> None:
    vault.register([wrapped(PJE_TRT2, "acme")])
    marked = vault.mark_login_failed(PJE_TRT2, "acme")
    assert marked is not None
    assert (marked.system_name, marked.customer_key, marked.status) == (
        PJE_TRT2,
        "acme",
        "inactive",
    )
    assert vault.status(PJE_TRT2, "acme") == "inactive"
    assert not vault.has_access(PJE_TRT2, "acme")


def test_reregistration_makes_an_inactive_credential_active_again(vault: Vault) -> None:
    vault.register([wrapped(PJE_TRT2, "acme")])
    vault.mark_login_failed(PJE_TRT2, "acme")
    entries = vault.register([wrapped(PJE_TRT2, "acme")])
    assert [e.message for e in entries] == ["CREDENTIAL_UPDATED"]
    assert vault.status(PJE_TRT2, "acme") == "active"
    assert vault.has_access(PJE_TRT2, "acme")


def test_failed_login_without_a_credential_changes_nothing(vault: Vault) -> None:
    assert vault.mark_login_failed(PJE_TRT2, "acme") is None
    assert vault.mark_login_failed("no such system", "acme") is None
    assert vault.status(PJE_TRT2, "acme") == "not exists"


def test_keys_are_independent(vault: Vault) -> None:
    vault.register([wrapped(PJE_TRT2, "acme")])
    assert vault.status(PJE_TRT2, "other") == "not exists"
    assert vault.status(PJE_TRT2, "*") == "not exists"


# -- wildcard resolution -------------------------------------------------------------------


def test_the_keys_wildcard_serves_systems_without_their_own_credential(vault: Vault) -> None:
    vault.register([wrapped("*", "acme")])
    ref = vault.resolve(EPROC, "acme")
    assert ref is not None and ref.via_wildcard and ref.system_name == "*"
    assert vault.status(EPROC, "acme") == "active"
    # Another key's wildcard does not count.
    assert vault.status(EPROC, "other") == "not exists"


def test_a_systems_own_credential_wins_over_the_wildcard_even_when_inactive(
    vault: Vault,
) -> None:
    vault.register([wrapped("*", "acme"), wrapped(PJE_TRT2, "acme")])
    vault.mark_login_failed(PJE_TRT2, "acme")
    assert vault.status(PJE_TRT2, "acme") == "inactive"
    assert vault.status(EPROC, "acme") == "active"  # still the wildcard's
    ref = vault.resolve(PJE_TRT2, "acme")
    assert ref is not None and not ref.via_wildcard


def test_failed_login_through_the_wildcard_marks_the_wildcard(vault: Vault) -> None:
    vault.register([wrapped("*", "acme")])
    marked = vault.mark_login_failed(EPROC, "acme")
    assert marked is not None and marked.system_name == "*"
    assert vault.status(PJE_TRT2, "acme") == "inactive"
    assert vault.own_status("*", "acme") == "inactive"


def test_empty_and_absent_customer_key_mean_the_default_key(vault: Vault) -> None:
    entries = vault.register([cred(PJE_TRT2, key=None), wrapped(EPROC, "")])
    assert {e.customer_key for e in entries} == {"*"}
    assert vault.status(PJE_TRT2, "*") == "active"
    assert vault.status(EPROC, None) == "active"
    assert vault.status(EPROC, "") == "active"


# -- siblings (D31) ------------------------------------------------------------------------


def test_registering_one_system_registers_its_siblings_one_entry_each(vault: Vault) -> None:
    entries = vault.register([wrapped(ESAJ_2, "acme")])
    assert [e.as_dict() for e in entries] == [
        {"system_name": ESAJ_2, "customer_key": "acme", "message": "CREDENTIAL_CREATED"},
        {"system_name": ESAJ_1, "customer_key": "acme", "message": "CREDENTIAL_CREATED"},
    ]
    assert vault.status(ESAJ_1, "acme") == "active"


def test_siblings_get_their_own_message(vault: Vault) -> None:
    vault.register([wrapped(ESAJ_1, "acme")])
    vault.delete(ESAJ_2, "acme")
    entries = vault.register([wrapped(ESAJ_1, "acme")])
    assert [(e.system_name, e.message) for e in entries] == [
        (ESAJ_1, "CREDENTIAL_UPDATED"),
        (ESAJ_2, "CREDENTIAL_CREATED"),
    ]


def test_a_sibling_declared_on_one_side_only_still_counts() -> None:
    vault = Vault([System("A", "X", ("B",)), System("B", "X"), System("C", "Y")])
    assert vault.siblings_of("B") == ["B", "A"]
    assert [e.system_name for e in vault.register([cred("B")])] == ["B", "A"]
    assert vault.siblings_of("C") == ["C"]


def test_the_wildcard_has_no_siblings(vault: Vault) -> None:
    assert [e.system_name for e in vault.register([cred("*", "acme")])] == ["*"]


def test_failed_login_of_one_sibling_leaves_the_other_active(vault: Vault) -> None:
    vault.register([wrapped(ESAJ_1, "acme")])
    vault.mark_login_failed(ESAJ_1, "acme")
    assert vault.status(ESAJ_1, "acme") == "inactive"
    assert vault.status(ESAJ_2, "acme") == "active"


# -- listing (D33) -------------------------------------------------------------------------


def test_default_listing_of_an_empty_vault(vault: Vault) -> None:
    assert rows(vault) == [
        ("*", "", "not exists"),
        (ESAJ_1, "*", "not exists"),
        (ESAJ_2, "*", "not exists"),
        (PJE_TRT2, "*", "not exists"),
        (EPROC, "*", "not exists"),
    ]
    assert rows(vault, "*") == rows(vault, "") == rows(vault)


def test_default_listing_fills_the_wildcard_row_when_the_wildcard_exists(vault: Vault) -> None:
    vault.register([cred("*"), cred(PJE_TRT2)])
    vault.mark_login_failed(PJE_TRT2, "*")
    assert rows(vault) == [
        ("*", "*", "active"),
        (ESAJ_1, "*", "not exists"),
        (ESAJ_2, "*", "not exists"),
        (PJE_TRT2, "*", "inactive"),
        (EPROC, "*", "not exists"),
    ]


def test_default_listing_ignores_other_keys(vault: Vault) -> None:
    vault.register([wrapped("*", "acme"), wrapped(EPROC, "acme")])
    assert rows(vault)[0] == ("*", "", "not exists")
    assert {r[2] for r in rows(vault)} == {"not exists"}


def test_named_key_listing_has_its_wildcard_row_then_only_its_own_systems(vault: Vault) -> None:
    vault.register([wrapped(EPROC, "acme"), wrapped(PJE_TRT2, "*")])
    assert rows(vault, "acme") == [("*", "", "not exists"), (EPROC, "acme", "active")]
    vault.register([wrapped("*", "acme")])
    vault.mark_login_failed(EPROC, "acme")
    assert rows(vault, "acme") == [("*", "acme", "active"), (EPROC, "acme", "inactive")]


def test_named_key_without_credentials_lists_only_the_wildcard_row(vault: Vault) -> None:
    vault.register([wrapped(EPROC, "acme")])
    assert rows(vault, "nobody") == [("*", "", "not exists")]


def test_listing_dict_is_the_wire_body(vault: Vault) -> None:
    vault.register([wrapped(EPROC, "acme")])
    assert vault.listing_dict("acme") == {
        "systems": [
            {"name": "*", "customer_key": "", "credential_status": "not exists"},
            {"name": EPROC, "customer_key": "acme", "credential_status": "active"},
        ]
    }


# -- deletion (D34) ------------------------------------------------------------------------


def test_delete_removes_exactly_that_credential(vault: Vault) -> None:
    vault.register([wrapped(ESAJ_1, "acme")])
    vault.delete(ESAJ_1, "acme")
    assert vault.own_status(ESAJ_1, "acme") == "not exists"
    assert vault.status(ESAJ_1, "acme") == "not exists"
    assert vault.status(ESAJ_2, "acme") == "active"  # the sibling stays


def test_delete_of_a_missing_credential_raises_not_found(vault: Vault) -> None:
    with pytest.raises(CredentialNotFoundError):
        vault.delete(EPROC, "acme")


def test_delete_with_absent_key_uses_the_default_key(vault: Vault) -> None:
    vault.register([cred(EPROC)])
    vault.delete(EPROC)
    assert vault.own_status(EPROC, "*") == "not exists"
    assert vault.status(EPROC, "*") == "not exists"


def test_delete_then_the_wildcard_serves_again(vault: Vault) -> None:
    vault.register([wrapped("*", "acme"), wrapped(EPROC, "acme")])
    vault.mark_login_failed(EPROC, "acme")
    vault.delete(EPROC, "acme")
    assert vault.status(EPROC, "acme") == "active"


def test_delete_of_an_unknown_system_is_a_validation_error(vault: Vault) -> None:
    with pytest.raises(VaultValidationError) as caught:
        vault.delete("TJXX - nope", "acme")
    assert [(p.field, p.rule) for p in caught.value.problems] == [("system_name", "known_system")]


# -- item shapes and validation (D32, D46) -------------------------------------------------


def test_both_item_shapes_are_accepted_in_one_call(vault: Vault) -> None:
    entries = vault.register([cred(EPROC, "acme"), wrapped(PJE_TRT2, "acme")])
    assert [e.system_name for e in entries] == [EPROC, PJE_TRT2]


def test_a_two_factor_key_goes_in_custom_data_secret(vault: Vault) -> None:
    """D67: the documented place; the sandbox does not check it is base32."""
    vault.register([cred(EPROC, "acme", custom_data={"secret": "jbsw y3dp ehpk 3pxp"})])
    assert vault.status(EPROC, "acme") == "active"
    record = next(iter(vault._records.values()))
    assert record.two_factor and record.kind == "login"


@pytest.mark.parametrize(
    "extra",
    [
        {"custom_data": {"secret": TOTP, "file_base64": PFX}},
        {"custom_data": {"certificate": "x"}},
        {"certificate_pfx": PFX, "certificate_password": PFX_PASSWORD},
        {"file_base64": PFX},
        {"options": {"pfx_password": "x"}},
    ],
)
def test_certificate_fields_are_refused_on_the_login_route(
    vault: Vault, extra: dict[str, Any]
) -> None:
    """D67: CERTIFICATE_FIELDS_NOT_ALLOWED, and nothing is registered."""
    with pytest.raises(VaultRefusal) as caught:
        vault.register([cred(EPROC, "acme"), wrapped(PJE_TRT2, "acme", **extra)])
    assert (caught.value.status, caught.value.code) == (422, "CERTIFICATE_FIELDS_NOT_ALLOWED")
    assert "credentials[1].credential." in caught.value.why
    assert vault.status(EPROC, "acme") == "not exists"


def test_empty_username_and_password_remove_the_credential(vault: Vault) -> None:
    """vault.json: "Send empty username/password to remove a credential"."""
    vault.register([cred(ESAJ_1, "acme")])
    entries = vault.register([cred(ESAJ_1, "acme", username="", password="")])
    assert [(e.system_name, e.message) for e in entries] == [
        (ESAJ_1, "CREDENTIAL_DELETED"),
        (ESAJ_2, "CREDENTIAL_DELETED"),
    ]
    assert vault.own_status(ESAJ_1, "acme") == "not exists"
    assert vault.register([cred(ESAJ_1, "acme", username="", password="")]) == []


def test_unknown_system_names_every_bad_item_at_once(vault: Vault) -> None:
    with pytest.raises(VaultValidationError) as caught:
        vault.register([cred("TJSP"), wrapped(EPROC), wrapped("nope")])
    problems = [(p.field, p.rule) for p in caught.value.problems]
    assert problems == [
        ("credentials[0].system_name", "known_system"),
        ("credentials[2].credential.system_name", "known_system"),
    ]
    assert "GET /credentials" in caught.value.problems[0].message
    # All or nothing: the valid item was not registered either.
    assert vault.status(EPROC, "*") == "not exists"


def test_every_failed_rule_of_an_item_is_reported(vault: Vault) -> None:
    with pytest.raises(VaultValidationError) as caught:
        vault.register(
            [
                {"customer_key": 5, "username": ["x"]},
                {"system_name": EPROC, "username": "ana"},
                cred(EPROC, custom_data={"secret": 12}),
                cred(EPROC, custom_data="x"),
                "a string",
            ]
        )
    problems = {(p.field, p.rule) for p in caught.value.problems}
    assert problems == {
        ("credentials[0].system_name", "required"),
        ("credentials[0].customer_key", "type"),
        ("credentials[0].username", "type"),
        ("credentials[0].password", "required"),
        ("credentials[1].password", "required"),
        ("credentials[2].custom_data.secret", "type"),
        ("credentials[3].custom_data", "type"),
        ("credentials[4]", "type"),
    }


def test_username_is_needed_with_a_password(vault: Vault) -> None:
    with pytest.raises(VaultValidationError) as caught:
        vault.register([{"system_name": EPROC, "password": PASSWORD, "username": ""}])
    assert [(p.field, p.rule) for p in caught.value.problems] == [
        ("credentials[0].username", "required")
    ]


def test_limits_on_the_number_of_items(vault: Vault) -> None:
    vault.register([cred(EPROC, f"k{i}") for i in range(MAX_CREDENTIALS_PER_CALL)])
    with pytest.raises(VaultValidationError) as caught:
        vault.register([cred(EPROC, f"k{i}") for i in range(MAX_CREDENTIALS_PER_CALL + 1)])
    assert [(p.field, p.rule) for p in caught.value.problems] == [("credentials", "max_items")]
    with pytest.raises(VaultValidationError) as caught:
        vault.register([])
    assert [(p.field, p.rule) for p in caught.value.problems] == [("credentials", "min_items")]
    with pytest.raises(VaultValidationError) as caught:
        vault.register({"credential": cred(EPROC)})
    assert [(p.field, p.rule) for p in caught.value.problems] == [("credentials", "type")]


# -- secrets ---------------------------------------------------------------------------------


def all_secrets_vault() -> Vault:
    vault = Vault(SYSTEMS, SandboxClock.frozen())
    vault.register([cred(EPROC, "acme", custom_data={"secret": TOTP}), wrapped("*", "acme")])
    vault.register_certificate(
        {
            "system_name": ESAJ_1,
            "customer_key": "acme",
            "file_base64": PFX,
            "password": PFX_PASSWORD,
        }
    )
    vault.mark_login_failed(EPROC, "acme")
    return vault


def test_secrets_never_appear_in_anything_the_vault_returns_or_shows() -> None:
    vault = all_secrets_vault()
    shown = [
        repr(vault),
        str(vault),
        repr(vault.__dict__),
        repr(vault.listing("acme")),
        repr(vault.listing()),
        repr(vault.listing_dict("acme")),
        repr(vault.credentials()),
        repr(vault.counts()),
        repr(vault.resolve(EPROC, "acme")),
        repr(vault.register([cred(PJE_TRT2, "acme")])),
        repr(vault.delete(PJE_TRT2, "acme")),
        repr(vault._records),
    ]
    text = "\n".join(shown)
    for secret in SECRETS:
        assert secret not in text
    assert "acme" in text  # the check does look at real content


def test_validation_messages_do_not_echo_secrets(vault: Vault) -> None:
    with pytest.raises(VaultValidationError) as caught:
        vault.register([cred("nope", password=PASSWORD, custom_data={"secret": 5})])
    text = str(caught.value) + repr([p.as_dict() for p in caught.value.problems])
    assert PASSWORD not in text


def test_the_vault_keeps_no_secret_at_all() -> None:
    """A persisted sandbox saves the records as they are: no password, key or file in them."""
    vault = all_secrets_vault()
    kept = json.dumps(
        [
            vars(r) if hasattr(r, "__dict__") else {k: str(getattr(r, k)) for k in r.__slots__}
            for r in vault._records.values()
        ]
    )
    for secret in SECRETS:
        assert secret not in kept
    assert HOLDER_CN in kept


def test_counts_for_stats(vault: Vault) -> None:
    vault.register([wrapped(ESAJ_1, "acme"), wrapped(EPROC, "acme")])
    vault.mark_login_failed(EPROC, "acme")
    assert vault.counts() == {"active": 2, "inactive": 1}
    assert repr(vault) == "Vault(systems=4, active=2, inactive=1)"


# -- routes ----------------------------------------------------------------------------------

API_KEY = "vault-test-key"
NO_VAULT_KEY = "no-vault-key"


class FakeWorld:
    """Just what the vault asks of the world: its court systems."""

    def court_systems(self) -> list[System]:
        return list(SYSTEMS)


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    from lawsuit_tui.sandbox.app import create_app
    from lawsuit_tui.sandbox.clock import SandboxClock

    app = create_app(
        api_keys=[API_KEY, f"{NO_VAULT_KEY}:no-vault"],
        clock=SandboxClock.frozen(),
        world=FakeWorld(),  # type: ignore[arg-type]
    )
    async with sandbox_http(app, api_key=API_KEY) as http:
        http.app = app  # type: ignore[attr-defined]
        yield http


async def register(http: httpx.AsyncClient, *items: dict[str, Any]) -> httpx.Response:
    return await http.post("/vault/credentials", json={"credentials": list(items)})


async def listing(http: httpx.AsyncClient, key: str | None = None) -> list[list[str]]:
    params = {} if key is None else {"customer_key": key}
    answer = await http.get("/vault/credentials", params=params)
    assert answer.status_code == 200, answer.text
    return [
        [r["name"], r["customer_key"], r["credential_status"]] for r in answer.json()["systems"]
    ]


async def test_route_register_answers_one_entry_per_sibling(client: httpx.AsyncClient) -> None:
    answer = await register(client, wrapped(ESAJ_1, "acme"), cred(EPROC, None))
    assert answer.status_code == 200
    assert answer.json() == [
        {"system_name": ESAJ_1, "customer_key": "acme", "message": "CREDENTIAL_CREATED"},
        {"system_name": ESAJ_2, "customer_key": "acme", "message": "CREDENTIAL_CREATED"},
        {"system_name": EPROC, "customer_key": "*", "message": "CREDENTIAL_CREATED"},
    ]
    again = await register(client, wrapped(ESAJ_1, "acme"))
    assert [e["message"] for e in again.json()] == ["CREDENTIAL_UPDATED"] * 2


async def test_route_listing_rules(client: httpx.AsyncClient) -> None:
    assert await listing(client) == [
        ["*", "", "not exists"],
        [ESAJ_1, "*", "not exists"],
        [ESAJ_2, "*", "not exists"],
        [PJE_TRT2, "*", "not exists"],
        [EPROC, "*", "not exists"],
    ]
    await register(client, cred("*", "*"), cred(PJE_TRT2, "acme"))
    default = await listing(client, "*")
    assert default[0] == ["*", "*", "active"]
    assert [row[1] for row in default[1:]] == ["*"] * 4
    assert await listing(client, "acme") == [["*", "", "not exists"], [PJE_TRT2, "acme", "active"]]


async def test_route_state_table_through_the_test_hook_state(client: httpx.AsyncClient) -> None:
    from lawsuit_tui.sandbox.app import sandbox_state

    await register(client, cred(PJE_TRT2, "acme"))
    sandbox_state(client.app).vault.mark_login_failed(PJE_TRT2, "acme")  # type: ignore[attr-defined]
    assert await listing(client, "acme") == [
        ["*", "", "not exists"],
        [PJE_TRT2, "acme", "inactive"],
    ]
    answer = await register(client, cred(PJE_TRT2, "acme"))
    assert answer.json()[0]["message"] == "CREDENTIAL_UPDATED"
    assert (await listing(client, "acme"))[1] == [PJE_TRT2, "acme", "active"]


async def test_route_unknown_system_is_400_naming_every_field(client: httpx.AsyncClient) -> None:
    answer = await register(client, wrapped("TJSP"), cred(EPROC, password=""), cred("x"))
    assert answer.status_code == 422  # D94: unknown systems, a missing password: not schema rules
    body = answer.json()
    assert body["error"]["message"] == "UNPROCESSABLE_ENTITY"
    assert body["error"]["data"].split("; ") == [
        "credentials[0].credential.system_name: unknown system_name 'TJSP': copy the exact "
        "name from GET /credentials",
        # D67: a certificate goes to its own route, so a login's password has no alternative
        "credentials[1].password: password is required",
        "credentials[2].system_name: unknown system_name 'x': copy the exact name from "
        "GET /credentials",
    ]
    assert (await listing(client))[4] == [EPROC, "*", "not exists"]


@pytest.mark.parametrize(
    ("content", "field", "rule"),
    [
        (b"{not json", "body", "json_invalid"),
        (b"", "body", "required"),
        (b'{"other": 1}', "credentials", "required"),
        (b'{"credentials": {}}', "credentials", "type"),
        (b'{"credentials": []}', "credentials", "min_items"),
        (b'"text"', "credentials", "type"),
        (b'{"credentials": [{"system_name": Infinity}]}', "body", "json_invalid"),
        pytest.param(b"{" * 50_000, "body", "json_invalid", id="deep-nesting"),
    ],
)
async def test_route_malformed_bodies_are_400(
    client: httpx.AsyncClient, content: bytes, field: str, rule: str
) -> None:
    answer = await client.post(
        "/vault/credentials", content=content, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert error_fields(answer.json()) == [field]  # D64: "<field>: <message>" strings


async def test_route_over_100_items_is_400(client: httpx.AsyncClient) -> None:
    answer = await register(client, *[cred(EPROC, f"k{i}") for i in range(101)])
    assert answer.status_code == 400
    assert error_fields(answer.json()) == ["credentials"]


async def test_route_bare_array_is_read_as_the_credentials(client: httpx.AsyncClient) -> None:
    answer = await client.post("/vault/credentials", json=[cred(EPROC, "acme")])
    assert answer.status_code == 200
    assert answer.json()[0]["system_name"] == EPROC


async def test_route_delete(client: httpx.AsyncClient) -> None:
    await register(client, cred(ESAJ_1, "acme"))
    answer = await client.request(
        "DELETE", "/vault/credentials", json={"system_name": ESAJ_2, "customer_key": "acme"}
    )
    assert answer.status_code == 200
    assert answer.json() == {}  # D83: "the response will be an empty object"
    assert await listing(client, "acme") == [["*", "", "not exists"], [ESAJ_1, "acme", "active"]]
    missing = await client.request(
        "DELETE", "/vault/credentials", json={"system_name": ESAJ_2, "customer_key": "acme"}
    )
    assert missing.status_code == 404
    assert missing.json()["error"]["name"] == "CREDENTIAL_NOT_FOUND"
    assert missing.json()["error"]["message"] == "NOT_FOUND"
    # Query parameters instead of a body; absent key means "*".
    await register(client, cred(EPROC))
    by_query = await client.delete("/vault/credentials", params={"system_name": EPROC})
    assert by_query.status_code == 200
    assert (await listing(client))[4] == [EPROC, "*", "not exists"]


async def test_route_delete_bad_input_is_400(client: httpx.AsyncClient) -> None:
    unknown = await client.request("DELETE", "/vault/credentials", json={"system_name": "nope"})
    assert unknown.status_code == 404  # D83: nothing held under a system the vault does not know
    assert error_name(unknown.json()) == "CREDENTIAL_NOT_FOUND"
    no_body = await client.delete("/vault/credentials")
    assert no_body.status_code == 400
    assert no_body.json()["error"]["data"] == ["system_name: system_name is required"]
    array = await client.request("DELETE", "/vault/credentials", json=[1])
    assert array.status_code == 400


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [
        ("GET", {}),
        ("POST", {"json": {"credentials": [cred(EPROC)]}}),
        ("DELETE", {"json": {"system_name": EPROC}}),
    ],
)
async def test_route_auth(client: httpx.AsyncClient, method: str, kwargs: dict[str, Any]) -> None:
    missing = await client.request(method, "/vault/credentials", headers={"api-key": ""}, **kwargs)
    assert missing.status_code == 401
    assert missing.json()["error"]["message"] == "UNAUTHORIZED"
    wrong = await client.request(method, "/vault/credentials", headers={"api-key": "x"}, **kwargs)
    assert wrong.status_code == 401
    forbidden = await client.request(
        method, "/vault/credentials", headers={"api-key": NO_VAULT_KEY}, **kwargs
    )
    assert forbidden.status_code == 403
    assert error_name(forbidden.json()) == "INSUFFICIENT_PERMISSIONS"
    # Nothing was registered by the refused calls.
    assert (await listing(client))[4] == [EPROC, "*", "not exists"]


async def test_route_is_not_rate_limited(client: httpx.AsyncClient) -> None:
    answer = await client.get("/vault/credentials")
    assert "x-ratelimit-limit" not in answer.headers


async def test_route_answers_and_stats_never_carry_secrets(client: httpx.AsyncClient) -> None:
    from lawsuit_tui.sandbox.app import sandbox_state

    texts = [
        (
            await register(
                client,
                cred(EPROC, "acme", custom_data={"secret": TOTP}),
            )
        ).text,
        (
            await client.post(
                "/vault/credentials/certificate",
                json={"system_name": ESAJ_1, "file_base64": PFX, "password": PFX_PASSWORD},
            )
        ).text,
        (await register(client, cred("nope", "acme"))).text,
        (await client.get("/vault/credentials", params={"customer_key": "acme"})).text,
        (await client.get("/vault/credentials")).text,
        (await client.request("DELETE", "/vault/credentials", json={"system_name": ESAJ_2})).text,
    ]
    state = sandbox_state(client.app)  # type: ignore[attr-defined]
    texts.append(repr(state.stats.snapshot()))
    texts.append(repr(state.vault))
    joined = "\n".join(texts)
    assert EPROC in joined
    for secret in SECRETS:
        assert secret not in joined


async def test_openapi_documents_the_vault_routes(client: httpx.AsyncClient) -> None:
    doc = (await client.get("/openapi.json")).json()
    operations = doc["paths"]["/vault/credentials"]
    assert set(operations) >= {"get", "post", "delete"}
    post = operations["post"]
    schema = post["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["credentials"]["maxItems"] == 100
    assert {"200", "400", "401", "403"} <= set(post["responses"])
    assert "404" in operations["delete"]["responses"]
    listing_ref = operations["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert listing_ref["$ref"].endswith("/VaultListing")
    assert "password" not in json.dumps(doc["components"]["schemas"]["VaultListing"])


# -- over the generated world ----------------------------------------------------------------


@pytest.fixture(scope="module")
def real_world() -> Any:
    from lawsuit_tui.sandbox.world import World

    return World.shared(7)


async def test_the_default_app_lists_every_system_of_the_world(real_world: Any) -> None:
    from lawsuit_tui.sandbox.app import create_app
    from lawsuit_tui.sandbox.clock import SandboxClock

    app = create_app(api_keys=[API_KEY], clock=SandboxClock.frozen(), world=real_world)
    systems = real_world.court_systems()
    tjsp = next(s for s in systems if s.court_acronym == "TJSP" and s.siblings)
    async with sandbox_http(app, api_key=API_KEY) as http:
        rows = await listing(http)
        assert [row[0] for row in rows] == ["*", *[s.name for s in systems]]
        answer = await register(http, wrapped(tjsp.name, "acme"))
        assert [e["system_name"] for e in answer.json()] == [tjsp.name, *tjsp.siblings]
        assert [row[0] for row in await listing(http, "acme")] == ["*", tjsp.name, *tjsp.siblings]


async def test_the_fail_login_hook_turns_a_credential_inactive(client: httpx.AsyncClient) -> None:
    """D35 end to end: the sandbox's test hook, then re-registration."""
    await register(client, cred("*", "acme"), cred(EPROC, "acme"))
    hook = await client.post(
        "/_sandbox/vault/fail-login", json={"system_name": EPROC, "customer_key": "acme"}
    )
    assert hook.status_code == 200, hook.text
    assert await listing(client, "acme") == [["*", "acme", "active"], [EPROC, "acme", "inactive"]]
    missing = await client.post(
        "/_sandbox/vault/fail-login", json={"system_name": EPROC, "customer_key": "nobody"}
    )
    assert missing.status_code == 404
    again = await register(client, cred(EPROC, "acme"))
    assert again.json()[0]["message"] == "CREDENTIAL_UPDATED"
    assert await listing(client, "acme") == [["*", "acme", "active"], [EPROC, "acme", "active"]]
