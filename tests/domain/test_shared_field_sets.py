"""Models given the same fields share one set of names; a change to one never shows in another."""

from __future__ import annotations

from lawsuit_tui.domain.lawsuit import Lawsuit, Step


def _step(n: int) -> dict[str, object]:
    return {"step_id": f"s{n}", "content": f"Movimento {n}", "step_date": "2024-01-01T00:00:00Z"}


def test_steps_given_the_same_fields_share_one_set() -> None:
    lawsuit = Lawsuit.model_validate(
        {"code": "0001234-56.2023.8.26.0100", "steps": [_step(n) for n in range(50)]}
    )
    sets = {id(step.__pydantic_fields_set__) for step in lawsuit.steps}
    assert len(sets) == 1
    assert lawsuit.steps[0].__pydantic_fields_set__ == {"step_id", "content", "step_date"}


def test_setting_a_field_changes_that_instance_alone() -> None:
    first, second = Step.model_validate(_step(1)), Step.model_validate(_step(2))
    first.step_type = "juntada"
    assert first.to_json_dict()["step_type"] == "juntada"
    assert "step_type" not in second.to_json_dict()
    third = Step.model_validate(_step(3))
    assert "step_type" not in third.to_json_dict()
    assert third.__pydantic_fields_set__ is second.__pydantic_fields_set__


def test_copies_keep_their_own_fields() -> None:
    step = Step.model_validate(_step(1))
    changed = step.model_copy(update={"private": True})
    assert changed.to_json_dict()["private"] is True
    assert "private" not in step.to_json_dict()
    assert "private" not in Step.model_validate(_step(2)).to_json_dict()
