"""Task sets on disk: the one task-file loader, resumable synthesis into ``tasks.jsonl``, re-verification.

Every reader of a task file (verify, render, rollouts, exports, adapters, the
servers) goes through :func:`read_tasks`, which refuses a file that is missing,
a directory, binary, not a task per line, empty or holding a task id twice,
with one :class:`TaskFileError` whose message is a single line.

``synthesize`` appends one task per line (flushed and fsynced), keeps a small
``progress.json`` next to it with the settings that determine the tasks, and
on restart repairs a torn last line and carries on from where it stopped:
killing it loses and duplicates nothing, and the result is byte-identical to
an uninterrupted run. It refuses to resume with other settings, and refuses a
file with a damaged complete line unless told to skip bad lines (see
:func:`synthesize`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from compoworld.engine.catalog import Catalog
from compoworld.engine.heap import settled
from compoworld.engine.jsonl import append_line, error_summary, repair, scan, write_json_atomic
from compoworld.tasks.audit import AuditReport, audit_tasks
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.parallel import Executor, IndexDraw
from compoworld.tasks.split import Split
from compoworld.tasks.synthesis import BY_PATTERN, SynthConfig, Synthesizer
from compoworld.tasks.task import Task, check_task_world, solution_signature
from compoworld.world.world import World

__all__ = [
    "Rewriter",
    "TaskFileError",
    "VerifyFailure",
    "VerifyWorker",
    "audit_file",
    "read_tasks",
    "render_markdown",
    "synthesis_settings",
    "synthesize",
    "task_set_services",
    "verify_file",
    "write_subset",
]

MAX_INDEX_FACTOR = 5
DRAWS_PER_CALL = 8
"""Synthesis indices an executor's worker draws per call."""


class Rewriter(Protocol):
    """Rephrases a task's instruction, keeping the task only as its gates allow (see ``compoworld.agents.rewrite``)."""

    def rewrite(self, world: World, task: Task) -> Task:
        """Return the task with a new instruction, or unchanged."""
        ...


class TaskFileError(ValueError):
    """A task file that cannot be used: missing, a directory, unreadable, not tasks, empty, or repeating a task id.

    The message is one line naming the file (and the line, where there is one) and what is wrong.
    """


def read_tasks(path: str | Path) -> list[Task]:
    """Read every task of a ``tasks.jsonl`` file: the one loader every reader of task files uses.

    Blank lines are skipped; anything else must be one task per line.

    Raises:
        TaskFileError: when the file is missing, a directory or unreadable, when a line is not UTF-8
            text or not a valid task, when two lines hold the same task id, or when it holds no task.
    """
    file = Path(path)
    if file.is_dir():
        inside = file / "tasks.jsonl"
        hint = f"; did you mean {inside}?" if inside.is_file() else ""
        raise TaskFileError(f"{file} is a directory, not a tasks.jsonl file{hint}")
    tasks: list[Task] = []
    lines: dict[str, int] = {}
    try:
        with file.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            for n, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                tasks.append(_task_line(file, n, raw))
                task_id = tasks[-1].id
                if task_id in lines:
                    raise TaskFileError(
                        f"{file}:{n}: task {task_id} is also on line {lines[task_id]}; a task file holds each task once"
                    )
                lines[task_id] = n
    except FileNotFoundError as exc:
        raise TaskFileError(f"{file} does not exist") from exc
    except OSError as exc:
        raise TaskFileError(f"cannot read {file}: {exc.strerror or exc}") from exc
    if not tasks:
        raise TaskFileError(f"{file} holds no tasks ({'it is empty' if size == 0 else 'only blank lines'})")
    return tasks


def _task_line(file: Path, n: int, raw: bytes) -> Task:
    if b"\0" in raw:
        raise TaskFileError(f"{file}:{n}: binary data, not a tasks.jsonl file")
    try:
        text = raw.decode()
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{file}:{n}: not UTF-8 text, not a tasks.jsonl file") from exc
    try:
        return Task.model_validate_json(text)
    except ValueError as exc:
        raise TaskFileError(f"{file}:{n}: not a valid task: {error_summary(exc)}") from exc


