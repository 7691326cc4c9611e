"""The sandbox world's index: determinism, identifiers, coverage, scale, find, samples."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime

import psutil
import pytest

from lawsuit_tui.domain.courts import BR_STATES
from lawsuit_tui.domain.identifiers import (
    format_cnj,
    format_cpf,
    is_valid_cnj,
    is_valid_cnpj,
    is_valid_cpf,
    parse_cnj,
)
from lawsuit_tui.sandbox.world import DEFAULT_EPOCH, SystemInfo, World


@pytest.fixture(scope="module")
def world() -> World:
    return World.build()


def test_build_is_deterministic_for_a_seed(world: World) -> None:
    a, b = world, World.build(7)
    assert a.lawsuit_keys() == b.lawsuit_keys()
    code, instance = a.lawsuit_keys()[100]
    assert a.court_view(code, instance, a.epoch) == b.court_view(code, instance, b.epoch)
    assert a.samples() == b.samples()
    assert a.entity(a.samples()["cpf"][0]) == b.entity(b.samples()["cpf"][0])


def test_another_seed_gives_another_world(world: World) -> None:
    a, c = world, World.build(8)
    assert set(a.lawsuit_keys()) != set(c.lawsuit_keys())
    assert a.samples()["busy_person"] != c.samples()["busy_person"]


def test_lazy_generation_does_not_depend_on_order(world: World) -> None:
    a, b = world, World.build(7)
    keys = a.lawsuit_keys()[10:50]
    first = [a.court_view(c, i, a.epoch) for c, i in keys]
    second = [b.court_view(c, i, b.epoch) for c, i in reversed(keys)]
    assert first == list(reversed(second))


def test_same_world_in_another_process() -> None:
    """No dependence on hash randomisation or anything else of the process."""
    script = (
        "import hashlib, orjson\n"
        "from lawsuit_tui.sandbox.world import World\n"
        "w = World.build(11)\n"
        "h = hashlib.sha256(orjson.dumps(w.samples()) + orjson.dumps(w.lawsuit_keys()))\n"
        "for code, inst in w.lawsuit_keys()[6::401]:\n"
        "    h.update(orjson.dumps(w.court_view(code, inst, w.epoch)))\n"
        "print(h.hexdigest())\n"
    )
    # Both processes at once (each builds a world: the test takes one build, not two).
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
            stdout=subprocess.PIPE,
            text=True,
        )
        for hash_seed in (1, 4242)
    ]
    digests = set()
    try:
        for process in processes:
            out, _err = process.communicate(timeout=60)
            assert process.returncode == 0
            digests.add(out.strip())
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert len(digests) == 1 and len(next(iter(digests))) == 64


def test_shared_world_is_one_per_seed(world: World) -> None:
    assert World.shared(7) is World.shared(7)
    assert World.shared(7) is not world
    assert World.shared(7).lawsuit_keys() == world.lawsuit_keys()


def test_default_epoch_and_naive_epoch() -> None:
    w = World.build(3, epoch=datetime(2026, 1, 1, 9, 0))
    assert w.epoch == datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
    assert datetime(2026, 11, 20, 12, 0, tzinfo=UTC) == DEFAULT_EPOCH


def test_scale_segments_and_courts(world: World) -> None:
    records = world.records()
    assert len(records) >= 2000
    segments = Counter(r.court.segment for r in records)
    assert set(segments) == set(range(1, 10))
    courts = {r.court.acronym for r in records}
    assert len(courts) >= 30
    keys = world.lawsuit_keys()
    assert len(keys) == len(set(keys))
    assert sum(1 for _c, i in keys if i == 2) >= 100


def test_every_cnj_is_valid_and_matches_its_court(world: World) -> None:
    for rec in world.records():
        assert is_valid_cnj(rec.code), rec.code
        parts = parse_cnj(rec.code)
        assert parts.court is not None
        assert parts.court.acronym == rec.court.acronym
        assert parts.origin == rec.origin
        assert (
            parts.year == rec.instances[0].distribution.year
            or rec.main is not None
            or (parts.year <= rec.instances[0].distribution.year)
        )


def test_every_document_is_valid(world: World) -> None:
    alnum = 0
    for doc, ent in world.pop.entities.items():
        if ent.kind == "person":
            assert is_valid_cpf(doc), doc
        else:
            assert is_valid_cnpj(doc), doc
            alnum += not doc.isdigit()
    assert alnum >= 5


def test_lawyers_are_registered_in_the_court_state(world: World) -> None:
    for rec in world.records():
        for party in rec.parties:
            for oab in party.lawyers:
                assert oab[-2:] == rec.state
                assert oab[-2:] in BR_STATES
                assert oab[:-2].isdigit()


def test_states_and_cities_agree_with_the_court(world: World) -> None:
    for rec in world.records():
        court = rec.court
        if court.states:
            assert rec.state in court.states
        assert rec.city


def test_busy_person_firm_and_branches(world: World) -> None:
    s = world.samples()
    assert len({c for c, _i in world.find("cpf", s["busy_person"])}) >= 150
    assert len({c for c, _i in world.find("oab", s["busy_firm_oab"])}) >= 150
    branches = world.branches(s["cnpj_with_branches"])
    assert len(branches) >= 24
    assert all(b[:8] == s["cnpj_with_branches"][:8] and is_valid_cnpj(b) for b in branches)
    assert [b[8:12] for b in branches] == [f"{n:04d}" for n in range(2, len(branches) + 2)]
    assert sum(1 for b in branches if world.find("cnpj", b)) >= 5
    assert world.branches(s["cnpj"][0]) == []


def test_large_lawsuits(world: World) -> None:
    counts = sorted((i.n_steps for r in world.records() for i in r.instances), reverse=True)
    assert counts[0] == 10_000
    assert sum(1 for n in counts if n >= 1000) >= 4
    assert world.samples()["big_lawsuit"] == next(
        r.code for r in world.records() if r.instances[0].n_steps == 10_000
    )


def test_find_each_kind(world: World) -> None:
    s = world.samples()
    code = s["lawsuit_cnj"][0]
    found = world.find("lawsuit_cnj", code)
    assert found and all(c == code for c, _i in found)
    digits = "".join(ch for ch in code if ch.isdigit())
    assert world.find("lawsuit_cnj", digits) == found
    for cpf in s["cpf"]:
        keys = world.find("cpf", cpf)
        assert keys
        view = world.court_view(*keys[0], world.epoch)[0]
        assert any(p["main_document"] == cpf for p in view["parties"])
        assert world.find("cpf", format_cpf(cpf)) == keys
    for cnpj in s["cnpj"]:
        assert world.find("cnpj", cnpj)
    for oab in s["oab"]:
        keys = world.find("oab", oab)
        assert keys
        view = world.court_view(*keys[0], world.epoch)[0]
        lawyer_docs = {
            d["document"] for p in view["parties"] for lw in p["lawyers"] for d in lw["documents"]
        }
        assert oab in lawyer_docs
        assert world.find("oab", f"{oab[-2:]}{oab[:-2]}") == keys  # state first
    for name in s["name"]:
        keys = world.find("name", name)
        assert keys
        assert world.find("name", name.upper()) == keys
        stripped = name.translate(str.maketrans("áâãéêíóôõúçÁÉÍÓÚ", "aaaeeiooouçAEIOU"))
        assert world.find("name", f"  {stripped.lower()} ") == keys
    assert world.find("cpf", s["no_data"]["cpf"]) == []
    assert world.find("cnpj", s["no_data"]["cnpj"]) == []
    assert world.find("lawsuit_cnj", s["no_data"]["lawsuit_cnj"]) == []
    assert world.find("warrant", "x") == []


def test_homonyms(world: World) -> None:
    name = world.samples()["homonym_name"]
    docs = world.homonyms(name)
    assert len(docs) >= 2
    assert all(is_valid_cpf(d) for d in docs)
    assert len(world.homonyms(world.samples()["name"][0])) == 1
    bank = world.entity(world.samples()["cnpj_with_branches"])
    assert bank is not None
    assert world.homonyms(bank["name"]) == [world.samples()["cnpj_with_branches"]]


def test_entities(world: World) -> None:
    s = world.samples()
    person = world.entity(s["cpf"][0])
    assert person is not None
    assert person["main_document"] == s["cpf"][0]
    assert person["entity_type"] == "person"
    assert person["addresses"] and person["birth_date"].endswith("Z")
    company = world.entity(s["cnpj_with_branches"])
    assert company is not None and company["head_office"] is True
    branch = world.entity(world.branches(s["cnpj_with_branches"])[0])
    assert branch is not None and branch["head_office"] is False
    lawyer = world.entity(s["busy_firm_oab"])
    assert lawyer is not None
    assert {"document": s["busy_firm_oab"], "document_type": "oab"} in lawyer["documents"]
    assert world.entity(s["no_data"]["cpf"]) is None


def test_samples_resolve(world: World) -> None:
    s = world.samples()
    for code in s["lawsuit_cnj"]:
        assert world.court_view(code, None, world.epoch)
        assert world.stored_view(code, None)
        assert not world.is_secret(code, 1)
        assert not world.court_is_down(code)
    secret = s["secret_lawsuit"]
    assert world.is_secret(secret["code"], secret["instance"])
    assert world.court_system(secret["code"], secret["instance"]) == secret["system_name"]
    assert secret["system_name"] in {info.name for info in world.court_systems()}
    assert world.court_is_down(s["court_down_lawsuit"])
    assert world.court_rate_limited(s["rate_limited_lawsuit"])
    assert not world.court_rate_limited(s["lawsuit_cnj"][0])
    assert world.stored_at(s["never_captured_lawsuit"], 1) is None
    assert world.stored_view(s["never_captured_lawsuit"], None) == []
    assert world.court_view(s["never_captured_lawsuit"], None, world.epoch)
    stale = world.stored_at(s["stale_lawsuit"], 1)
    assert stale is not None and (world.epoch - stale).days > 30
    assert world.find("cnpj", s["alphanumeric_cnpj"])
    for kind in ("cpf", "cnpj", "lawsuit_cnj"):
        assert is_valid_cnj(s["no_data"][kind]) if kind == "lawsuit_cnj" else True
    assert is_valid_cpf(s["no_data"]["cpf"]) and is_valid_cnpj(s["no_data"]["cnpj"])
    assert format_cnj(s["no_data"]["lawsuit_cnj"]) == s["no_data"]["lawsuit_cnj"]


def test_samples_are_copies(world: World) -> None:
    s = world.samples()
    s["cpf"].clear()
    assert world.samples()["cpf"]


def test_court_systems(world: World) -> None:
    systems = world.court_systems()
    assert len(systems) >= 30
    assert all(isinstance(info, SystemInfo) for info in systems)
    names = {info.name for info in systems}
    assert len(names) == len(systems)
    # D83: the documented names, the documented example among them.
    assert {"ESAJ - TJSP - 1º grau", "ESAJ - TJSP - 2º grau", "PJE TJBA - 1º grau"} <= names
    by_name = {info.name: info for info in systems}
    for info in systems:
        assert info.name not in info.siblings
        for sib in info.siblings:
            assert by_name[sib].court_acronym == info.court_acronym
            assert info.name in by_name[sib].siblings
    # Siblings are the same family and court, other degrees: never across courts (D83).
    assert by_name["PJE TJBA - 1º grau"].siblings == ("PJE TJBA - 2º grau",)
    assert by_name["PJEINTER TJBA - 1º grau"].siblings == ()
    keys = world.lawsuit_keys()[::50]
    systems_of = [world.court_system(code, instance) for code, instance in keys]
    assert all(name is None or name in names for name in systems_of)
    assert sum(name is not None for name in systems_of) > len(keys) / 2


def test_secrecy_and_storage_shares(world: World) -> None:
    records = world.records()
    secret = sum(1 for r in records if r.secrecy > 0)
    assert 0 < secret < len(records) * 0.1
    instances = [i for r in records for i in r.instances]
    never = sum(1 for i in instances if i.stored_at is None)
    old = sum(1 for i in instances if i.stored_at and (world.epoch - i.stored_at).days > 30)
    fresh = sum(1 for i in instances if i.stored_at and (world.epoch - i.stored_at).days <= 15)
    assert 0.03 < never / len(instances) < 0.15
    assert 0.08 < old / len(instances) < 0.3
    assert fresh > len(instances) / 2
    assert all(i.stored_at is None or i.stored_at <= world.epoch for i in instances)


def test_build_time_and_memory_figures() -> None:
    """Prints the figures (pytest -s); the bounds are generous sanity checks only."""
    process = psutil.Process(os.getpid())
    before = process.memory_info().rss
    started = time.perf_counter()
    fresh = World.build()
    elapsed = time.perf_counter() - started
    after_build = process.memory_info().rss
    for code, instance in fresh.lawsuit_keys()[7::40]:
        fresh.court_view(code, instance, fresh.epoch)
    after_views = process.memory_info().rss
    print(
        f"\nworld build {elapsed:.3f}s, RSS +{(after_build - before) / 1e6:.1f} MB after build, "
        f"+{(after_views - before) / 1e6:.1f} MB after {len(fresh.lawsuit_keys()[7::40])} views"
    )
    assert elapsed < 10  # sanity only: the figure is printed, machines vary
