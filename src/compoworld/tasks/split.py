"""Training and evaluation splits of synthesis: apart by seed stream and by a held-out set of services.

A gain measured on tasks like those trained on may be memorisation. A split keeps the two apart twice:

* **services**: a set of services is held out. Training tasks are synthesized in a world without
  them (no training task can touch one); every evaluation task touches at least one of them.
* **seed stream**: evaluation tasks are drawn from indices :data:`EVAL_START` onwards, training
  tasks from 0, so that with the same ``--seed`` no walk of one is ever a walk of the other (a
  walk's draws are seeded by the seed and its index).

The default held-out set is one service in five, chosen by a hash of the service's name so that it
stays the same when services are added to the catalog: ``holdout_services()`` lists it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from compoworld.engine.registration import registered
from compoworld.tasks.task import Task

__all__ = ["EVAL_START", "HOLDOUT_SHARE", "SPLITS", "Split", "holdout_services"]

SPLITS = ("train", "eval")

EVAL_START = 1_000_000
"""The first index evaluation tasks are drawn from (training tasks start at 0)."""

HOLDOUT_SHARE = 5
"""One service in this many is held out by default."""

EVAL_DRAW_FACTOR = 10
"""How many times more indices an evaluation split may draw than a plain synthesis: walks keep to the
services with many triggers, so only about one task in twelve touches a held-out service by default."""


def _held_out(name: str) -> bool:
    return int(hashlib.sha256(f"compoworld-holdout:{name}".encode()).hexdigest()[:8], 16) % HOLDOUT_SHARE == 0


def holdout_services(services: Sequence[str] | None = None) -> list[str]:
    """The services held out by default: one in :data:`HOLDOUT_SHARE`, chosen by a hash of each name.

    Args:
        services: The services to choose from (default: every registered service).
    """
    names = list(registered()) if services is None else list(dict.fromkeys(services))
    return sorted(n for n in names if _held_out(n))


@dataclass(frozen=True, slots=True)
class Split:
    """One side of a training/evaluation split.

    Attributes:
        name: ``train`` or ``eval``.
        holdout: The held-out services.
    """

    name: Literal["train", "eval"]
    holdout: tuple[str, ...]

    @classmethod
    def make(cls, name: str, services: Sequence[str] | None, holdout: Sequence[str] | None = None) -> Split:
        """The split ``name`` over ``services`` (default: all), holding out ``holdout`` (default: the hash's choice).

        Raises:
            ValueError: for an unknown split name, a held-out service outside the services, or a
                held-out set that leaves no service to train on.
        """
        if name not in SPLITS:
            raise ValueError(f"unknown split {name!r}; use {' or '.join(SPLITS)}")
        names = list(registered()) if services is None else list(dict.fromkeys(services))
        held = sorted(dict.fromkeys(holdout)) if holdout else holdout_services(names)
        outside = [s for s in held if s not in names]
        if outside:
            raise ValueError(f"held-out service(s) {', '.join(outside)} are not among the services synthesized over")
        if not held:
            raise ValueError("the held-out set is empty: name services with --holdout")
        if len(held) >= len(names):
            raise ValueError("every service is held out: nothing is left to train on")
        return cls(name, tuple(held))  # type: ignore[arg-type]

    @property
    def start(self) -> int:
        """The first index of this split's tasks."""
        return EVAL_START if self.name == "eval" else 0

    def last_index(self, count: int, factor: int) -> int:
        """The index after the last one this split may draw for ``count`` tasks (``factor``: a plain run's share)."""
        return self.start + count * factor * (EVAL_DRAW_FACTOR if self.name == "eval" else 1)

    def services(self, services: Sequence[str] | None) -> list[str] | None:
        """The services this split synthesizes over, out of ``services`` (None: all registered).

        Training leaves the held-out services out of the world; evaluation keeps every service.
        """
        if self.name == "eval":
            return list(services) if services else None
        names = list(registered()) if services is None else list(dict.fromkeys(services))
        return [n for n in names if n not in self.holdout]

    def keeps(self, task: Task) -> bool:
        """Whether ``task`` belongs to this split: an evaluation task touches a held-out service."""
        if self.name == "train":
            return not set(task.metadata.get("services", ())) & set(self.holdout)
        return bool(set(task.metadata.get("services", ())) & set(self.holdout))

    def settings(self) -> dict[str, object]:
        """What a task set records of its split (``progress.json`` and ``stats.json``)."""
        return {"split": self.name, "holdout": list(self.holdout)}
