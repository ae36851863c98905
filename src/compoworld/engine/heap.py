"""Long jobs over a world: keep the cyclic garbage collector off the objects that live as long as the job.

A loaded catalog and world hold hundreds of thousands of objects. Python's cyclic
collector walks all of them on every full collection, and a job that makes many
short-lived objects (synthesis, verification) triggers full collections again and
again: they took most of the first seconds of a synthesis run. :func:`settled`
moves the objects that exist when it is entered out of the collector's reach
(``gc.freeze``) for the length of a block, and hands them back after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["settled"]


@contextmanager
def settled() -> Iterator[None]:
    """Run a block with every object made before it out of the cyclic collector's reach.

    Enter it once the long-lived objects (catalog, world, graph) are built. Objects made
    inside the block are collected as usual; those made before are not walked again
    until the block ends (they are freed as usual when nothing refers to them).
    Nested uses keep the outermost one's effect.

    Yields:
        Nothing.
    """
    already = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        yield
    finally:
        if not already:
            gc.unfreeze()
