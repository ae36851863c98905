"""Long jobs across workers: the executor interface, and synthesis split so that any executor writes the same bytes.

An :class:`Executor` hosts one worker object per process (built once: a worker
loads the catalog and world when it starts and serves many items) and maps a
method over items, handing results back in item order. :class:`LocalExecutor`
runs one worker in this process; ``compoworld.adapters.ray.RayExecutor`` runs
them as Ray actors.

Synthesis is sequential in one respect: a walk whose calls an earlier task
already makes is skipped as a duplicate, so what index *n* gives depends on the
tasks kept before it. A :class:`SynthWorker` draws an index as if nothing had
been kept yet, and records every signature it asked about; the driver commits
indices in order and accepts a draw only when none of those signatures was kept
in the meantime: then every answer the worker got is the answer the local run
gets, and so are the task and the rejection counts. Otherwise (rare: two indices
drawing the same calls) the driver draws that index again itself, with what was
really kept. The result is the local run's, byte for byte.
"""

from __future__ import annotations

import importlib
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from compoworld.engine.catalog import Catalog
from compoworld.engine.heap import settled
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.world.world import World

__all__ = ["Executor", "IndexDraw", "LocalExecutor", "SeenProbe", "SynthWorker", "build_worker"]


class Executor(Protocol):
    """Maps a worker's method over items on a pool of workers, results in item order."""

    workers: int
    """How many workers serve items at once."""

    def imap(self, worker: str, init: dict[str, Any], method: str, items: Iterable[Any]) -> Generator[Any, None, None]:
        """Yield ``getattr(w, method)(item)`` for each item, in order, ``w`` a worker built once per process.

        Items are drawn from ``items`` only when a worker is free (at most a few per worker ahead of the
        result the caller waits for), so a caller that stops early leaves the rest undrawn.

        Args:
            worker: ``"module:Class"``; each worker process builds ``Class(**init)`` once.
            init: Keyword arguments of the worker's constructor (picklable).
            method: The method to call with each item.
            items: The items.
        """
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


def build_worker(worker: str, init: dict[str, Any]) -> Any:
    """Import ``"module:Class"`` and build it with ``init``.

    Args:
        worker: The class's import path.
        init: Its constructor's keyword arguments.

    Returns:
        The worker.
    """
    module, _, name = worker.partition(":")
    return getattr(importlib.import_module(module), name)(**init)


class LocalExecutor:
    """One worker in this process: the sequential path, through the same interface."""

    workers = 1

    def __init__(self) -> None:
        self._hosted: dict[str, Any] = {}

    def imap(self, worker: str, init: dict[str, Any], method: str, items: Iterable[Any]) -> Generator[Any, None, None]:
        """See :meth:`Executor.imap`."""
        key = f"{worker}:{sorted(init.items())!r}"
        if key not in self._hosted:
            self._hosted[key] = build_worker(worker, init)
        host = self._hosted[key]
        for item in items:
            yield getattr(host, method)(item)

    def close(self) -> None:
        """Drop the worker."""
        self._hosted.clear()


class SeenProbe(set[str]):
    """A ``seen`` set that answers "not seen" to everything and remembers what it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def __contains__(self, item: object) -> bool:
        self.asked.append(str(item))
        return False


@dataclass(frozen=True, slots=True)
class IndexDraw:
    """What one index gave a worker that assumed no task had been kept.

    Attributes:
        index: The index.
        task_json: The task, serialised as the local run writes it, or None.
        asked: Every signature the draw asked about, in order.
        kept: The signatures the draw marked as kept (the task's walk), to add to ``seen``.
        rejected: Rejections counted on the way.
    """

    index: int
    task_json: str | None
    asked: tuple[str, ...]
    kept: tuple[str, ...]
    rejected: dict[str, int]

    def valid_for(self, seen: set[str]) -> bool:
        """Whether the draw is what a run that had kept ``seen`` would make."""
        return not any(s in seen for s in self.asked)


class SynthWorker:
    """Draws synthesis indices in a world built once (what a Ray actor or a local run holds).

    Args:
        seed: The synthesis seed.
        world_seed: The world's seed.
        config: Synthesis knobs.
        services: The services of the world (None: all).
    """

    def __init__(
        self, *, seed: int, world_seed: int, config: SynthConfig, services: Sequence[str] | None = None
    ) -> None:
        world = World.build(Catalog.load(list(services) if services else None), seed=world_seed)
        self.seed = seed
        self.synth = Synthesizer(world, ToolGraph.build(world.catalog), config)

    def draw(self, index: int) -> IndexDraw:
        """Draw one index as if nothing had been kept yet.

        Args:
            index: The index.

        Returns:
            The draw, with the signatures it asked about.
        """
        probe = SeenProbe()
        rejected: dict[str, int] = {}
        with settled():
            task = self.synth.task_at(self.seed, index, probe, rejected)
        line = None if task is None else task.model_dump_json()
        return IndexDraw(index, line, tuple(probe.asked), tuple(sorted(probe)), rejected)

    def draw_many(self, indices: Iterable[int]) -> list[IndexDraw]:
        """Draw several indices, each as :meth:`draw` does."""
        return [self.draw(i) for i in indices]
