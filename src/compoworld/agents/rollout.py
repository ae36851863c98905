"""Rollouts: run a policy on tasks, many episodes at once, into a resumable trajectory file.

One episode runs a conversation: the policy's turn, the calls it asks for
(malformed ones become errors the agent reads), ``tool`` messages with the
results, until a final answer or the turn limit; then every criterion of the
task is checked on the final state. Each finished episode is one line of
``trajectories.jsonl``, appended and fsynced, so a run killed midway resumes
where it stopped with nothing lost or duplicated: a trajectory is keyed by
task id and rollout index.

Each episode plays its task through a
:class:`~compoworld.agents.session.TaskSession`, as the trainer adapters and
the servers do; episodes of one run share one world per world seed. With
``RolloutConfig(discovery=True)`` the agent is given the discovery mode's two
meta-tools (``search_tools``, ``call_tool``; see :mod:`compoworld.agents.discovery`)
instead of its task's tools, and every search and call is recorded like any call.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from compoworld.agents.chat import (
    assistant_message,
    initial_messages,
    parse_tool_calls,
    tool_message,
)
from compoworld.agents.discovery import CALL_TOOL, call_target, require_discovery
from compoworld.agents.policies import Policy, PolicyUnavailable, TurnInput
from compoworld.agents.session import TaskSession, WorldCache
from compoworld.engine.jsonl import append_line, recover, write_json_atomic
from compoworld.engine.registration import registered
from compoworld.tasks.criteria import Verdict
from compoworld.tasks.parallel import Executor
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, task_set_services
from compoworld.world.world import World

__all__ = [
    "CallRecord",
    "RolloutConfig",
    "RolloutWorker",
    "RunResult",
    "Trajectory",
    "load_task_worlds",
    "read_trajectories",
    "run_episode",
    "run_rollouts",
    "run_services",
]

TRAJECTORIES = "trajectories.jsonl"
RUN_INFO = "run.json"
Stop = Literal["answer", "turn_limit", "timeout", "policy_error"]


class CallRecord(BaseModel):
    """One tool call of an episode and what came of it."""

    model_config = ConfigDict(extra="forbid")

    turn: int = Field(description="The assistant turn that asked for the call.")
    id: str = Field(description="The call id.")
    tool: str = Field(description="The tool name as the model wrote it.")
    arguments: str = Field(description="The arguments as the model wrote them (JSON text).")
    ok: bool = Field(description="Whether the call succeeded.")
    target: str | None = Field(
        default=None, description="For a discovery mode `call_tool` call: the catalog tool it names."
    )
    result: Any = Field(default=None, description="The result, when ok.")
    error: dict[str, Any] | None = Field(default=None, description="The structured error, when not ok.")
    ms: float = Field(description="Milliseconds the environment took.")


class Trajectory(BaseModel):
    """One episode: the conversation, every call, the final state's diff and the rubric verdicts."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    task_index: int
    rollout: int = Field(description="Index within the task's group of rollouts.")
    policy: str
    seed: int = Field(description="The run seed the episode's randomness derives from.")
    instruction: str
    metadata: dict[str, Any] = Field(description="The task's metadata (services, length, ...).")
    tools: list[str] = Field(description="Tools the agent was shown.")
    discovery: bool = Field(
        default=False,
        description="Discovery mode: the agent was shown search_tools and call_tool, not the task's tools.",
    )
    messages: list[dict[str, Any]] = Field(description="The conversation (OpenAI format).")
    calls: list[CallRecord]
    answer: str | None = Field(description="The final answer; None when the episode ended without one.")
    stop: Stop
    stop_detail: str = ""
    turns: int
    diff: dict[str, Any] = Field(description="The state diff of the episode (StateDiff.to_dict).")
    verdicts: list[Verdict]
    success: bool = Field(description="Every criterion passed.")
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    wall_s: float
    policy_s: float
    env_s: float

    @property
    def key(self) -> tuple[str, int]:
        """``(task_id, rollout)``: what identifies a trajectory within a run."""
        return self.task_id, self.rollout


