"""The task session: one task, one episode, its tools and its rubric, for every consumer of a task.

Rollouts, the trainer adapters (TRL, verl, Gymnasium) and both servers play a
task through a :class:`TaskSession`, so a call behaves the same wherever it is
made: only the task's tools may be called, a malformed call becomes a
structured error the agent reads, open-world calls replay the task's recording
(:func:`task_world_model` decides the fallback for calls the oracle never
made), and the final state is checked against the task's criteria.

In discovery mode (``discovery=True``, see :mod:`compoworld.agents.discovery`)
the agent is given two meta-tools instead of the task's list:
``search_tools`` over every tool of the world's catalog and ``call_tool``,
which runs any of them on the episode exactly as a direct call would.

Worlds are immutable and shared: a :class:`WorldCache` builds one catalog per
service set and one world per ``(services, world seed)``, and every episode is
a copy-on-write view of it. The services of a task's world are, in order of
preference: the ones given (the task set's, e.g. from its ``stats.json``),
checked against the task's world version; else the services of the task's own
tools, accepted when they rebuild the task's exact world or, failing that,
when the task's oracle solution still meets every criterion on them (a world
in which the task is proven solvable).
"""

from __future__ import annotations

import difflib
import json
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from compoworld.agents.chat import ToolCallRequest, ToolDetail, task_tools
from compoworld.agents.discovery import (
    CALL_TOOL,
    DEFAULT_TOP_K,
    META_TOOLS,
    SEARCH_TOOLS,
    ToolIndex,
    meta_tool_specs,
    parse_call_arguments,
    parse_search_arguments,
    unknown_tool_error,
)
from compoworld.engine.catalog import Catalog
from compoworld.engine.episode import Episode, Snapshot
from compoworld.engine.errors import ToolError
from compoworld.engine.openworld import DEFAULT_WORLD_MODEL, ReplayWorldModel, WorldModel
from compoworld.engine.runtime import CallResult
from compoworld.engine.state import WorldState
from compoworld.tasks.criteria import Verdict, check_criteria
from compoworld.tasks.replay import SetupError, apply_setup
from compoworld.tasks.rewards import RewardConfig, score_batch
from compoworld.tasks.task import Task, check_task_world, task_answer
from compoworld.world.world import World

__all__ = [
    "DEFAULT_WORLDS",
    "TaskSession",
    "WorldCache",
    "load_task",
    "task_services",
    "task_world_model",
]


@lru_cache(maxsize=2048)
def _task_from_json(text: str) -> Task:
    return Task.model_validate_json(text)


def load_task(task: Task | str | bytes | Mapping[str, Any]) -> Task:
    """A task from itself, its JSON text or its JSON data (parsed JSON is cached: rows repeat).

    Raises:
        ValueError: when the data is not a valid task.
    """
    if isinstance(task, Task):
        return task
    if isinstance(task, bytes):
        task = task.decode()
    if isinstance(task, str):
        return _task_from_json(task)
    return Task.model_validate(dict(task))


def task_services(task: Task) -> list[str]:
    """The services a task touches: those of its tools (solution and distractors) and its metadata's."""
    names = {t.split("__", 1)[0] for t in task.tools}
    names.update(str(s) for s in task.metadata.get("services", []))
    return sorted(names)


def task_world_model(task: Task, fallback: WorldModel | None = None) -> WorldModel:
    """Where a task's open-world answers come from: its recording, then ``fallback`` for calls the oracle never made.

    Args:
        task: The task.
        fallback: Answers unrecorded calls (default: the deterministic, offline synthetic model).
    """
    return ReplayWorldModel(task.recording, fallback=fallback or DEFAULT_WORLD_MODEL)


class WorldCache:
    """Catalogs and worlds shared by sessions, built once per process and thread-safe.

    Worlds are immutable (an episode writes only to its own overlay), so every
    session of a process may share one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._catalogs: dict[tuple[str, ...], Catalog] = {}
        self._worlds: dict[tuple[tuple[str, ...], int], World] = {}
        self._proven: dict[tuple[str, tuple[str, ...]], bool] = {}

    def catalog(self, services: Sequence[str]) -> Catalog:
        """The catalog of these services (loaded once)."""
        key = tuple(dict.fromkeys(services))
        with self._lock:
            cat = self._catalogs.get(key)
            if cat is None:
                cat = self._catalogs[key] = Catalog.load(list(key))
            return cat

    def world(self, services: Sequence[str], seed: int) -> World:
        """The world of these services and seed (built once)."""
        key = (tuple(dict.fromkeys(services)), seed)
        cat = self.catalog(key[0])
        with self._lock:
            world = self._worlds.get(key)
            if world is None:
                world = self._worlds[key] = World.build(cat, seed=seed)
            return world

    def world_for(self, task: Task, services: Sequence[str] | None = None) -> World:
        """The world a task runs in.

        Args:
            task: The task.
            services: The services of the task set's world. Without them the
                task's own services are used (see the module's docstring).

        Raises:
            ValueError: when the given services do not rebuild the task's
                world, or when without them the task's own services neither
                rebuild it nor let its oracle solution pass.
        """
        if services:
            world = self.world(services, task.world_seed)
            check_task_world(world, task)
            return world
        own = tuple(task_services(task))
        world = self.world(own, task.world_seed)
        if world.version == task.world_version:
            return world
        key = (task.id + ":" + task.world_version, own)
        with self._lock:
            proven = self._proven.get(key)
        if proven is None:
            proven = TaskSession.oracle_passes(task, world)
            with self._lock:
                self._proven[key] = proven
        if not proven:
            raise ValueError(
                f"task {task.id} was made in a world of other services than its own ({', '.join(own)}), "
                "and its solution fails without them: pass the task set's services (its stats.json lists them)"
            )
        return world

    def clear(self) -> None:
        """Forget every catalog and world."""
        with self._lock:
            self._catalogs.clear()
            self._worlds.clear()
            self._proven.clear()


DEFAULT_WORLDS = WorldCache()
"""The process's shared world cache (sessions use it unless given a world or another cache)."""


