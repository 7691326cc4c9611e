"""Text as people type it when they search: lower case, without accents or cedillas."""

from __future__ import annotations

import unicodedata

__all__ = ["fold"]


def fold(text: str) -> str:
    """``text`` in lower case without accents or cedillas, for matching as people type:
    ``fold("Sentença")`` == ``fold("SENTENCA")`` == ``"sentenca"``."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