@dataclass(frozen=True, slots=True)
class RolloutConfig:
    """Knobs of a rollout run.

    Attributes:
        group_size: Rollouts per task (a GRPO group).
        concurrency: Episodes in flight at once.
        max_turns: Assistant turns per episode before it is cut off.
        turn_timeout_s: Seconds a policy may take for one turn.
        seed: Run seed: each episode's randomness derives from it, the task and the rollout index.
        discovery: Tool discovery mode: the agent is given ``search_tools`` (over every tool of
            the world's catalog) and ``call_tool`` instead of the task's tools.
    """

    group_size: int = 1
    concurrency: int = 8
    # Patterned tasks take up to twenty-odd calls, and a discovery-mode agent searches before most of them.
    max_turns: int = 50
    turn_timeout_s: float = 300.0
    seed: int = 0
    discovery: bool = False


async def run_episode(world: World, task: Task, policy: Policy, *, rollout: int, config: RolloutConfig) -> Trajectory:
    """Run one episode of a task with a policy.

    Malformed model output never raises: a bad block, an unknown tool or
    arguments that do not validate become ``tool`` messages with a structured
    error, and a turn that takes too long ends the episode as ``timeout``.

    Args:
        world: The task's world.
        task: The task.
        policy: The policy.
        rollout: The rollout index within the task's group.
        config: Turn limit, timeout and seed.

    Returns:
        The trajectory, scored against the task's criteria.

    Raises:
        PolicyUnavailable: when the policy cannot answer for reasons outside the agent.
    """
    started = time.perf_counter()
    session = TaskSession(task, world=world, discovery=config.discovery)
    tools = session.tool_specs(policy.tool_detail)
    messages = initial_messages(task)
    rng = random.Random(f"{config.seed}:{task.id}:{rollout}")
    calls: list[CallRecord] = []
    answer: str | None = None
    stop: Stop = "turn_limit"
    detail = ""
    policy_s = env_s = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    turn = 0
    for turn in range(config.max_turns):
        t0 = time.perf_counter()
        inp = TurnInput(task, list(messages), tools, turn, rollout, rng, world)
        try:
            out = await asyncio.wait_for(policy.act(inp), timeout=config.turn_timeout_s)
        except TimeoutError:
            stop, detail = "timeout", f"turn {turn} took more than {config.turn_timeout_s} s"
            policy_s += time.perf_counter() - t0
            break
        policy_s += time.perf_counter() - t0
        if out.prompt_tokens is not None:
            prompt_tokens = (prompt_tokens or 0) + out.prompt_tokens
        if out.completion_tokens is not None:
            completion_tokens = (completion_tokens or 0) + out.completion_tokens
        if out.error is not None:
            stop, detail = "policy_error", out.error
            break
        prose, requests = parse_tool_calls(out.message, turn)
        messages.append(assistant_message(prose, requests))
        if not requests:
            answer, stop = prose, "answer"
            break
        for req in requests:
            t1 = time.perf_counter()
            outcome = session.request(req)
            ms = (time.perf_counter() - t1) * 1000
            env_s += ms / 1000
            messages.append(tool_message(req, outcome))
            calls.append(
                CallRecord(
                    turn=turn,
                    id=req.id,
                    tool=req.name,
                    arguments=req.arguments,
                    ok=bool(outcome["ok"]),
                    target=call_target(req.arguments) if session.discovery and req.name == CALL_TOOL else None,
                    result=outcome.get("result"),
                    error=outcome.get("error"),
                    ms=round(ms, 3),
                )
            )
    verdicts = session.verdicts(answer or "")
    return Trajectory(
        task_id=task.id,
        task_index=task.index,
        rollout=rollout,
        policy=policy.name,
        seed=config.seed,
        instruction=task.instruction,
        metadata=task.metadata,
        tools=session.tools,
        discovery=session.discovery,
        messages=messages,
        calls=calls,
        answer=answer,
        stop=stop,
        stop_detail=detail,
        turns=turn + 1,
        diff=session.episode.diff(session.base).to_dict(),
        verdicts=verdicts,
        success=all(v.passed for v in verdicts),
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        wall_s=round(time.perf_counter() - started, 4),
        policy_s=round(policy_s, 4),
        env_s=round(env_s, 4),
    )