def _refused(etype: Any, message: str, hint: str) -> CallResult:
    return CallResult(False, None, ToolError(etype, message, None, hint))


class TaskSession:
    """One episode of one task: call its tools, submit an answer, check its criteria.

    Args:
        task: The task (a :class:`~compoworld.tasks.task.Task`, or its JSON text or data).
        services: The services of the task set's world (see :meth:`WorldCache.world_for`).
        worlds: Where worlds come from (default: the process's shared cache).
        world: The task's world, when the caller holds it already; it is checked to be the
            task's (``services`` and ``worlds`` are then not used).
        open_world: Answers open-world calls the task's recording lacks (default: the
            offline synthetic model; see :func:`task_world_model`).
        seed: The episode's seed.
        discovery: Give the agent the two meta-tools (``search_tools`` over the whole
            catalog and ``call_tool``) instead of the task's tools.

    Raises:
        ValueError: when the world is not the one the task was made in.
        DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.

    Attributes:
        task: The task.
        world: Its world (shared, immutable).
        episode: This session's episode (private, mutable).
        answer: The submitted final answer, None until :meth:`submit`.
        calls: How many tool calls were made (searches included).
        errors: How many of them failed.
        discovery: Whether the session is in discovery mode.
    """

    def __init__(
        self,
        task: Task | str | bytes | Mapping[str, Any],
        *,
        services: Sequence[str] | None = None,
        worlds: WorldCache | None = None,
        world: WorldState | None = None,
        open_world: WorldModel | None = None,
        seed: int = 0,
        discovery: bool = False,
    ) -> None:
        self.task = load_task(task)
        if world is None:
            world = (worlds or DEFAULT_WORLDS).world_for(self.task, services)
        else:
            check_task_world(world, self.task)
        self.world: WorldState = world
        self.episode = Episode(world, seed=seed, world_model=task_world_model(self.task, open_world))
        # The trigger event happened before the agent arrives; criteria count from after it.
        self._base = apply_setup(self.episode, self.task)
        self.discovery = discovery
        self._index: ToolIndex | None = None
        if discovery:
            self._index = ToolIndex.of(self.world.catalog)
        self._allowed = frozenset(self.task.tools)
        self.answer: str | None = None
        self.calls = 0
        self.errors = 0

    @staticmethod
    def oracle_passes(task: Task, world: WorldState) -> bool:
        """Whether the task's oracle solution meets every criterion in a world (its proof of solvability there)."""
        episode = Episode(world, world_model=task_world_model(task))
        try:
            base = apply_setup(episode, task)
        except SetupError:
            return False
        for step in task.solution:
            if not episode.call(step.tool, step.arguments).ok:
                return False
        return all(v.passed for v in check_criteria(task.criteria, episode, task_answer(task), base))

    @property
    def base(self) -> Snapshot:
        """The state the agent starts from: the world after the task's setup (its trigger event)."""
        return self._base

    @property
    def tools(self) -> list[str]:
        """The names of the tools the agent is given: the task's, or in discovery mode the two meta-tools."""
        return list(META_TOOLS) if self.discovery else list(self.task.tools)

    @property
    def done(self) -> bool:
        """Whether a final answer was submitted (the episode takes no more calls)."""
        return self.answer is not None

    def reset(self) -> None:
        """Start the episode again from the task's initial state: the world after its setup (seed and world model stay)."""
        self.episode.reset()
        self._base = apply_setup(self.episode, self.task)
        self.answer = None
        self.calls = self.errors = 0

    def tool_specs(self, detail: ToolDetail = "full") -> list[dict[str, Any]]:
        """The agent's tools in the OpenAI ``tools`` format (see :func:`compoworld.agents.chat.task_tools`).

        In discovery mode, the two meta-tools (:func:`compoworld.agents.discovery.meta_tool_specs`).
        """
        if self.discovery:
            return meta_tool_specs(detail)
        return task_tools(self.world.catalog, self.task.tools, detail=detail)

    def search(self, query: str, top_k: int = DEFAULT_TOP_K) -> dict[str, Any]:
        """What ``search_tools`` returns for a query: the best tools of the world's catalog (no call is counted).

        Raises:
            DiscoveryUnavailable: when the BM25 library (the ``discovery`` extra) is missing.
        """
        index = self._index or ToolIndex.of(self.world.catalog)
        return index.search(query, top_k)

    def _discover(self, name: Any, arguments: Any) -> CallResult:
        """A call in discovery mode: a search, a ``call_tool`` of a catalog tool, or a refusal."""
        if name == SEARCH_TOOLS:
            search = parse_search_arguments(arguments)
            if isinstance(search, ToolError):
                return CallResult(False, None, search)
            return CallResult(True, self.search(search.query, search.top_k))
        if name == CALL_TOOL:
            call = parse_call_arguments(arguments)
            if isinstance(call, ToolError):
                return CallResult(False, None, call)
            # Any tool of the catalog may be called: finding it is the agent's work.
            if call.name not in self.world.catalog.tools:
                return CallResult(False, None, unknown_tool_error(call.name, direct=False))
            return self.episode.call(call.name, call.arguments)
        text = name if isinstance(name, str) else repr(name)
        return CallResult(False, None, unknown_tool_error(text, direct=True))

    def run(self, name: str, arguments: Any = None) -> CallResult:
        """Run one of the agent's tools; never raises.

        Args:
            name: The tool's full name (``service__tool``); any other name is refused. In discovery
                mode: ``search_tools`` or ``call_tool``, whose ``name`` may be any tool of the catalog.
            arguments: A dict, a JSON object as text, or None for none.

        Returns:
            The result or the structured error; after :meth:`submit` every call is refused.
        """
        self.calls += 1
        if self.done:
            result = _refused("rule_violation", "the final answer was submitted; the episode takes no more calls", "")
        elif self.discovery:
            result = self._discover(name, arguments)
        elif not isinstance(name, str) or name not in self._allowed:
            text = name if isinstance(name, str) else repr(name)
            close = difflib.get_close_matches(text, sorted(self._allowed), n=3, cutoff=0.5)
            hint = (
                f"did you mean {', '.join(close)}?" if close else "call one of the tools you were given, by exact name"
            )
            result = _refused("unknown_tool", f"no tool named {text[:100]!r} is available in this task", hint)
        else:
            result = self.episode.call(name, arguments)
        self.errors += not result.ok
        return result

    def request(self, request: ToolCallRequest) -> dict[str, Any]:
        """Run a tool call as parsed from a model's message; never raises.

        Returns:
            ``{"ok": True, "result": ...}`` or ``{"ok": False, "error": {...}}`` (a
            malformed block, a tool the task does not give, or the tool's own error).
        """
        if request.problem is not None and not self.done:
            self.calls += 1
            self.errors += 1
            hint = 'write {"name": "<tool>", "arguments": {...}}'
            return _refused("invalid_arguments", request.problem, hint).to_dict()
        return self.run(request.name, request.arguments).to_dict()

    def call(self, name: str, arguments: Any = None, *, call_id: str = "call_0") -> dict[str, Any]:
        """Run one of the task's tools by name, as :meth:`request` runs a parsed call.

        Args:
            name: The tool's full name (``service__tool``).
            arguments: A dict, a JSON object as text, or None for none.
            call_id: The id the answering ``tool`` message carries.

        Returns:
            The outcome, as :meth:`request`.
        """
        if arguments is None:
            text = "{}"
        elif isinstance(arguments, str):
            text = arguments
        else:
            try:
                text = json.dumps(arguments, ensure_ascii=False)
            except (TypeError, ValueError) as exc:
                return self.request(
                    ToolCallRequest(call_id, str(name), repr(arguments)[:2000], f"bad arguments: {exc}")
                )
        return self.request(ToolCallRequest(call_id, str(name), text))

    def submit(self, answer: str) -> bool:
        """Submit the final answer; False (and nothing changes) when one was submitted already."""
        if self.done:
            return False
        self.answer = str(answer)
        return True

    def verdicts(self, answer: str | None = None) -> list[Verdict]:
        """Every criterion checked on the current state, with ``answer`` (default: the submitted one, else empty)."""
        final = answer if answer is not None else (self.answer or "")
        return check_criteria(self.task.criteria, self.episode, final, self._base)

    def reward(self, config: RewardConfig | None = None, answer: str | None = None) -> float:
        """The scheme's reward of this episode alone (a group of one; see :func:`score_batch` for groups)."""
        return score_batch([self.task.id], [self.verdicts(answer)], config).rewards[0] or 0.0
