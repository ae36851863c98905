"""Hypothesis strategies for text that is not valid Unicode, shared by the engine's and the servers' tests.

A lone surrogate (U+D800 to U+DFFF) is a code point Python strings may hold but no UTF-8 text can: JSON
carries one as the escape ``"\\ud800"``. ``st.text`` never draws one, so these strategies put it in.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = ["Path", "field_of", "holding_invalid_text", "invalid_text", "lone_surrogate", "plain"]

Path = list[str | int]

lone_surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
invalid_text = st.builds(lambda a, s, b: a + s + b, st.text(max_size=4), lone_surrogate, st.text(max_size=4))
"""Text holding one lone surrogate."""
plain = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=6)
"""Valid JSON scalars."""


def field_of(path: Path) -> str:
    """The ``field`` of the error about ``path``: dotted, any lone surrogate of a key written as its escape."""
    return ".".join(str(p) for p in path).encode("utf-8", "backslashreplace").decode("utf-8")


@st.composite
def holding_invalid_text(draw: st.DrawFn, depth: int = 0) -> tuple[Any, Path]:
    """A JSON value with invalid text in one place (a value, a list item, an object's key), and the path to it."""
    kinds = ["text", "key"] if depth >= 3 else ["text", "key", "in_list", "in_object"]
    kind = draw(st.sampled_from(kinds))
    if kind == "text":
        return draw(invalid_text), []
    if kind == "key":
        key = draw(invalid_text)
        return {key: draw(plain)}, [key]
    inner, path = draw(holding_invalid_text(depth + 1))
    if kind == "in_list":
        items = draw(st.lists(plain, max_size=3))
        at = draw(st.integers(0, len(items)))
        return [*items[:at], inner, *items[at:]], [at, *path]
    name = draw(st.text(max_size=6))
    return {name: inner}, [name, *path]