def task_set_services(tasks_path: str | Path) -> list[str] | None:
    """The services a task set was synthesized over, from the ``stats.json`` beside it (None: all).

    Raises:
        TaskFileError: when that ``stats.json`` is not a readable JSON object.
    """
    stats = Path(tasks_path).parent / "stats.json"
    if not stats.is_file():
        return None
    try:
        doc = json.loads(stats.read_bytes())
    except (OSError, ValueError) as exc:
        raise TaskFileError(f"cannot read the task set's {stats}: {error_summary(exc)}") from exc
    services = doc.get("services") if isinstance(doc, dict) else None
    if services is not None and not (isinstance(services, list) and all(isinstance(s, str) for s in services)):
        raise TaskFileError(f"{stats}: services must be a list of service names, not {services!r:.100}")
    return list(services) if services else None


def synthesis_settings(
    *,
    seed: int,
    world_seed: int,
    config: SynthConfig,
    services: list[str] | None,
    rewriter: Rewriter | None,
    split: Split | None = None,
) -> dict[str, Any]:
    """The settings that determine which tasks a synthesis writes (recorded in ``progress.json``).

    The task count is not one of them: a larger count extends the same set, a smaller one stops it early.
    """
    return {
        "seed": seed,
        "world_seed": world_seed,
        "services": list(dict.fromkeys(services)) if services else None,
        # A walk's focus is set per attempt (SynthConfig.cover), never in the task set's own walk settings.
        **{k: v for k, v in dataclasses.asdict(config.walk).items() if k not in ("focus", "focus_start")},
        "distractors": config.distractors,
        "attempts": config.attempts,
        # Named only when asked for, so that runs made before covering existed still resume.
        **({"cover": config.cover, "focused": config.focused} if config.cover else {}),
        # A rewriting model changes instructions; the endpoint serving it does not matter.
        "rewrite_model": None if rewriter is None else str(getattr(rewriter, "model", type(rewriter).__name__)),
        # Named only when asked for, so that runs made before patterns existed still resume.
        **({"patterns": list(config.patterns)} if config.patterns else {}),
        **(split.settings() if split else {}),
    }


def _read_progress(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(
            f"cannot read {path} ({error_summary(exc)}); delete it to resume from tasks.jsonl alone"
        ) from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("settings", {}), dict):
        raise ValueError(f"{path} is not a synthesis progress file; delete it to resume from tasks.jsonl alone")
    return doc


