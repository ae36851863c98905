"""The task format: what a synthesized task holds, enough to re-verify it anywhere.

A :class:`Task` carries its seed and world version, the setup calls that put
its trigger event into the episode, the instruction the agent sees (what
happened and what must be true afterwards) and the facts it states, the plan
(the steps in words, never shown), the tools shown, the oracle solution with
the provenance of every argument, the rubric criteria and the recorded
open-world answers (docs/design.md §5).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from compoworld.engine.openworld import Recording
from compoworld.engine.state import WorldState, canonical_json
from compoworld.tasks.criteria import AnswerCriterion, Criterion

__all__ = [
    "SolutionStep",
    "Task",
    "calls_signature",
    "check_task_world",
    "provenance_fields",
    "provenance_sources",
    "solution_signature",
    "task_answer",
]


class SolutionStep(BaseModel):
    """One call of the oracle solution with the provenance of each argument."""

    model_config = ConfigDict(frozen=True)

    tool: str = Field(description="Tool name.")
    arguments: dict[str, Any] = Field(description="Arguments as called.")
    provenance: dict[str, dict[str, Any]] = Field(
        description="Per argument: {kind: given|step|literal|derived|compose, step?, field?, semantic?, "
        "transform?, params?, parts?}."
    )


class Task(BaseModel):
    """A synthesized task, complete enough to be re-verified anywhere (docs/design.md §5)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Stable id derived from seed and index.")
    seed: int = Field(description="Synthesis seed.")
    index: int = Field(description="Position in the synthesized set.")
    world_seed: int = Field(description="Seed of the world the task lives in.")
    world_version: str = Field(description="Version hash of that world.")
    catalog: str = Field(description="Catalog fingerprint.")
    setup: list[SolutionStep] = Field(
        default_factory=list, description="Calls made before the agent starts: the trigger event."
    )
    trigger: str = Field(default="", description="What happened, as the instruction opens with it (empty: none).")
    instruction: str = Field(description="What the agent is asked, in natural English.")
    given: dict[str, Any] = Field(description="The facts the instruction states, by label.")
    tools: list[str] = Field(description="Tools shown to the agent: the solution's plus distractors.")
    solution: list[SolutionStep] = Field(description="The oracle solution.")
    plan: list[str] = Field(default_factory=list, description="The solution's steps in words (never shown).")
    criteria: list[Criterion] = Field(description="The rubric.")
    recording: Recording = Field(default_factory=Recording, description="Open-world answers of the oracle run.")
    patterns: list[str] = Field(
        default_factory=list, description="The difficulty patterns the task takes on (decoys …), in order."
    )
    metadata: dict[str, Any] = Field(description="services, length, writes, fan_in, open_world_steps, difficulty.")


def provenance_fields(prov: dict[str, Any]) -> list[tuple[int, str]]:
    """The ``(step, field)`` of each found value an argument uses (none for given and literal ones).

    Args:
        prov: One argument's provenance as a task stores it (``step``, ``derived`` or ``compose``).
    """
    if prov.get("kind") == "compose":
        derived = [(int(prov["step"]), str(prov.get("field", "")))] if prov.get("step") is not None else []
        return [(int(p["step"]), str(p["field"])) for p in prov.get("parts", [])] + derived
    if prov.get("kind") in ("step", "derived") and prov.get("step") is not None:
        return [(int(prov["step"]), str(prov.get("field", "")))]
    return []


def provenance_sources(prov: dict[str, Any]) -> list[int]:
    """The earlier steps whose findings an argument uses (see :func:`provenance_fields`)."""
    return [k for k, _ in provenance_fields(prov)]


def task_answer(task: Task) -> str:
    """The oracle's final answer: the value of the task's answer criterion, if it has one."""
    return next((c.value for c in task.criteria if isinstance(c, AnswerCriterion)), "")


def solution_signature(task: Task) -> str:
    """A hash of a task's solution calls: two tasks with the same signature are duplicates."""
    return calls_signature((s.tool, s.arguments) for s in task.solution)


def calls_signature(calls: Iterable[tuple[str, Any]]) -> str:
    """A hash of tool calls, ``(tool, arguments)`` in order: :func:`solution_signature` of a task making them.

    Args:
        calls: The calls; arguments as JSON-ready values.
    """
    return hashlib.sha256(canonical_json([list(c) for c in calls]).encode()).hexdigest()


def check_task_world(world: WorldState, task: Task) -> None:
    """Check that a world is the one a task was made in: the same catalog and the same records.

    Raises:
        ValueError: naming what differs and what to do about it.
    """
    if world.catalog.fingerprint != task.catalog:
        services = ", ".join(task.metadata.get("services", [])) or "its tools' services"
        raise ValueError(
            f"task {task.id} was synthesized with catalog {task.catalog}, but the services loaded here make "
            f"catalog {world.catalog.fingerprint}: load the services the task set was made with (its stats.json "
            f"lists them; the task uses {services}), or synthesize the tasks again if the services changed since"
        )
    if world.version != task.world_version:
        raise ValueError(
            f"task {task.id} was made in world {task.world_version}, but the catalog now builds "
            f"{world.version} (world seed {world.seed}): the population or a seeder changed since; "
            "synthesize the tasks again"
        )
