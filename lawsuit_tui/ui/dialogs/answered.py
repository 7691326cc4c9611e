"""A dialog's callback that acts only on an answer.

A modal screen is dismissed with its answer, or with None when the user cancels it; most
callers act on the answer and do nothing on None:
``self.app.push_screen(TierPickerScreen(...), if_answered(self._track))``.
A yes/no question (``ConfirmScreen``) answers False as well as None: test ``if yes:`` there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["if_answered"]

Answer = TypeVar("Answer")


def if_answered(then: Callable[[Answer], object]) -> Callable[[Answer | None], None]:
    """The callback for ``push_screen``: ``then(answer)``, nothing when cancelled (None)."""

    def answered(answer: Answer | None) -> None:
        if answer is not None:
            then(answer)

    return answered
