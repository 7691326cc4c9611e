"""How a lawsuit's parties read in one line (the lookup table, a request's answers)."""

from __future__ import annotations

from lawsuit_tui.domain.lawsuit import Lawsuit
from lawsuit_tui.ui.widgets.lawsuit_summaries import lawsuit_parties


def _lawsuit(*parties: tuple[str, str]) -> Lawsuit:
    return Lawsuit.model_validate(
        {
            "code": "0570537-28.2018.8.26.0100",
            "instance": 1,
            "parties": [{"side": side, "name": name} for side, name in parties],
        }
    )


def test_both_sides_are_named_first_active_then_passive() -> None:
    lawsuit = _lawsuit(("Active", "Ana"), ("Passive", "Banco"), ("Passive", "Outro"))
    assert lawsuit_parties(lawsuit) == "Ana × Banco (+1)"


def test_a_case_with_no_other_side_names_only_its_own() -> None:
    # D184: a judicial reorganisation has the company, its administrator and its creditors
    lawsuit = _lawsuit(
        ("Active", "Aurora Ltda."),
        ("Interested", "Dr. Administrador"),
        ("Interested", "Credor S.A."),
    )
    assert lawsuit_parties(lawsuit) == "Aurora Ltda. (+2)"
