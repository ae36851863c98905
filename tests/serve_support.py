"""Helpers shared by the server tests: a small task set and the services it lives in."""

from __future__ import annotations

from pathlib import Path

from compoworld.tasks.synthesis import SynthConfig
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, synthesize
from compoworld.tasks.walk import WalkConfig

__all__ = ["SERVICES", "make_task_set"]

SERVICES = ["crm", "mail"]
"""The services of the server tests' tasks: two small services, quick to load."""


def make_task_set(out: Path, count: int = 2) -> tuple[Path, list[Task]]:
    """Synthesize ``count`` short cross-service tasks over :data:`SERVICES` into ``out``.

    Returns:
        The tasks file and its tasks.
    """
    config = SynthConfig(
        walk=WalkConfig(min_length=2, max_length=4, min_services=2, max_services=2),
        distractors=3,
        # Two small services hold few records that can take a trigger event: draw longer per task.
        attempts=200,
    )
    stats = synthesize(out, count=count, seed=3, services=SERVICES, config=config)
    assert stats["kept"] == count, stats
    path = out / "tasks.jsonl"
    return path, read_tasks(path)
