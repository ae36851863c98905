"""What an open-world service drew from a world, kept once per population.

An open-world reference service (an encyclopedia, a patent office, a job
board) draws its whole catalogue from the world's population with a seeded
random generator: the same world always gives the same catalogue. Drawing it
takes far longer than any lookup in it, and every tool call and every seeding
would otherwise draw it again, so :func:`per_population` keeps what a drawing
function made, keyed by the world and the further arguments (the day, a
year), and hands back the same object while they stay the same.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Concatenate, ParamSpec, TypeVar

from compoworld.engine.entities import Population

__all__ = ["per_population"]

P = ParamSpec("P")
T = TypeVar("T")

_KEPT = 8
"""How many draws one wrapped function keeps: a run visits a few worlds and days at a time."""


def per_population(draw: Callable[Concatenate[Population, P], T]) -> Callable[Concatenate[Population, P], T]:
    """Keep what ``draw`` made of a world, so that a catalogue is drawn once per world and day.

    The key is the population's seed and the sizes of its people, companies,
    products and places (a world drawn at another scale is another world) and
    every further argument, which must be hashable (a date, a year). At most
    eight results are kept per wrapped function; when that many are kept, the
    next new key forgets them all before its result is kept. ``draw`` must be
    deterministic in the key, and callers must not change what it returns: the
    same object is handed to everyone who asks with the same key.

    Args:
        draw: The drawing function, called as ``draw(pop, *args, **kwargs)``.

    Returns:
        A function with ``draw``'s signature that draws only for a key it does not keep.

    Example:
        ``@per_population`` above ``def _build(pop: Population, today: dt.date) -> _Db:``; then
        ``_build(ctx.population, ctx.today())`` draws once per world and day.
    """
    kept: dict[tuple[Hashable, ...], T] = {}

    @functools.wraps(draw)
    def kept_draw(pop: Population, /, *args: P.args, **kwargs: P.kwargs) -> T:
        key = (
            pop.seed,
            len(pop.people),
            len(pop.companies),
            len(pop.products),
            len(pop.places),
            *args,
            *sorted(kwargs.items()),
        )
        if key in kept:
            return kept[key]
        if len(kept) >= _KEPT:
            kept.clear()
        found = kept[key] = draw(pop, *args, **kwargs)
        return found

    return kept_draw
