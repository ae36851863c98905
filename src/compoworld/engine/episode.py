"""Episodes: one agent's private, copy-on-write view of a world, and the calls it makes.

An episode holds only its own writes over the shared immutable world (see
:class:`~compoworld.engine.overlay.EpisodeState`), so the uniform state
interface (``reset``, ``snapshot``, ``restore``, ``diff``, ``state_hash``) is cheap
and independent of the world's size. :meth:`Episode.call` runs a tool through
the runtime; :meth:`Episode.export_sqlite` writes the whole state to SQLite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compoworld.engine.overlay import EpisodeState, RecordChange, Snapshot, StateDiff, TableDiff
from compoworld.engine.runtime import CallResult, call
from compoworld.engine.sqlite import export_episode

__all__ = ["Episode", "RecordChange", "Snapshot", "StateDiff", "TableDiff"]


class Episode(EpisodeState):
    """A private, mutable view of a world with the uniform state interface, on which tools run.

    Args:
        world: The shared world.
        seed: Episode seed; mixes into the randomness tools draw.
        world_model: Answers open-world calls (default: the synthetic, offline model).

    The open-world answers it returned are in :attr:`recording`; replay them with
    :class:`~compoworld.engine.openworld.ReplayWorldModel`.
    """

    __slots__ = ()

    def call(self, tool: str, arguments: Any = None) -> CallResult:
        """Run a tool on this episode (see :func:`compoworld.engine.runtime.call`)."""
        return call(self, tool, arguments)

    def export_sqlite(self, path: str | Path) -> Path:
        """Write the episode's whole state to a SQLite file (see :mod:`compoworld.engine.sqlite`)."""
        return export_episode(self, Path(path))
