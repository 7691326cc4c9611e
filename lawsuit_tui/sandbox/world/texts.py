"""Step vocabulary and long texts, in the words Brazilian court portals use.

The words are data, shipped in ``assets/sandbox/``: steps.json (step pools, milestones),
procedure.json (what the papers say by branch and kind, D184) and the templates it names
(initial.txt, petition.txt, judgement.txt, sentence*.txt). This module reads them once, at
import; :mod:`lawsuit_tui.sandbox.world.papers` and :mod:`lawsuit_tui.sandbox.world.steps`
fill them in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lawsuit_tui.assets_dir import read_asset_json, read_asset_text
from lawsuit_tui.sandbox.world.names import tuples

__all__ = [
    "APPEAL_RESULTS",
    "FILLER",
    "FILLER_CRIMINAL",
    "FILLER_LABOUR",
    "FILLER_PRECATORY",
    "FILLER_SECOND",
    "INITIAL_TEXT",
    "JUDGEMENT_TEXT",
    "MILESTONES",
    "MILESTONE_PHASES",
    "MOVING",
    "PETITION_TEXT",
    "PORTFOLIO",
    "PROCEDURE",
    "SENTENCE_TEXTS",
    "Milestone",
]


@dataclass(frozen=True, slots=True)
class Milestone:
    """A milestone step: its type and content template, and the document it carries, if any
    (``attachment_text`` a template too)."""

    step_type: str
    content: str
    attachment_type: str = ""
    attachment_text: str = ""


def _template(name: str) -> str:
    # The files end with a newline, as text files do; the templates do not.
    return read_asset_text(f"sandbox/{name}").removesuffix("\n")


_STEPS: dict[str, Any] = tuples(read_asset_json("sandbox/steps.json"))

# Pools of ordinary steps: (step_type, content template, attachment type or "", weight).
FILLER: tuple[tuple[str, str, str, int], ...] = _STEPS["filler"]
FILLER_LABOUR: tuple[tuple[str, str, str, int], ...] = _STEPS["filler_labour"]
FILLER_CRIMINAL: tuple[tuple[str, str, str, int], ...] = _STEPS["filler_criminal"]
FILLER_SECOND: tuple[tuple[str, str, str, int], ...] = _STEPS["filler_second"]
FILLER_PRECATORY: tuple[tuple[str, str, str, int], ...] = _STEPS["filler_precatory"]
# The steps of a lawsuit that keeps moving after the epoch.
MOVING: tuple[tuple[str, str, str, int], ...] = _STEPS["moving"]
# The steps of a collection portfolio's lawsuits after the epoch (sandbox/world/portfolio.py).
PORTFOLIO: tuple[tuple[str, str, str, int], ...] = _STEPS["portfolio"]
APPEAL_RESULTS: tuple[str, ...] = _STEPS["appeal_results"]
MILESTONES: dict[str, Milestone] = {
    name: Milestone(**fields) for name, fields in _STEPS["milestones"].items()
}
# The phase a milestone opens.
MILESTONE_PHASES: dict[str, str] = _STEPS["milestone_phases"]

# What the papers say by branch, kind and class (D184): see its "note".
PROCEDURE: dict[str, Any] = tuples(read_asset_json("sandbox/procedure.json"))
# A sentence's template by file name (procedure.json's "sentence_templates").
SENTENCE_TEXTS: dict[str, str] = {
    name: _template(name) for name in set(PROCEDURE["sentence_templates"].values())
}
INITIAL_TEXT = _template("initial.txt")
PETITION_TEXT = _template("petition.txt")
JUDGEMENT_TEXT = _template("judgement.txt")
