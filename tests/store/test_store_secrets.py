"""No secret ever reaches a cache file: plant secrets everywhere, then grep every file."""

from __future__ import annotations

from pathlib import Path

from lawsuit_tui.store import Store, sanitize
from lawsuit_tui.store.sanitize import _WINDOW, Sanitizer
from tests.support.store_data import make_lawsuit, make_response

API_KEY = "ak_live_PLANTED_0123456789abcdef"
BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJQTEFOVEVEIn0.c2lnbmF0dXJlUExBTlRFRA"
VAULT_PASSWORD = "vault-pass-PLANTED-42"
OTHER_TOKEN = "tok-PLANTED-refresh-999"
PLANTED = [API_KEY, BEARER, VAULT_PASSWORD, OTHER_TOKEN, "PLANTED"]


def secret_laden_request() -> dict[str, object]:
    return {
        "request_id": "q1",
        "status": "pending",
        "api-key": API_KEY,
        "search": {
            "search_type": "cpf",
            "search_key": "12345678909",
            "search_params": {
                "credential": {"customer_key": "cliente-1", "password": VAULT_PASSWORD},
            },
        },
        "headers": {"Authorization": f"Bearer {BEARER}", "api_key": API_KEY},
        "tags": {"note": f"pasted key {API_KEY} by mistake", "refresh_token": OTHER_TOKEN},
    }


def files_under(directory: Path) -> list[Path]:
    return [p for p in directory.rglob("*") if p.is_file()]


def assert_no_secret(directory: Path) -> None:
    files = files_under(directory)
    assert files, "nothing was written"
    for path in files:
        data = path.read_bytes()
        for secret in PLANTED:
            assert secret.encode() not in data, f"{secret!r} reached {path.name}"


def test_no_planted_secret_reaches_any_file(cache_dir: Path) -> None:
    store = Store.open(cache_dir, secrets=[API_KEY])
    store.upsert_requests([secret_laden_request()])
    lawsuit = make_lawsuit()
    lawsuit["steps"][0]["content"] = f"Petição com a chave {API_KEY}"
    lawsuit["tags"] = {"access_token": OTHER_TOKEN, "bearer": BEARER}
    response = make_response("r1", lawsuit=lawsuit)
    response["tags"]["authorization"] = f"Bearer {BEARER}"
    store.upsert_responses([response])
    store.upsert_trackings(
        [{"tracking_id": "t1", "callback_url": "https://x", "secret": OTHER_TOKEN}]
    )
    store.save_vault_snapshot(
        "cliente-1", [{"name": "TJSP", "customer_key": "cliente-1", "password": VAULT_PASSWORD}]
    )
    store.record_delivery(
        {"callback_id": "cb", "user_id": BEARER, "event_type": "response_created"}
    )
    store.quarantine(f'{{"api_key": "{API_KEY}", "x": "Bearer {BEARER}"}}'.encode(), "bad")
    store.quarantine(f"api-key: {API_KEY}\nAuthorization: Bearer {BEARER}".encode(), "not json")
    store.set_meta("sync", {"cursor": 1, "token": OTHER_TOKEN})
    store.add_recent_search(f"Bearer {BEARER}")
    store.add_count_request({"request_id": 1, "filter": {"password": VAULT_PASSWORD}})
    assert_no_secret(cache_dir)  # the journal, before any checkpoint
    store.checkpoint()
    store.close()
    assert_no_secret(cache_dir)  # the TinyDB shards

    with Store.open(cache_dir) as again:
        request = again.get_request("q1")
        assert request is not None
        assert request["search"]["search_params"]["credential"] == {"customer_key": "cliente-1"}
        assert request["tags"]["note"] == "pasted key [redacted] by mistake"
        assert again.vault_snapshot("cliente-1") == [{"name": "TJSP", "customer_key": "cliente-1"}]


def test_sanitize_keeps_ordinary_data() -> None:
    data = {
        "secrecy_level": 1,
        "customer_key": "k",
        "crawler": {"crawl_id": "c1"},
        "steps": [{"content": "Juntada de procuração"}],
        "tags": {"possible_homonym": False},
    }
    assert sanitize(data) == data
    assert sanitize({"Api-Key": "x", "X-Auth-Token": "y", "nested": [{"passWord": "z"}]}) == {
        "nested": [{}]
    }


def test_a_quarantined_body_is_scrubbed_before_it_is_cut(cache_dir: Path) -> None:
    # Not JSON, and the API key straddles the size cap: no part of it may be kept.
    from lawsuit_tui.store.tables.webhooks import QUARANTINE_MAX_BYTES

    head = b"x" * (QUARANTINE_MAX_BYTES - len(API_KEY) // 2)
    body = head + API_KEY.encode() + b" tail"
    with Store.open(cache_dir, secrets=[API_KEY]) as store:
        store.quarantine(body, "not JSON")
        (kept,) = store.list_quarantine()
    assert kept["size"] == len(body)
    assert API_KEY[: len(API_KEY) // 2] not in kept["body"]
    assert_no_secret(cache_dir)


def test_secrets_deep_in_a_big_record_are_found_across_the_scan_windows() -> None:
    """The quick scan reads big records a window at a time: a secret key past the first
    window, or one whose name straddles two windows, is still found and scrubbed."""
    cleaner = Sanitizer([])
    filler = "Juntada de petição. " * 20_000  # 400 KB: more than one window
    for cut in range(0, 16):
        # Shift the key so that its name falls across the first window boundary.
        padding = "x" * (_WINDOW - len('{"a":"') - len('","Pass-Word":') + cut - 8)
        record = {"a": padding, "Pass-Word": "hunter2-PLANTED", "steps": [filler]}
        clean, raw = cleaner.clean_json(record)
        assert b"PLANTED" not in raw and clean.get("Pass-Word") != "hunter2-PLANTED", cut
    late = {"steps": [filler, {"senha": "x-PLANTED"}]}
    assert b"PLANTED" not in cleaner.clean_json(late)[1]
    registered = Sanitizer(["PLANTED-value"])
    assert b"PLANTED" not in registered.clean_json({"steps": [filler, "note PLANTED-value"]})[1]