def _refuse_other_settings(out_dir: Path, before: dict[str, Any], now: dict[str, Any]) -> None:
    changed = [k for k in sorted(set(before) | set(now)) if before.get(k) != now.get(k)]
    if changed:
        differences = "; ".join(f"{k}: {before.get(k)!r} there, {now.get(k)!r} now" for k in changed)
        raise ValueError(
            f"{out_dir} holds tasks synthesized with other settings ({differences}); "
            "resume with the settings it was made with or use another --out directory"
        )


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
    skip_bad_lines: bool = False,
    split: Split | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Synthesize ``count`` tasks into ``out/tasks.jsonl`` (resuming if it exists) and write ``out/stats.json``.

    A resume keeps every valid line of ``tasks.jsonl`` byte for byte and repairs only a
    torn last line (one without its newline, left by a kill). It refuses a directory
    made with other settings (:func:`synthesis_settings`), naming what differs.

    A complete line that is not a valid task is damage no kill makes: the resume
    refuses (:class:`~compoworld.engine.jsonl.BadLines`, naming the line) and changes
    nothing. With ``skip_bad_lines`` the bad lines move to ``tasks.jsonl.bad`` with
    their line numbers and synthesis carries on after the last index it drew. The
    index a bad line held is not synthesized again (a damaged line cannot say which it
    was, and the set stays append-only), so later indices make up the count: the
    result is deterministic for the same damaged directory, but no longer the set an
    uninterrupted run makes; ``stats.json`` counts the ``skipped_lines``.

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
        skip_bad_lines: Move damaged lines of ``tasks.jsonl`` aside instead of refusing to resume.
        split: One side of a training/evaluation split (:class:`~compoworld.tasks.split.Split`): training
            leaves the held-out services out of the world; evaluation draws from indices
            :data:`~compoworld.tasks.split.EVAL_START` on and keeps only tasks touching a held-out service.
        executor: Draws indices on its workers (see :mod:`compoworld.tasks.parallel`); the files are the
            same, byte for byte, as without one.

    Returns:
        The statistics also written to ``stats.json``, plus ``tasks_per_s_this_run``,
        ``skipped_lines_this_run`` and, when lines were moved, ``bad_lines_file``.

    Raises:
        ValueError: when ``out`` was made with other settings or in another world.
        BadLines: when ``tasks.jsonl`` has damaged lines and ``skip_bad_lines`` is false.
        TaskFileError: when ``tasks.jsonl`` holds a task id twice.
    """
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    tasks_path = out_dir / "tasks.jsonl"
    state_path = out_dir / "progress.json"
    config = config or SynthConfig()
    settings = synthesis_settings(
        seed=seed, world_seed=world_seed, config=config, services=services, rewriter=rewriter, split=split
    )
    start = split.start if split else 0
    last = split.last_index(count, MAX_INDEX_FACTOR) if split else count * MAX_INDEX_FACTOR
    if split:
        services = split.services(services)
    state = _read_progress(state_path)
    if "settings" in state:
        _refuse_other_settings(out_dir, state["settings"], settings)
    world = World.build(Catalog.load(services), seed=world_seed)
    synth = Synthesizer(world, ToolGraph.build(world.catalog), config)
    found = scan(tasks_path, Task.model_validate_json)
    existing = found.records
    # Directories made before settings were recorded still name their seed in every task.
    if existing and "settings" not in state and existing[0].seed != seed:
        _refuse_other_settings(out_dir, {"seed": existing[0].seed}, {"seed": seed})
    if existing and existing[0].world_version != world.version:
        raise ValueError(
            f"{tasks_path} was made in another world ({existing[0].world_version}, now {world.version}); "
            "use another --out directory"
        )
    ids = Counter(t.id for t in existing)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        raise TaskFileError(f"{tasks_path}: task {twice[0]} is there more than once; a task file holds each task once")
    repair(found, skip_bad=skip_bad_lines)
    skipped = int(state.get("skipped_lines", 0)) + len(found.bad)
    seen = {solution_signature(t) for t in existing}
    rejected: Counter[str] = Counter(state.get("rejected", {}))
    next_index = max([int(state.get("next_index", start))] + [t.index + 1 for t in existing])
    tasks = list(existing)

    def save(index: int) -> None:
        write_json_atomic(
            state_path,
            {"next_index": index, "rejected": dict(rejected), "settings": settings, "skipped_lines": skipped},
        )

    # The settings are on disk before the first new line is, so a kill at any point leaves them checkable.
    save(next_index)
    started = time.perf_counter()
    made_now = 0
    draws = _draws(executor, seed, world_seed, config, services, next_index, last)
    with settled(), tasks_path.open("a") as fh:
        index = next_index
        while len(tasks) < count and index < last:
            reasons: dict[str, int] = {}
            line: str | None = None
            draw = next(draws) if draws is not None else None
            if draw is not None and draw.valid_for(seen):
                # What a worker drew is what this process would draw: nothing it asked about was kept since.
                reasons = dict(draw.rejected)
                seen.update(draw.kept)
                line = draw.task_json
                task = None if line is None else Task.model_validate_json(line)
            else:
                task = synth.task_at(seed, index, seen, reasons)
            rejected.update(reasons)
            if task is not None and split is not None and not split.keeps(task):
                rejected["split:no_holdout_service"] += 1
                task = None
            if task is not None and rewriter is not None:
                task, line = rewriter.rewrite(world, task), None
            if task is not None:
                append_line(fh, line if line is not None else task.model_dump_json())
                tasks.append(task)
                made_now += 1
            index += 1
            save(index)
            if progress is not None:
                progress(len(tasks), count)
    if draws is not None:
        draws.close()
    elapsed = time.perf_counter() - started
    stats = {
        "kept": len(tasks),
        "requested": count,
        "seed": seed,
        "world_seed": world_seed,
        "world_version": world.version,
        "services": sorted(world.catalog.services) if services else None,
        **(split.settings() if split else {}),
        "rejected": {k: v for k, v in sorted(rejected.items()) if not k.startswith(BY_PATTERN)},
        "pattern_rejections": _by_pattern(rejected),
        "length_histogram": dict(sorted(Counter(str(t.metadata["length"]) for t in tasks).items())),
        "services_histogram": dict(sorted(Counter(str(len(t.metadata["services"])) for t in tasks).items())),
        "mean_length": round(sum(t.metadata["length"] for t in tasks) / len(tasks), 3) if tasks else 0.0,
        "share_3plus_services": round(sum(len(t.metadata["services"]) >= 3 for t in tasks) / len(tasks), 4)
        if tasks
        else 0.0,
        "patterns_histogram": dict(sorted(Counter(p for t in tasks for p in t.patterns).items())),
        "share_2plus_patterns": round(sum(len(t.patterns) >= 2 for t in tasks) / len(tasks), 4) if tasks else 0.0,
        "skipped_lines": skipped,
        "audit": audit_tasks(world, tasks).to_dict(),
    }
    write_json_atomic(out_dir / "stats.json", stats)
    stats["tasks_per_s_this_run"] = round(made_now / elapsed, 2) if elapsed > 0 and made_now else 0.0
    stats["skipped_lines_this_run"] = len(found.bad)
    if found.moved_to is not None:
        stats["bad_lines_file"] = str(found.moved_to)
    return stats


def _draws(
    executor: Executor | None,
    seed: int,
    world_seed: int,
    config: SynthConfig,
    services: list[str] | None,
    start: int,
    last: int,
) -> Generator[IndexDraw, None, None] | None:
    """The executor's draws of indices ``start..last-1``, in order (None without an executor)."""
    if executor is None:
        return None
    init = {"seed": seed, "world_seed": world_seed, "config": config, "services": services}
    # A few indices per call: one round trip per index would cost the driver as much as a draw.
    spans = (range(i, min(i + DRAWS_PER_CALL, last)) for i in range(start, last, DRAWS_PER_CALL))
    return _flat(executor.imap("compoworld.tasks.parallel:SynthWorker", init, "draw_many", spans))