def load_task_worlds(
    tasks: list[Task], services: list[str] | None = None, tasks_path: Path | None = None
) -> dict[int, World]:
    """Build the world of every world seed the tasks use, and check each is the world they were made in.

    Args:
        tasks: The tasks.
        services: Services to load; by default those named in the task set's
            ``stats.json`` (next to ``tasks_path``), else all.
        tasks_path: The task file, to find its ``stats.json``.

    Raises:
        ValueError: when a world differs from the one a task was made in.
    """
    if services is None and tasks_path is not None:
        services = task_set_services(tasks_path)
    names = services or list(registered())
    cache = WorldCache()
    return {task.world_seed: cache.world_for(task, names) for task in tasks}


def run_services(run_dir: str | Path) -> list[str] | None:
    """The services of a run's task set (None: all), found through the run's ``run.json``."""
    info = Path(run_dir) / RUN_INFO
    if not info.exists():
        return None
    return task_set_services(json.loads(info.read_text())["tasks_path"])


def read_trajectories(run_dir: str | Path) -> list[Trajectory]:
    """Every complete trajectory of a run directory, ordered by task index and rollout."""
    path = Path(run_dir) / TRAJECTORIES
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `compoworld rollout --out {run_dir}` first")
    out = []
    with path.open() as fh:
        for n, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    out.append(Trajectory.model_validate_json(line))
                except ValueError as exc:
                    raise ValueError(f"{path}:{n}: not a valid trajectory: {str(exc)[:300]}") from exc
    return sorted(out, key=lambda t: (t.task_index, t.rollout))


@dataclass(slots=True)
class RunResult:
    """What a call of :func:`run_rollouts` did.

    Attributes:
        total: Trajectories the run asks for (tasks × group size).
        done_before: Trajectories already in the file when the call started.
        done_now: Trajectories this call added.
        failures: ``(task id, rollout, why)`` for episodes that could not run
            (an endpoint down); they are not recorded, so the next call retries them.
        out: The trajectory file.
        elapsed_s: Seconds this call took.
        skipped_lines: Damaged lines this call moved out of the trajectory file (their episodes run again).
        bad_lines_file: Where they went, when there were any.
    """

    total: int
    done_before: int
    done_now: int
    failures: list[tuple[str, int, str]] = field(default_factory=list)
    out: Path = Path()
    elapsed_s: float = 0.0
    skipped_lines: int = 0
    bad_lines_file: Path | None = None

    @property
    def complete(self) -> bool:
        """Whether every trajectory of the run is in the file."""
        return self.done_before + self.done_now == self.total


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# Settings added after runs were written: a run.json without one had this value.
_INFO_DEFAULTS: dict[str, Any] = {"discovery": False}


def _check_run_info(out_dir: Path, info: dict[str, Any]) -> None:
    path = out_dir / RUN_INFO
    if path.exists():
        old = json.loads(path.read_text())
        changed = [k for k in info if k != "tasks_path" and old.get(k, _INFO_DEFAULTS.get(k)) != info[k]]
        if changed:
            raise ValueError(
                f"{out_dir} holds a run with other settings ({', '.join(f'{k}: {old.get(k)!r}' for k in changed)}); "
                "resume it with the same settings or use another --out directory"
            )
    write_json_atomic(path, info)


