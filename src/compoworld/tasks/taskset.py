"""Task sets on disk: resumable synthesis into ``tasks.jsonl`` and re-verification.

``synthesize`` appends one task per line (flushed and fsynced), keeps a small
``progress.json`` next to it, and on restart truncates a half-written last
line and carries on from where it stopped: killing it loses and duplicates
nothing, and the result is byte-identical to an uninterrupted run.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from compoworld.engine.catalog import Catalog
from compoworld.engine.jsonl import append_line, recover, write_json_atomic
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task, solution_signature
from compoworld.world.world import World

__all__ = [
    "Rewriter",
    "VerifyFailure",
    "read_tasks",
    "render_markdown",
    "synthesize",
    "task_set_services",
    "verify_file",
]

MAX_INDEX_FACTOR = 5


class Rewriter(Protocol):
    """Rephrases a task's instruction, keeping the task only as its gates allow (see ``compoworld.agents.rewrite``)."""

    def rewrite(self, world: World, task: Task) -> Task:
        """Return the task with a new instruction, or unchanged."""
        ...


def read_tasks(path: str | Path) -> list[Task]:
    """Read every task of a ``tasks.jsonl`` file.

    Raises:
        ValueError: naming the line that is not a valid task.
    """
    tasks = []
    with Path(path).open() as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                tasks.append(Task.model_validate_json(line))
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not a valid task: {str(exc)[:300]}") from exc
    return tasks


def task_set_services(tasks_path: str | Path) -> list[str] | None:
    """The services a task set was synthesized over, from the ``stats.json`` beside it (None: all)."""
    stats = Path(tasks_path).parent / "stats.json"
    if not stats.exists():
        return None
    services = json.loads(stats.read_text()).get("services")
    return list(services) if services else None


def synthesize(
    out: str | Path,
    *,
    count: int,
    seed: int,
    world_seed: int = 0,
    config: SynthConfig | None = None,
    services: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    rewriter: Rewriter | None = None,
) -> dict[str, Any]:
    """Synthesize ``count`` tasks into ``out/tasks.jsonl`` (resuming if it exists) and write ``out/stats.json``.

    Args:
        out: Output directory.
        count: Tasks to keep.
        seed: Synthesis seed: the same seed gives byte-identical files.
        world_seed: Seed of the world.
        config: Synthesis knobs.
        services: Services to synthesize over (default: all).
        progress: Called with (kept, count) after each task.
        rewriter: Rephrases instructions through an LLM, each re-checked by the gates
            (files are then no longer byte-identical between runs).

    Returns:
        The statistics also written to ``stats.json``.
    """
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    tasks_path = out_dir / "tasks.jsonl"
    state_path = out_dir / "progress.json"
    config = config or SynthConfig()
    world = World.build(Catalog.load(services), seed=world_seed)
    synth = Synthesizer(world, ToolGraph.build(world.catalog), config)
    existing = recover(tasks_path, Task.model_validate_json)
    state: dict[str, Any] = json.loads(state_path.read_text()) if state_path.exists() else {}
    if existing and existing[0].world_version != world.version:
        raise ValueError(
            f"{tasks_path} was made in another world ({existing[0].world_version}, now {world.version}); "
            "use another --out directory"
        )
    seen = {solution_signature(t) for t in existing}
    rejected: Counter[str] = Counter(state.get("rejected", {}))
    next_index = max([state.get("next_index", 0)] + [t.index + 1 for t in existing])
    kept = len(existing)
    started = time.perf_counter()
    made_now = 0
    with tasks_path.open("a") as fh:
        index = next_index
        while kept < count and index < count * MAX_INDEX_FACTOR:
            reasons: dict[str, int] = {}
            task = synth.task_at(seed, index, seen, reasons)
            rejected.update(reasons)
            if task is not None and rewriter is not None:
                task = rewriter.rewrite(world, task)
            if task is not None:
                append_line(fh, task.model_dump_json())
                kept += 1
                made_now += 1
            index += 1
            write_json_atomic(state_path, {"next_index": index, "rejected": dict(rejected)})
            if progress is not None:
                progress(kept, count)
    elapsed = time.perf_counter() - started
    tasks = read_tasks(tasks_path)
    stats = {
        "kept": len(tasks),
        "requested": count,
        "seed": seed,
        "world_seed": world_seed,
        "world_version": world.version,
        "services": sorted(world.catalog.services) if services else None,
        "rejected": dict(sorted(rejected.items())),
        "length_histogram": dict(sorted(Counter(str(t.metadata["length"]) for t in tasks).items())),
        "services_histogram": dict(sorted(Counter(str(len(t.metadata["services"])) for t in tasks).items())),
        "mean_length": round(sum(t.metadata["length"] for t in tasks) / len(tasks), 3) if tasks else 0.0,
        "share_3plus_services": round(sum(len(t.metadata["services"]) >= 3 for t in tasks) / len(tasks), 4)
        if tasks
        else 0.0,
    }
    write_json_atomic(out_dir / "stats.json", stats)
    stats["tasks_per_s_this_run"] = round(made_now / elapsed, 2) if elapsed > 0 and made_now else 0.0
    return stats