def _flat(parts: Generator[list[IndexDraw], None, None]) -> Generator[IndexDraw, None, None]:
    """The draws of each call in turn; closing it releases the executor's pending calls."""
    try:
        for part in parts:
            yield from part
    finally:
        parts.close()


def _by_pattern(rejected: Counter[str]) -> dict[str, dict[str, int]]:
    """Rejections of patterned walks by pattern: ``{"decoys": {"shortcut:every_match": 3}}``."""
    out: dict[str, dict[str, int]] = {}
    for key, n in sorted(rejected.items()):
        if key.startswith(BY_PATTERN):
            pattern, _, reason = key.removeprefix(BY_PATTERN).partition(":")
            out.setdefault(pattern, {})[reason] = n
    return out


def _provenance_text(prov: dict[str, Any]) -> str:
    """Where an argument came from, in words (see :class:`~compoworld.tasks.walk.Provenance`)."""
    kind = str(prov.get("kind"))
    if kind == "given":
        return "given"
    if kind == "literal":
        return "stated"
    if kind == "compose":
        facts = [f"step {int(p['step']) + 1} `{p['field']}`" for p in prov.get("parts", [])]
        if prov.get("transform") and prov.get("step") is not None:
            facts.append(f"{prov['transform']} of step {int(prov['step']) + 1}")
        return f"a text carrying the facts of {', '.join(facts)}"
    source = f"step {int(prov.get('step', 0)) + 1}, `{prov.get('field')}`"
    if kind == "derived":
        params = ", ".join(f"{k} {v}" for k, v in prov.get("params", {}).items())
        return f"{prov.get('transform')}{f' ({params})' if params else ''} of {source}"
    return f"from {source}" if kind == "step" else "?"


def render_markdown(task: Task) -> str:
    """A task for a human reader: trigger, instruction, given facts, plan, solution with provenance, criteria."""
    lines = [f"# Task {task.id}", ""]
    meta = task.metadata
    lines.append(
        f"{meta['length']} steps across {', '.join(meta['services'])}; {meta['writes']} write(s)"
        f"{'; fan-in' if meta.get('fan_in') else ''}; world seed {task.world_seed}, version {task.world_version}."
    )
    if task.patterns:
        lines += ["", f"Difficulty patterns: {', '.join(task.patterns)}."]
    if task.setup:
        title = "Setup (made before the agent starts: what the patterns plant, then the trigger)"
        lines += ["", f"## {title if task.patterns else 'Trigger (the setup makes it before the agent starts)'}", ""]
        lines += [f"- `{s.tool}` {json.dumps(s.arguments, ensure_ascii=False)}" for s in task.setup]
    lines += ["", "## Instruction (what the agent sees)", "", task.instruction, "", "## Given facts", ""]
    lines += [f"- {k}: `{json.dumps(v, ensure_ascii=False)}`" for k, v in task.given.items()] or ["- (none)"]
    if task.plan:
        lines += ["", "## Plan (never shown to the agent)", "", *task.plan]
    lines += ["", "## Oracle solution", ""]
    for i, step in enumerate(task.solution, start=1):
        lines.append(f"{i}. `{step.tool}`")
        for name, value in step.arguments.items():
            where = _provenance_text(step.provenance.get(name, {}))
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


