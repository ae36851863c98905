"""What several commerce services compute alike: order lines that name the same thing twice."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["merge_quantities"]


def merge_quantities(lines: Iterable[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """Sum the quantities of lines that name the same thing (a SKU, a listing, a variant).

    Args:
        lines: ``(key, quantity)`` of each line, in order.

    Returns:
        ``key -> (index of its first line, total quantity)``, in order of first mention;
        the index lets a refusal name the line at fault.
    """
    merged: dict[str, tuple[int, int]] = {}
    for i, (key, quantity) in enumerate(lines):
        first, total = merged.get(key, (i, 0))
        merged[key] = (first, total + quantity)
    return merged