def render_markdown(task: Task) -> str:
    """A task for a human reader: instruction, given facts, solution with provenance, criteria."""
    lines = [f"# Task {task.id}", ""]
    meta = task.metadata
    lines.append(
        f"{meta['length']} steps across {', '.join(meta['services'])}; {meta['writes']} write(s)"
        f"{'; fan-in' if meta.get('fan_in') else ''}; world seed {task.world_seed}, version {task.world_version}."
    )
    lines += ["", "## Instruction", "", task.instruction, "", "## Given facts", ""]
    lines += [f"- {k}: `{json.dumps(v, ensure_ascii=False)}`" for k, v in task.given.items()] or ["- (none)"]
    lines += ["", "## Oracle solution", ""]
    for i, step in enumerate(task.solution, start=1):
        lines.append(f"{i}. `{step.tool}`")
        for name, value in step.arguments.items():
            prov = step.provenance.get(name, {})
            where = {
                "given": "given",
                "literal": "stated",
                "step": f"from step {int(prov.get('step', 0)) + 1}, `{prov.get('field')}`",
            }.get(str(prov.get("kind")), "?")
            lines.append(f"   - `{name}` = `{json.dumps(value, ensure_ascii=False)}` ({where})")
    lines += ["", "## Criteria", "", "| id | kind | depends on | description |", "|---|---|---|---|"]
    for c in task.criteria:
        lines.append(f"| {c.id} | {c.kind} | {', '.join(c.depends_on) or '—'} | {c.description} |")
    lines += ["", f"Tools shown to the agent ({len(task.tools)}): " + ", ".join(f"`{t}`" for t in task.tools), ""]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class VerifyFailure:
    """A task that does not hold."""

    task_id: str
    reason: str


def verify_file(path: str | Path, services: list[str] | None = None) -> tuple[int, list[VerifyFailure]]:
    """Re-run every gate and criterion of every task in a file on a fresh world.

    Args:
        path: A ``tasks.jsonl`` file.
        services: Services to load (default: all).

    Returns:
        ``(tasks checked, failures)``.
    """
    tasks = read_tasks(path)
    catalog = Catalog.load(services)
    worlds: dict[int, World] = {}
    failures = []
    for task in tasks:
        world = worlds.get(task.world_seed)
        if world is None:
            world = worlds[task.world_seed] = World.build(catalog, seed=task.world_seed)
        if world.version != task.world_version:
            failures.append(VerifyFailure(task.id, f"world version {world.version} != task's {task.world_version}"))
            continue
        missing = [t for t in task.tools if t not in catalog.tools]
        if missing:
            failures.append(VerifyFailure(task.id, f"unknown tools {missing}"))
            continue
        reason = validate_task(world, task)
        if reason is not None:
            failures.append(VerifyFailure(task.id, reason))
    return len(tasks), failures
