"""Names in the UI say what a thing is, and each class name is taken once.

Textual matches CSS type selectors by class name: two widget classes of one name style each
other (two ``FieldBox`` classes once made every field of one form a row taller after the other
form was opened). Names that record when or in which batch something was written tell a reader
nothing about what it is.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from collections import Counter
from pathlib import Path

import textual.widgets
from textual.dom import DOMNode

import lawsuit_tui.ui as ui_package

UI_DIR = Path(ui_package.__file__).parent
ROOT = UI_DIR.parents[1]
# Built from parts, so that this file does not match itself.
STALE = re.compile("part" + r"[ _-]?[12]|" + "coming" + r"[ _-]?" + "soon", re.IGNORECASE)


def class_names() -> Counter[str]:
    found: Counter[str] = Counter()
    for path in UI_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found.update(node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef))
    return found


def test_no_two_ui_classes_share_a_name() -> None:
    names = class_names()
    assert names["FieldBox"] == 1
    assert {name: count for name, count in names.items() if count > 1} == {}


def test_no_ui_widget_takes_the_name_of_a_textual_widget() -> None:
    textual_names = {
        name
        for name in dir(textual.widgets)
        if inspect.isclass(getattr(textual.widgets, name, None))
    }
    ours: set[str] = set()
    for info in pkgutil.walk_packages(ui_package.__path__, "lawsuit_tui.ui."):
        module = importlib.import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, DOMNode):
                ours.add(name)
    assert "FieldBox" in ours and "FramedScreen" in ours
    assert ours & textual_names == set()


def test_no_name_or_text_records_when_something_was_written() -> None:
    places = [UI_DIR, ROOT / "tests" / "ui", ROOT / "tests" / "support", ROOT / "scripts"]
    stale: list[str] = []
    for place in places:
        for path in sorted(place.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            where = str(path.relative_to(ROOT))
            if STALE.search(where):
                stale.append(where)
            if path.suffix in (".py", ".tcss", ".md"):
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if STALE.search(line):
                        stale.append(f"{where}:{number}: {line.strip()}")
    assert stale == []


def test_the_stale_pattern_matches_what_it_should() -> None:
    for text in (
        "tests/ui/" + "part" + "2_fakes.py",
        ".part" + "2-form",
        "Part " + "1",
        "coming " + "soon",
    ):
        assert STALE.search(text), text
    assert not STALE.search("departure 2 participants")
