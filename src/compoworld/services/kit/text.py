"""Text helpers services share: matching names and words the way people type them."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold", "strip_accents"]

_WORD = re.compile(r"[a-z0-9]+")


def strip_accents(text: str) -> str:
    """``text`` without diacritics (``Zürich`` → ``Zurich``); characters with no ASCII form are dropped."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def fold(text: str) -> str:
    """A search key: lower case, accents removed, punctuation to spaces, runs of spaces collapsed.

    ``"São Paulo, BR"`` and ``"sao  paulo br"`` fold to the same ``"sao paulo br"``.
    """
    return " ".join(_WORD.findall(strip_accents(text).lower()))
