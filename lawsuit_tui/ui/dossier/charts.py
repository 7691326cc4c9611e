"""The dossier's exposure as charts: counts by side, by court, by year, by amount band.

Drawn with plotext through ``textual-plotext`` (a maintained Textual widget for terminal
plots). The library is imported when the first chart is built, never when this module is
(the app's first frame and the dossier list do not pay for it; tests/test_import_hygiene.py
keeps it so). Labels are the reader's words; a chart with nothing to draw says so in a line
instead of an empty frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from lawsuit_tui.i18n import _

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = ["Figure", "chart_widget"]

Figure = tuple[str, Sequence[tuple[str, int]], bool]
"""A chart: its title, its (label, value) bars, and whether they stand (years) or lie."""

_LABEL_WIDTH = 16


def _short(label: str) -> str:
    return label if len(label) <= _LABEL_WIDTH else label[: _LABEL_WIDTH - 1] + "…"


def chart_widget(figure: Figure, *, classes: str = "") -> Widget:
    """A plot of ``figure`` (the plotting library is imported here, on first use)."""
    title, items, vertical = figure
    if not items or not any(value for _label, value in items):
        return Static(f"{title}: " + _("nothing to draw."), classes=f"chart-empty {classes}")
    from textual_plotext import PlotextPlot

    plot = PlotextPlot(classes=f"chart {classes}")
    plt: Any = plot.plt  # the widget's own figure: plotext's global one is never touched
    values = [value for _label, value in items]
    top = max(values)
    if vertical:
        plt.bar([_short(label) for label, _value in items], values, width=0.5)
        plt.yticks(sorted({0, round(top / 2), top}))
        plot.styles.height = 12
    else:
        # Each bar's figure in its label (a terminal chart has no room for value marks), the
        # largest on top as a reader scans a ranking, one line a bar.
        labels = [f"{_short(label)} {value}" for label, value in items]
        plt.bar(labels[::-1], values[::-1], orientation="horizontal", width=1 / 5)
        plt.xticks([])
        plot.styles.height = len(items) + 3
    plt.title(title)
    return plot