async def _run_async(
    worlds: dict[int, World],
    policy: Policy,
    pending: list[tuple[Task, int]],
    config: RolloutConfig,
    path: Path,
    progress: Callable[[int], None] | None,
    result: RunResult,
) -> None:
    queue: asyncio.Queue[tuple[Task, int]] = asyncio.Queue()
    for item in pending:
        queue.put_nowait(item)
    # A dead endpoint fails every episode: stop scheduling after this many failures in a row.
    give_up_after = max(8, 2 * config.concurrency)
    streak = 0
    with path.open("a") as fh:

        async def worker() -> None:
            nonlocal streak
            while not queue.empty() and streak < give_up_after:
                task, rollout = queue.get_nowait()
                try:
                    traj = await run_episode(worlds[task.world_seed], task, policy, rollout=rollout, config=config)
                except PolicyUnavailable as exc:
                    streak += 1
                    result.failures.append((task.id, rollout, str(exc)))
                    continue
                streak = 0
                append_line(fh, traj.model_dump_json())
                result.done_now += 1
                if progress is not None:
                    progress(1)

        try:
            await asyncio.gather(*(worker() for _ in range(max(1, config.concurrency))))
        finally:
            await policy.aclose()


class RolloutWorker:
    """Runs batches of episodes in worlds built once: what each executor worker (a Ray actor) holds.

    Args:
        tasks_path: The task file.
        limit: Use only the first ``limit`` tasks.
        services: Services of the tasks' world (default: from the task set's stats.json).
        policy: :func:`~compoworld.agents.factory.make_policy`'s arguments, ``spec`` included.
        config: The run's knobs; ``concurrency`` episodes of a batch run at once.
    """

    def __init__(
        self,
        *,
        tasks_path: str,
        limit: int | None,
        services: list[str] | None,
        policy: dict[str, Any],
        config: RolloutConfig,
    ) -> None:
        from compoworld.agents.factory import make_policy

        tasks = read_tasks(tasks_path)[:limit]
        self.tasks = {t.id: t for t in tasks}
        self.worlds = load_task_worlds(tasks, services, Path(tasks_path))
        self.policy = make_policy(**policy)
        self.config = config
        # One loop for the worker's life: an endpoint's client belongs to the loop it was first used on.
        self.loop = asyncio.new_event_loop()

    def run(self, batch: list[tuple[str, int]]) -> list[tuple[str, int, str | None, str]]:
        """Run a batch of (task id, rollout) episodes, ``concurrency`` at a time.

        Args:
            batch: The episodes.

        Returns:
            ``(task id, rollout, trajectory line or None, error)`` per episode, in batch order.
        """
        gate = asyncio.Semaphore(max(1, self.config.concurrency))

        async def one(task_id: str, rollout: int) -> tuple[str, int, str | None, str]:
            task = self.tasks[task_id]
            async with gate:
                try:
                    traj = await run_episode(
                        self.worlds[task.world_seed], task, self.policy, rollout=rollout, config=self.config
                    )
                except PolicyUnavailable as exc:
                    return task_id, rollout, None, str(exc)
            return task_id, rollout, traj.model_dump_json(), ""

        async def every() -> list[tuple[str, int, str | None, str]]:
            return list(await asyncio.gather(*(one(t, r) for t, r in batch)))

        return self.loop.run_until_complete(every())


def _run_on_executor(
    executor: Executor,
    init: dict[str, Any],
    pending: list[tuple[Task, int]],
    config: RolloutConfig,
    path: Path,
    progress: Callable[[int], None] | None,
    result: RunResult,
) -> None:
    """Episodes in batches on the executor's workers; each (task, rollout) is written once, as batches return."""
    size = max(1, config.concurrency)
    keys = [(t.id, r) for t, r in pending]
    batches = [keys[i : i + size] for i in range(0, len(keys), size)]
    give_up_after = max(8, 2 * config.concurrency)
    streak = 0
    written: set[tuple[str, int]] = set()
    draws = executor.imap("compoworld.agents.rollout:RolloutWorker", init, "run", batches)
    with path.open("a") as fh:
        try:
            for done in draws:
                for task_id, rollout, line, error in done:
                    if line is None:
                        streak += 1
                        result.failures.append((task_id, rollout, error))
                        continue
                    streak = 0
                    if (task_id, rollout) in written:
                        continue  # a batch given to another worker after its first one died: written once
                    append_line(fh, line)
                    written.add((task_id, rollout))
                    result.done_now += 1
                    if progress is not None:
                        progress(1)
                if streak >= give_up_after:
                    break  # a dead endpoint fails every episode: stop scheduling
        finally:
            draws.close()


