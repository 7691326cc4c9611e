"""The sandbox world's lawsuits as the court shows them, over simulated time."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.sandbox.world import World

SPEC_FIELDS = {
    "code", "instance", "courts", "justice", "tribunal", "crawler", "classifications",
    "subjects", "parties", "attachments", "related_lawsuits", "steps", "name",
    "tribunal_acronym", "county", "state", "city", "judge", "justice_description", "status",
    "phase", "situation", "area", "system", "tribunal_url", "free_justice", "secrecy_level",
    "distribution_date", "created_at", "updated_at", "last_step", "main_lawsuit", "tags",
    "metadata", "phase_history", "sentence", "appeal_judgement", "custody", "appeal",
    "distribution", "pipelines", "full_lawsuit_file", "amount",
}  # fmt: skip


@pytest.fixture(scope="module")
def world() -> World:
    return World.shared(7)


def _ts(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _sample_keys(world: World, step: int = 37) -> list[tuple[str, int]]:
    return world.lawsuit_keys()[6::step]  # skips the giants at the head of the index


def test_views_have_every_spec_field_and_validate(world: World) -> None:
    for code, instance in _sample_keys(world):
        views = world.court_view(code, instance, world.epoch)
        assert len(views) == 1
        view = views[0]
        assert set(view) >= SPEC_FIELDS, SPEC_FIELDS - set(view)
        model = Lawsuit.model_validate(view)
        assert model.code == code and model.instance == instance
        assert view["crawler"]["updated_at"].endswith("Z")
        assert view["last_step"]["steps_count"] == len(view["steps"])
        assert view["last_step"]["step_id"] == view["steps"][0]["step_id"]
        assert view["classifications"][0]["name"]
        for party in view["parties"]:
            assert party["side"] in ("Active", "Passive")
            assert party["documents"][0]["document"] == party["main_document"]


def test_steps_newest_first_and_not_after_the_moment(world: World) -> None:
    for code, instance in _sample_keys(world, 53):
        for at in (world.epoch - timedelta(days=90), world.epoch, world.epoch + timedelta(3)):
            for view in world.court_view(code, instance, at):
                dates = [_ts(s["step_date"]) for s in view["steps"]]
                assert dates == sorted(dates, reverse=True)
                assert all(d <= at for d in dates)
                ids = [s["step_id"] for s in view["steps"]]
                assert len(ids) == len(set(ids))
                assert all(
                    s["lawsuit_cnj"] == code and s["lawsuit_instance"] == instance
                    for s in view["steps"]
                )


def test_court_view_is_monotonic_in_time(world: World) -> None:
    moments = [world.epoch + timedelta(days=d) for d in (-400, -30, -1, 0, 0.5, 2, 9, 40)]
    for code, instance in _sample_keys(world, 71):
        previous: list[str] = []
        for at in moments:
            views = world.court_view(code, instance, at)
            ids = [s["step_id"] for s in views[0]["steps"]] if views else []
            assert len(ids) >= len(previous)
            assert ids[len(ids) - len(previous) :] == previous  # old steps stay, in order
            previous = ids


def test_instances_and_related_lawsuits(world: World) -> None:
    code = world.samples()["two_instance_lawsuit"]
    views = world.court_view(code, None, world.epoch)
    assert [v["instance"] for v in views] == [1, 2]
    first, second = views
    assert {"code": code, "instance": 2}.items() <= first["related_lawsuits"][0].items()
    assert second["related_lawsuits"][0]["instance"] == 1
    assert first["situation"] == "Em grau de recurso"
    assert first["appeal"] is not None and first["sentence"] is not None
    # before the appeal reached the court, the second instance did not exist
    dist2 = _ts(second["distribution_date"])
    assert [v["instance"] for v in world.court_view(code, None, dist2 - timedelta(1))] == [1]
    assert world.court_view(code, 2, world.epoch) == [second]


def test_main_lawsuit_links(world: World) -> None:
    linked = [r for r in world.records() if r.main is not None]
    assert len(linked) >= 50
    rec = linked[0]
    assert rec.main is not None
    view = world.court_view(rec.code, 1, world.epoch)[0]
    assert view["main_lawsuit"]["code"] == rec.main[0]
    main_view = world.court_view(rec.main[0], 1, world.epoch)[0]
    assert rec.code in {r["code"] for r in main_view["related_lawsuits"]}


def test_the_world_moves(world: World) -> None:
    code = world.samples()["moving_lawsuit"]
    stored = world.stored_view(code, 1)[0]
    now = world.court_view(code, 1, world.epoch)[0]
    later = world.court_view(code, 1, world.epoch + timedelta(days=30))[0]
    assert len(stored["steps"]) < len(now["steps"]) < len(later["steps"])
    stored_at = world.stored_at(code, 1)
    assert stored_at is not None
    assert stored["updated_at"] == stored_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    new = world.steps_between(code, 1, world.epoch, world.epoch + timedelta(days=30))
    assert [s["step_id"] for s in new] == [
        s["step_id"] for s in later["steps"][: len(later["steps"]) - len(now["steps"])]
    ]
    assert all(world.epoch < _ts(s["step_date"]) for s in new)
    # the same step is the same whenever it is asked for
    assert world.steps_between(code, 1, world.epoch, world.epoch + timedelta(days=30)) == new
    far = world.court_view(code, 1, world.epoch + timedelta(days=400))[0]
    assert len(far["steps"]) > len(later["steps"])


def test_moving_lawsuits_differ_from_the_stored_copy(world: World) -> None:
    checked = 0
    for rec in world.records()[6::9]:
        for inst in rec.instances:
            if inst.period_hours > 0 and inst.stored_at is not None:
                stored = world.stored_view(rec.code, inst.instance)[0]
                court = world.court_view(rec.code, inst.instance, world.epoch)[0]
                assert stored["steps"] != court["steps"]
                assert stored["last_step"]["step_date"] < court["last_step"]["step_date"]
                checked += 1
    assert checked >= 20


def test_quiet_lawsuits_do_not_move(world: World) -> None:
    quiet = [
        (r.code, i.instance)
        for r in world.records()[6::13]
        for i in r.instances
        if i.period_hours == 0
    ]
    assert quiet
    for code, instance in quiet[:20]:
        assert world.steps_between(code, instance, world.epoch, world.epoch + timedelta(400)) == []


def test_views_are_independent_copies(world: World) -> None:
    code = world.samples()["lawsuit_cnj"][0]
    view = world.court_view(code, 1, world.epoch)[0]
    view["steps"][0].pop("source_name")
    view["parties"].clear()
    again = world.court_view(code, 1, world.epoch)[0]
    assert "source_name" in again["steps"][0]
    assert again["parties"]


def test_unknown_lawsuits(world: World) -> None:
    absent = world.samples()["no_data"]["lawsuit_cnj"]
    assert world.court_view(absent, None, world.epoch) == []
    assert world.stored_view(absent, None) == []
    assert world.stored_at(absent, 1) is None
    assert world.steps_between(absent, 1, world.epoch, world.epoch + timedelta(1)) == []
    assert world.attachment_file(absent, 1, "h1-abc") is None


def test_big_lawsuit(world: World) -> None:
    code = world.samples()["big_lawsuit"]
    view = world.court_view(code, 1, world.epoch)[0]
    assert view["last_step"]["steps_count"] >= 10_000
    assert len(view["attachments"]) > 500
    assert view["classifications"][0]["name"] == "Recuperação Judicial"


def test_attachments_and_files(world: World) -> None:
    seen = {"private": 0, "corrupted": 0, "pdf": 0, "html": 0, "txt": 0}
    for code, instance in _sample_keys(world, 11):
        view = world.court_view(code, instance, world.epoch)[0]
        step_ids = {s["step_id"] for s in view["steps"]}
        for att in view["attachments"]:
            assert att["step_id"] in step_ids
            seen[att["extension"]] += 1
            seen["private"] += att["private"]
            seen["corrupted"] += att["corrupted"]
            assert "_text" not in att
            assert world.attachment(code, instance, att["attachment_id"]) == att
            file = world.attachment_file(code, instance, att["attachment_id"])
            assert file is not None
            content, media = file
            assert content
            if att["corrupted"]:
                assert not content.startswith(b"%PDF-1.4\n%") or b"%%EOF" not in content
                continue
            if att["extension"] == "pdf":
                assert media == "application/pdf"
                assert content.startswith(b"%PDF-1.4") and content.rstrip().endswith(b"%%EOF")
            elif att["extension"] == "html":
                assert media.startswith("text/html") and b"<html" in content
            else:
                assert media.startswith("text/plain")
                content.decode("utf-8")
    assert all(v > 0 for v in seen.values()), seen
    assert seen["pdf"] > seen["html"] > 0


def test_attachment_ids_are_checked(world: World) -> None:
    code = world.samples()["big_lawsuit"]
    att = world.court_view(code, 1, world.epoch)[0]["attachments"][0]
    assert world.attachment_file(code, 1, att["attachment_id"]) is not None
    assert world.attachment_file(code, 1, att["attachment_id"][:-1] + "x") is None
    assert world.attachment_file(code, 1, "nonsense") is None
    assert world.attachment_file(code, 7, att["attachment_id"]) is None


def test_moving_attachments_resolve(world: World) -> None:
    code = world.samples()["big_lawsuit"]
    later = world.steps_between(code, 1, world.epoch, world.epoch + timedelta(days=120))
    with_files = [s for s in later if s["attachment_url"]]
    assert with_files
    att_id = with_files[0]["attachment_url"].rsplit("/", 1)[1]
    assert with_files[0]["attachment_url"] == f"/lawsuits/lawsuits/{code}/1/attachments/{att_id}"
    assert world.attachment_file(code, 1, att_id) is not None


def test_milestones(world: World) -> None:
    sentenced = archived = criminal_custody = 0
    for code, instance in _sample_keys(world, 7):
        view = world.court_view(code, instance, world.epoch)[0]
        steps = {s["step_id"]: s for s in view["steps"]}
        for name in ("sentence", "appeal", "custody", "distribution", "appeal_judgement"):
            if view[name]:
                assert view[name]["step_id"] in steps
        for phase in view["phase_history"]:
            assert phase["step_id"] in steps
        assert view["distribution"] is not None
        sentenced += view["sentence"] is not None
        archived += view["status"] == "Arquivado"
        criminal_custody += view["custody"] is not None
    assert sentenced and archived and criminal_custody
