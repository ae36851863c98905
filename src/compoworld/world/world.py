"""The world: one seeded population and the initial state of every service built from it.

Built deterministically from a seed and a scale. Every service seeds its tables
from the one shared population (:mod:`compoworld.world.population`), so the
same person is the same everywhere.
"""

from __future__ import annotations

from compoworld.engine.catalog import Catalog
from compoworld.engine.heap import building
from compoworld.engine.state import WorldState
from compoworld.world.population import build_population

__all__ = ["World"]


class World(WorldState):
    """The immutable initial state shared by every episode in a process.

    Use :meth:`build` rather than the constructor.

    Args:
        catalog: The loaded catalog.
        seed: The world seed: it draws the population and seeds every service.
        scale: Multiplies the population's size.
    """

    def __init__(self, catalog: Catalog, seed: int = 0, scale: float = 1.0) -> None:
        with building():
            super().__init__(catalog, build_population(seed, scale), seed=seed, scale=scale)

    @classmethod
    def build(cls, catalog: Catalog | None = None, *, seed: int = 0, scale: float = 1.0) -> World:
        """Build a world.

        Args:
            catalog: The catalog; None loads every registered service.
            seed: The world seed.
            scale: Multiplies the population's size.

        Returns:
            The world.
        """
        return cls(catalog or Catalog.load(), seed, scale)