def run_rollouts(
    tasks_path: str | Path,
    policy: Policy,
    out_dir: str | Path,
    config: RolloutConfig | None = None,
    *,
    services: list[str] | None = None,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int, int], None] | None = None,
    skip_bad_lines: bool = False,
    executor: Executor | None = None,
    policy_spec: dict[str, Any] | None = None,
) -> RunResult:
    """Roll out a policy on every task of a file, ``group_size`` times each, resuming a previous run.

    A resume keeps every valid line of ``trajectories.jsonl`` byte for byte and repairs
    only a torn last line (one without its newline, left by a kill). A complete line
    that is not a valid trajectory makes it refuse, changing nothing, unless
    ``skip_bad_lines``: then such lines move to ``trajectories.jsonl.bad`` with their
    line numbers, and the episodes they held run again (each key is in the file once).

    Args:
        tasks_path: A ``tasks.jsonl`` file.
        policy: The policy.
        out_dir: The run directory (``trajectories.jsonl``, ``run.json``).
        config: Group size, concurrency, turn limit, timeout and seed.
        services: Services of the tasks' world (default: from the task set's stats.json).
        limit: Use only the first ``limit`` tasks.
        progress: Called with 1 after each finished trajectory.
        on_start: Called with ``(total, already done)`` before the first episode.
        skip_bad_lines: Move damaged lines of the trajectory file aside instead of refusing to resume.
        executor: Runs the episodes on its workers (Ray actors), ``concurrency`` at once on each; each
            worker builds the policy from ``policy_spec``. A worker lost mid-run has its episodes run
            elsewhere; each (task, rollout) is written once.
        policy_spec: With an executor: :func:`~compoworld.agents.factory.make_policy`'s arguments.

    Returns:
        What this call did.

    Raises:
        TaskFileError: when the task file cannot be used (see :func:`~compoworld.tasks.taskset.read_tasks`).
        BadLines: when the trajectory file has damaged lines and ``skip_bad_lines`` is false.
        ValueError: when ``out_dir`` holds a run with other settings, or the tasks'
            world cannot be rebuilt.
        DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.
    """
    started = time.perf_counter()
    config = config or RolloutConfig()
    if config.discovery:
        require_discovery()
    tasks_file = Path(tasks_path)
    out = Path(out_dir)
    tasks = read_tasks(tasks_file)[:limit]
    out.mkdir(parents=True, exist_ok=True)
    info = {
        "tasks_path": str(tasks_file.resolve()),
        "tasks_sha256": _sha256(tasks_file),
        "limit": limit,
        "policy": policy.name,
        "group_size": config.group_size,
        "max_turns": config.max_turns,
        "seed": config.seed,
        "discovery": config.discovery,
    }
    _check_run_info(out, info)
    worlds = load_task_worlds(tasks, services, tasks_file)
    path = out / TRAJECTORIES
    found = recover(path, Trajectory.model_validate_json, skip_bad=skip_bad_lines)
    done = {t.key for t in found.records}
    pending = [(t, r) for t in tasks for r in range(config.group_size) if (t.id, r) not in done]
    result = RunResult(
        total=len(tasks) * config.group_size,
        done_before=len(done),
        done_now=0,
        out=path,
        skipped_lines=len(found.bad),
        bad_lines_file=found.moved_to,
    )
    if on_start is not None:
        on_start(result.total, len(done))
    if executor is not None:
        if policy_spec is None:
            raise ValueError("an executor builds the policy in each worker: give policy_spec (make_policy's arguments)")
        init = {
            "tasks_path": str(tasks_file),
            "limit": limit,
            "services": services,
            "policy": policy_spec,
            "config": config,
        }
        _run_on_executor(executor, init, pending, config, path, progress, result)
    else:
        asyncio.run(_run_async(worlds, policy, pending, config, path, progress, result))
    result.elapsed_s = time.perf_counter() - started
    return result