def verify_file(
    path: str | Path, services: list[str] | None = None, *, executor: Executor | None = None, chunk: int = 16
) -> tuple[int, list[VerifyFailure]]:
    """Re-run every gate and criterion of every task in a file on a fresh world.

    Args:
        path: A ``tasks.jsonl`` file.
        services: Services to load (default: those the task set's ``stats.json`` names, else all).
        executor: Checks chunks of tasks on its workers (each builds the worlds once); the failures are
            the same, in the same order.
        chunk: Tasks per item given to a worker.

    Returns:
        ``(tasks checked, failures)``.
    """
    tasks = read_tasks(path)
    if services is None:
        # A set made over some services lives in their world, not the whole catalog's.
        services = task_set_services(path)
    if executor is None:
        found = VerifyWorker(path=str(path), services=services).check(range(len(tasks)))
    else:
        init = {"path": str(path), "services": services}
        spans = [range(i, min(i + chunk, len(tasks))) for i in range(0, len(tasks), chunk)]
        found = [
            f for part in executor.imap("compoworld.tasks.taskset:VerifyWorker", init, "check", spans) for f in part
        ]
    return len(tasks), [VerifyFailure(task_id, reason) for task_id, reason in found]


class VerifyWorker:
    """Checks tasks of a file in worlds built once (what each executor worker holds).

    Args:
        path: The ``tasks.jsonl`` file.
        services: Services to load (default: all).
    """

    def __init__(self, *, path: str, services: list[str] | None = None) -> None:
        self.tasks = read_tasks(path)
        self.catalog = Catalog.load(services)
        self.worlds = {s: World.build(self.catalog, seed=s) for s in sorted({t.world_seed for t in self.tasks})}

    def check(self, indices: Iterable[int]) -> list[tuple[str, str]]:
        """``(task id, reason)`` for each task among ``indices`` that does not hold, in order."""
        failures: list[tuple[str, str]] = []
        with settled():
            for i in indices:
                task = self.tasks[i]
                world = self.worlds[task.world_seed]
                if world.version != task.world_version:
                    failures.append((task.id, f"world version {world.version} != task's {task.world_version}"))
                    continue
                missing = [t for t in task.tools if t not in self.catalog.tools]
                if missing:
                    failures.append((task.id, f"unknown tools {missing}"))
                    continue
                reason = validate_task(world, task)
                if reason is not None:
                    failures.append((task.id, reason))
        return failures


def audit_file(path: str | Path, services: list[str] | None = None) -> AuditReport:
    """Audit a ``tasks.jsonl`` file in the worlds its tasks were made in.

    Args:
        path: The file.
        services: The services of the task set's world (default: those its ``stats.json`` names, else all).

    Raises:
        TaskFileError: when the file cannot be read as tasks.
        ValueError: when the services do not rebuild a task's world.
    """
    tasks = read_tasks(path)
    chosen = list(services) if services else task_set_services(path)
    catalog = Catalog.load(chosen)
    worlds: dict[int, World] = {}

    def world_of(task: Task) -> World:
        if task.world_seed not in worlds:
            worlds[task.world_seed] = World.build(catalog, seed=task.world_seed)
        world = worlds[task.world_seed]
        check_task_world(world, task)
        return world

    return audit_tasks(world_of, tasks)


def write_subset(tasks_dir: Path, out: Path, *, start: int, count: int) -> Path:
    """Write tasks ``start .. start + count`` of the task set in ``tasks_dir`` as a task set of its own.

    Its ``stats.json`` is the whole set's, so that readers rebuild the same world (its services).

    Returns:
        The new ``tasks.jsonl``.
    """
    out.mkdir(parents=True, exist_ok=True)
    tasks = read_tasks(tasks_dir / "tasks.jsonl")[start : start + count]
    path = out / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    shutil.copy(tasks_dir / "stats.json", out / "stats.json")
    return path
