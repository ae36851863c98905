"""Text helpers services share: matching names and words the way people type them."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold", "strip_accents"]

_WORD = re.compile(r"[a-z0-9]+")


def strip_accents(text: str, *, sharp_s: bool = False, ascii_only: bool = True) -> str:
    """``text`` without diacritics (``Zürich`` → ``Zurich``).

    Args:
        text: Any text.
        sharp_s: Spell ``ß`` as ``ss`` (``Straße`` → ``Strasse``) instead of dropping it.
        ascii_only: Drop characters with no ASCII form (``ø``, ``ł``, Cyrillic, CJK); False keeps
            them and removes only the combining marks (``Łódź`` → ``Łodz``).

    Returns:
        The text in Unicode compatibility form (NFKD) without its accents.
    """
    if sharp_s:
        text = text.replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", text)
    if ascii_only:
        return decomposed.encode("ascii", "ignore").decode("ascii")
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold(text: str, *, sharp_s: bool = False, keep_punctuation: bool = False) -> str:
    """A search key: lower case, accents removed, punctuation to spaces, runs of spaces collapsed.

    ``"São Paulo, BR"`` and ``"sao  paulo br"`` fold to the same ``"sao paulo br"``.

    Args:
        text: Any text.
        sharp_s: Spell ``ß`` as ``ss`` (``Straße`` → ``strasse``) instead of dropping it.
        keep_punctuation: Keep punctuation and spacing as written (``"Acme, Inc."`` → ``"acme, inc."``):
            only lower-case the ASCII form, for keys such as domains and e-mail local parts.

    Returns:
        The folded text.
    """
    plain = strip_accents(text, sharp_s=sharp_s).lower()
    return plain if keep_punctuation else " ".join(_WORD.findall(plain))
