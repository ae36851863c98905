"""Long jobs over a world: keep the cyclic garbage collector off the objects that live as long as the job.

A loaded catalog and world hold hundreds of thousands of objects. Python's cyclic
collector walks all of them on every full collection, and a job that makes many
short-lived objects (synthesis, verification) triggers full collections again and
again: they took most of the first seconds of a synthesis run. :func:`settled`
moves the objects that exist when it is entered out of the collector's reach
(``gc.freeze``) for the length of a block, and hands them back after it.

Building those objects has the same cost: reading the catalog index and seeding
the world make hundreds of thousands of objects, each threshold of new ones
starts a collection, and the full ones walk everything made so far (at 360
services this was 0.24 s of a 0.5 s catalog load and nearly all of the world's
build). :func:`building` pauses the collector for such a block.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["building", "settled"]


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


@contextmanager
def building() -> Iterator[None]:
    """Run a block that makes many long-lived objects (a catalog, a world) with the cyclic collector paused.

    What the block makes is meant to be kept, so collecting while it grows finds
    nothing and only walks it again and again. When the block ends, what it made
    joins the oldest generation unexamined (a full collection walks it as usual)
    and the collector runs as before (nested uses leave it paused until the
    outermost ends).

    Yields:
        Nothing.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            # Straight to the oldest generation: a young collection would walk all of it once more
            # (0.2 s at 360 services) to find nothing. Inside a `settled` block it stays young instead,
            # so that the block's own unfreeze is not brought forward.
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
