"""Sessions: private episodes served to remote clients, bounded in number, size and idle time.

Both servers (MCP and HTTP) sit on the same three pieces:

* :class:`ServeBackend` holds what a server offers: one loaded catalog, its
  worlds (one per seed, built once) and the tasks named on the command line.
  It turns a request for services or for a task into a :class:`Scope`.
* :class:`Session` owns one :class:`~compoworld.engine.episode.Episode` and the tools
  its scope allows. Every call goes through the engine's runtime; a task
  session plays its task through a :class:`~compoworld.agents.session.TaskSession`,
  as rollouts and the trainer adapters do, and adds two tools of its own, to
  read the instruction and to submit a final answer for the rubric's verdict.
* :class:`SessionManager` keeps at most ``max_sessions`` sessions and drops the
  ones idle longer than ``idle_timeout_s``, so a server's memory stays bounded
  whatever its clients do.

A scope in tool discovery mode (``discovery=True``) lists two meta-tools
instead of its tools: ``search_tools`` ranks the scope's tools against a query
(a task scope's: every tool of the catalog) and ``call_tool`` runs one of them
exactly as a direct call would (see :mod:`compoworld.agents.discovery`).

Nothing here touches the network or the file system on a client's behalf:
task files are read once, from paths given on the server's command line.
"""

from __future__ import annotations

import difflib
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compoworld.agents.discovery import (
    CALL_TOOL,
    META_TOOLS,
    SEARCH_TOOLS,
    CallArguments,
    SearchArguments,
    SearchResult,
    ToolIndex,
    meta_tool_specs,
    parse_call_arguments,
    parse_search_arguments,
    require_discovery,
    unknown_tool_error,
)
from compoworld.agents.session import TaskSession
from compoworld.engine.catalog import Catalog
from compoworld.engine.episode import Episode, Snapshot, StateDiff
from compoworld.engine.errors import ToolError
from compoworld.engine.openworld import DEFAULT_WORLD_MODEL, WorldModel
from compoworld.engine.runtime import CallResult, parse_arguments
from compoworld.engine.tools import Tool, ToolAnnotations
from compoworld.tasks.criteria import Verdict
from compoworld.tasks.task import Task, check_task_world
from compoworld.tasks.taskset import read_tasks, task_set_services
from compoworld.world.world import World

__all__ = [
    "INSTRUCTION_TOOL",
    "MAX_ANSWER_CHARS",
    "SUBMIT_TOOL",
    "TASK_TOOLS",
    "Evaluation",
    "Scope",
    "ServeBackend",
    "ServeError",
    "ServeErrorType",
    "ServeLimits",
    "Session",
    "SessionManager",
    "ToolSpec",
]

ServeErrorType = Literal[
    "unknown_session",
    "session_expired",
    "session_limit",
    "unknown_snapshot",
    "snapshot_limit",
    "write_limit",
    "not_a_task",
    "task_submitted",
    "unknown_task",
    "unknown_service",
    "no_session",
]

SUBMIT_TOOL = "task__submit_answer"
"""The tool a task session's agent calls once, with its final answer, to get the rubric's verdict."""
INSTRUCTION_TOOL = "task__get_instruction"
"""The tool that returns a task session's instruction."""
TASK_TOOLS = (INSTRUCTION_TOOL, SUBMIT_TOOL)
MAX_ANSWER_CHARS = 100_000


class ServeError(Exception):
    """A request about sessions that cannot be served (not a tool's own failure).

    Args:
        type_: What went wrong, as a stable code.
        message: What went wrong, in words.
        hint: What to do instead.
    """

    def __init__(self, type_: ServeErrorType, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.type: ServeErrorType = type_
        self.message = message
        self.hint = hint

    def to_dict(self) -> dict[str, str | None]:
        """Return the error in the same shape as a tool's :class:`~compoworld.engine.errors.ToolError`."""
        return {"type": self.type, "message": self.message, "field": None, "hint": self.hint}


@dataclass(frozen=True, slots=True)
class ServeLimits:
    """What bounds a server's memory.

    Attributes:
        max_sessions: Live sessions at most; creating one more is refused.
        idle_timeout_s: A session unused this long is dropped (None: never, as for stdio's one session).
        max_snapshots: Snapshots one session may hold.
        max_writes: Successful write calls one session may make before it must reset.
        max_body_bytes: Largest request body the HTTP servers read.
    """

    max_sessions: int = 256
    idle_timeout_s: float | None = 900.0
    max_snapshots: int = 32
    max_writes: int = 50_000
    max_body_bytes: int = 1_000_000


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as a server lists it: the engine's schemas, or a task tool's own.

    Attributes:
        name: Tool name.
        description: What it does, for an agent.
        input_schema: JSON Schema of the arguments (an object).
        output_schema: JSON Schema of the result (any JSON value).
        annotations: Its side effects.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    annotations: ToolAnnotations

    @classmethod
    def of(cls, tool: Tool) -> ToolSpec:
        """The spec of an engine tool (schemas rendered now if they were not yet)."""
        return cls(tool.name, tool.description, tool.parameters_schema, tool.result_schema, tool.annotations)


class Evaluation(BaseModel):
    """The rubric's verdict on a task session's state and final answer."""

    model_config = ConfigDict(frozen=True)

    task_id: str = Field(description="The task.")
    passed: bool = Field(description="Every criterion holds.")
    score: float = Field(ge=0.0, le=1.0, description="Share of the criteria that hold.")
    criteria: list[Verdict] = Field(description="One verdict per criterion, in the task's order.")
    answer: str = Field(description="The final answer that was checked.")
    state_hash: str = Field(description="Canonical hash of the state that was checked.")


class _SubmitArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    answer: str = Field(
        max_length=MAX_ANSWER_CHARS,
        description="Your final answer to the task, in words; include any value the task asked you to find.",
    )


class _NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Instruction(BaseModel):
    instruction: str = Field(description="What the task asks.")
    given: dict[str, Any] = Field(description="The facts the instruction states, by label.")


def _schema(model: type[BaseModel], mode: Literal["validation", "serialization"]) -> dict[str, Any]:
    schema = model.model_json_schema(mode=mode)
    schema.pop("title", None)
    return schema


_READ = ToolAnnotations(read_only=True, destructive=False, idempotent=True, open_world=False)
_TASK_SPECS = (
    ToolSpec(
        INSTRUCTION_TOOL,
        "Read the task you are asked to do: its instruction and the facts it gives.",
        _schema(_NoArgs, "validation"),
        _schema(_Instruction, "serialization"),
        _READ,
    ),
    ToolSpec(
        SUBMIT_TOOL,
        "Finish the task: submit your final answer once everything is done. The state of the services and "
        "your answer are then checked against the task's rubric and the verdict is returned. You can submit "
        "only once; nothing can be changed afterwards.",
        _schema(_SubmitArgs, "validation"),
        _schema(Evaluation, "serialization"),
        # It changes no service, but it ends the task: not read-only; submitting again changes nothing.
        ToolAnnotations(read_only=False, destructive=False, idempotent=True, open_world=False),
    ),
)


def _meta_specs() -> tuple[ToolSpec, ...]:
    """The discovery mode's two tools as the servers list them."""
    search, call = meta_tool_specs()
    searching = SearchResult.model_json_schema(mode="serialization")
    searching.pop("title", None)
    return (
        ToolSpec(
            SEARCH_TOOLS, search["function"]["description"], _schema(SearchArguments, "validation"), searching, _READ
        ),
        ToolSpec(
            CALL_TOOL,
            call["function"]["description"],
            _schema(CallArguments, "validation"),
            {"description": "The called tool's own result."},
            # It runs whatever tool it is given: it may write, delete and reach the open world.
            ToolAnnotations(read_only=False, destructive=True, idempotent=False, open_world=True),
        ),
    )


@dataclass(frozen=True, slots=True)
class Scope:
    """What a session may see: a world, the tools it offers and, for a task session, the task.

    Attributes:
        world: The world the session's episode overlays.
        tools: The engine tools offered, in listing order (in discovery mode: the ones
            ``search_tools`` searches and ``call_tool`` runs).
        services: The services they belong to.
        task: The task, for a task session.
        world_model: Answers open-world calls; in a task session, those its recording lacks.
        discovery: Tool discovery mode: list ``search_tools`` and ``call_tool`` instead of the tools.
    """

    world: World
    tools: tuple[str, ...]
    services: tuple[str, ...]
    task: Task | None = None
    world_model: WorldModel = DEFAULT_WORLD_MODEL
    discovery: bool = False
    _allowed: frozenset[str] = field(default=frozenset(), repr=False)
    _reachable: frozenset[str] = field(default=frozenset(), repr=False)
    _specs: list[ToolSpec] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        listed = META_TOOLS if self.discovery else self.tools
        names = listed + (TASK_TOOLS if self.task is not None else ())
        object.__setattr__(self, "_allowed", frozenset(names))
        object.__setattr__(self, "_reachable", frozenset(self.tools))

    def allows(self, name: str) -> bool:
        """True when a session of this scope may call ``name`` (in discovery mode: a meta-tool or task tool)."""
        return name in self._allowed

    def reaches(self, name: str) -> bool:
        """True when ``name`` is one of the scope's engine tools (in discovery mode: what ``call_tool`` runs)."""
        return name in self._reachable

    def search(self, query: str, top_k: int) -> dict[str, Any]:
        """What ``search_tools`` returns in this scope: the best of its engine tools for a query.

        Raises:
            DiscoveryUnavailable: when the BM25 library (the ``discovery`` extra) is missing.
        """
        catalog = self.world.catalog
        allowed = None if len(self._reachable) == len(catalog.tools) else self._reachable
        return ToolIndex.of(catalog).search(query, top_k, allowed)

    def tool_specs(self) -> list[ToolSpec]:
        """Every tool a session of this scope lists, engine tools (or the meta-tools) first (built once)."""
        if not self._specs:
            catalog = self.world.catalog
            specs = list(_meta_specs()) if self.discovery else [ToolSpec.of(catalog.tools[n]) for n in self.tools]
            if self.task is not None:
                specs.extend(_TASK_SPECS)
            self._specs.extend(specs)
        return self._specs

    def close_matches(self, name: str) -> list[str]:
        """Up to three tool names of this scope that look like ``name``."""
        return difflib.get_close_matches(name, sorted(self._allowed), n=3, cutoff=0.6)


class ServeBackend:
    """What a server offers: one catalog, its worlds, and the tasks loaded at start.

    Args:
        catalog: The loaded catalog (a tool's schemas are rendered when a session first lists it).
        seed: The world seed of service sessions.
        tasks: Tasks that sessions may be made for; each must live in a world of this catalog.
        world_model: Answers open-world calls of service sessions (default: the offline synthetic model).

    Raises:
        ValueError: if two tasks share an id, a task was made with another catalog or world, or a task
            names a tool this catalog lacks.
    """

    def __init__(
        self,
        catalog: Catalog,
        *,
        seed: int = 0,
        tasks: Iterable[Task] = (),
        world_model: WorldModel | None = None,
    ) -> None:
        for name in TASK_TOOLS + META_TOOLS:
            if name in catalog.tools:
                raise ValueError(f"the catalog has a tool named {name}, which sessions reserve")
        self.catalog = catalog
        self.seed = seed
        self.world_model = world_model or DEFAULT_WORLD_MODEL
        self._worlds: dict[int, World] = {}
        self._scopes: dict[tuple[tuple[str, ...], bool], Scope] = {}
        self._task_scopes: dict[tuple[str, bool], Scope] = {}
        self.tasks: dict[str, Task] = {}
        for task in tasks:
            self.add_task(task)
        self.world(seed)

    def add_task(self, task: Task) -> None:
        """Offer one more task to new sessions (a viewer adds the task a reader opens, not a whole file).

        Raises:
            ValueError: if a task of that id is loaded already, the task was made with another catalog or
                world, or it names a tool this catalog lacks.
        """
        if task.id in self.tasks:
            raise ValueError(f"task {task.id} is given twice")
        self._check_task(task)
        self.tasks[task.id] = task

    @classmethod
    def load(
        cls,
        services: Sequence[str] | None = None,
        *,
        seed: int = 0,
        task_files: Sequence[str | Path] = (),
        task_ids: Sequence[str] | None = None,
    ) -> ServeBackend:
        """Load a catalog and the tasks of some task files.

        Args:
            services: Services to load. None: the services the first task file's set was synthesized
                over (from the ``stats.json`` beside it), else every registered one.
            seed: World seed of service sessions.
            task_files: ``tasks.jsonl`` files.
            task_ids: Keep only these tasks (None: all of them).

        Returns:
            The backend.

        Raises:
            CatalogError: for an unknown service.
            OSError: if a task file cannot be read.
            ValueError: for an invalid task file, an unknown task id or a task of another catalog.
        """
        if services is None and task_files:
            services = task_set_services(task_files[0])
        catalog = Catalog.load(services)
        tasks = [t for path in task_files for t in read_tasks(path)]
        if task_ids is not None:
            by_id = {t.id: t for t in tasks}
            missing = [i for i in task_ids if i not in by_id]
            if missing:
                raise ValueError(f"no task with id {', '.join(missing)} in {', '.join(map(str, task_files))}")
            tasks = [by_id[i] for i in task_ids]
        return cls(catalog, seed=seed, tasks=tasks)

    def world(self, seed: int) -> World:
        """The world of a seed, built on first use."""
        found = self._worlds.get(seed)
        if found is None:
            found = self._worlds[seed] = World.build(self.catalog, seed=seed)
        return found

    def _check_task(self, task: Task) -> None:
        check_task_world(self.world(task.world_seed), task)
        missing = [t for t in task.tools if t not in self.catalog.tools]
        if missing:
            raise ValueError(f"task {task.id} names unknown tools {missing}")

    def scope_for_services(self, services: Sequence[str] | None = None, *, discovery: bool = False) -> Scope:
        """A scope offering every tool of some loaded services (one per set of services and mode, shared).

        Args:
            services: Service names (None: every loaded service).
            discovery: Tool discovery mode: sessions list ``search_tools`` (over these services' tools)
                and ``call_tool`` instead of the tools.

        Raises:
            ServeError: ``unknown_service`` if one is not loaded.
            DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.
        """
        if discovery:
            require_discovery()
        names = tuple(self.catalog.services) if services is None else tuple(dict.fromkeys(services))
        scope = self._scopes.get((names, discovery))
        if scope is not None:
            return scope
        unknown = [s for s in names if s not in self.catalog.services]
        if unknown or not names:
            raise ServeError(
                "unknown_service",
                f"no loaded service named {', '.join(repr(s[:100]) for s in unknown)}"
                if unknown
                else "no service named",
                f"loaded services: {', '.join(self.catalog.services)}",
            )
        tools = tuple(t.name for s in names for t in self.catalog.tools_of(s))
        scope = Scope(self.world(self.seed), tools, names, world_model=self.world_model, discovery=discovery)
        if len(self._scopes) < 1024:  # clients choose the sets: keep the cache bounded
            self._scopes[(names, discovery)] = scope
        return scope

    def scope_for_task(self, task_id: str, *, discovery: bool = False) -> Scope:
        """A scope offering one task's tools and the task tools (one per task and mode, shared).

        Args:
            task_id: The task.
            discovery: Tool discovery mode: sessions list ``search_tools`` (over every tool of the
                catalog), ``call_tool`` and the task tools, as rollouts in that mode do.

        Raises:
            ServeError: ``unknown_task`` if no such task was loaded.
            DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.
        """
        if discovery:
            require_discovery()
        scope = self._task_scopes.get((task_id, discovery))
        if scope is not None:
            return scope
        task = self.tasks.get(task_id)
        if task is None:
            known = ", ".join(list(self.tasks)[:20]) or "none (start the server with a task file)"
            raise ServeError("unknown_task", f"no task with id {task_id[:200]!r}", f"loaded tasks: {known}")
        if discovery:
            tools, services = tuple(self.catalog.tools), tuple(self.catalog.services)
        else:
            tools = tuple(task.tools)
            services = tuple(dict.fromkeys(self.catalog.tools[t].service for t in task.tools))
        scope = Scope(self.world(task.world_seed), tools, services, task, self.world_model, discovery)
        self._task_scopes[(task_id, discovery)] = scope
        return scope


class Session:
    """One client's private episode and the tools its scope allows.

    Args:
        session_id: The session's id.
        scope: What it may see.
        seed: Episode seed.
        limits: Snapshot and write bounds.
        now: The manager's clock reading at creation.
    """

    __slots__ = (
        "_next_snapshot",
        "_task_session",
        "calls",
        "created",
        "episode",
        "id",
        "last_used",
        "limits",
        "scope",
        "snapshots",
        "submitted",
        "writes",
    )

    def __init__(self, session_id: str, scope: Scope, *, seed: int, limits: ServeLimits, now: float) -> None:
        self.id = session_id
        self.scope = scope
        self.limits = limits
        self._task_session: TaskSession | None = None
        if scope.task is not None:
            self._task_session = TaskSession(
                scope.task, world=scope.world, open_world=scope.world_model, seed=seed, discovery=scope.discovery
            )
            self.episode: Episode = self._task_session.episode
        else:
            self.episode = Episode(scope.world, seed=seed, world_model=scope.world_model)
        self.snapshots: dict[str, Snapshot] = {}
        self._next_snapshot = 1
        self.created = now
        self.last_used = now
        self.calls = 0
        self.writes = 0
        self.submitted: Evaluation | None = None

    @property
    def task(self) -> Task | None:
        """The session's task, if it is a task session."""
        return self.scope.task

    def call(self, name: str, arguments: Any = None) -> CallResult:
        """Run one call of a tool this session offers.

        Args:
            name: The tool's name.
            arguments: A dict, a JSON object as text, or None.

        Returns:
            The result or the structured error; a failed call changes nothing.

        Raises:
            ServeError: ``task_submitted`` after the task was submitted, ``write_limit`` when the session has
                written as much as it may.
        """
        self.calls += 1
        if not isinstance(name, str) or not self.scope.allows(name):
            text = name if isinstance(name, str) else repr(name)
            if self.scope.discovery and isinstance(name, str) and self.scope.reaches(name):
                return CallResult(False, None, unknown_tool_error(name, direct=True))
            close = self.scope.close_matches(text) if isinstance(name, str) else []
            hint = f"did you mean {', '.join(close)}?" if close else "call one of the tools this session lists"
            return CallResult(False, None, ToolError("unknown_tool", f"no tool named {text[:100]!r} here", None, hint))
        if name in TASK_TOOLS:
            return self._task_tool(name, arguments)
        if self.scope.discovery:
            if name == SEARCH_TOOLS:
                search = parse_search_arguments(arguments)
                if isinstance(search, ToolError):
                    return CallResult(False, None, search)
                return CallResult(True, self.scope.search(search.query, search.top_k))
            call = parse_call_arguments(arguments)
            if isinstance(call, ToolError):
                return CallResult(False, None, call)
            if not self.scope.reaches(call.name):
                return CallResult(False, None, unknown_tool_error(call.name, direct=False))
            name, arguments = call.name, call.arguments
        if self.submitted is not None:
            raise ServeError(
                "task_submitted", "the task was submitted; its state is final", "reset the session to retry"
            )
        tool = self.scope.world.catalog.tools[name]
        if tool.writes and self.writes >= self.limits.max_writes:
            raise ServeError(
                "write_limit",
                f"this session made {self.writes} write calls, the most a session may make",
                "reset the session or restore a snapshot to go on",
            )
        if self._task_session is None:
            result = self.episode.call(name, arguments)
        elif self.scope.discovery:  # the task session's own call_tool: the same checks as in rollouts
            result = self._task_session.run(CALL_TOOL, {"name": name, "arguments": arguments})
        else:
            result = self._task_session.run(name, arguments)
        if result.ok and tool.writes:
            self.writes += 1
        return result

    def _task_tool(self, name: str, arguments: Any) -> CallResult:
        task = self.scope.task
        assert task is not None
        args = parse_arguments(arguments)
        if isinstance(args, ToolError):
            return CallResult(False, None, args)
        model: type[BaseModel] = _SubmitArgs if name == SUBMIT_TOOL else _NoArgs
        try:
            parsed = model.model_validate(args)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            loc = ".".join(str(p) for p in first.get("loc", ())) or None
            return CallResult(
                False,
                None,
                ToolError("invalid_arguments", f"{loc or 'arguments'}: {first.get('msg', 'invalid')}", loc, ""),
            )
        if isinstance(parsed, _SubmitArgs):
            return CallResult(True, self.submit(parsed.answer).model_dump(mode="json"))
        return CallResult(True, {"instruction": task.instruction, "given": task.given})

    def evaluate(self, answer: str = "") -> Evaluation:
        """Check the task's rubric on the current state and an answer, changing nothing.

        Raises:
            ServeError: ``not_a_task`` for a services session.
        """
        if self._task_session is None:
            raise ServeError("not_a_task", "this session serves services, not a task", "create a task session")
        task = self._task_session.task
        verdicts = self._task_session.verdicts(answer)
        met = sum(v.passed for v in verdicts)
        return Evaluation(
            task_id=task.id,
            passed=met == len(verdicts),
            score=met / len(verdicts) if verdicts else 1.0,
            criteria=verdicts,
            answer=answer,
            state_hash=self.episode.state_hash(),
        )

    def submit(self, answer: str) -> Evaluation:
        """Submit a final answer: evaluate once and freeze the session until it is reset.

        A second submission returns the first verdict.

        Raises:
            ServeError: ``not_a_task`` for a services session.
        """
        if self.submitted is None:
            self.submitted = self.evaluate(answer)
            assert self._task_session is not None
            self._task_session.submit(answer)
        return self.submitted

    def reset(self) -> None:
        """Back to the world's initial state; a submitted task can be tried again. Snapshots are kept."""
        if self._task_session is not None:
            self._task_session.reset()
        else:
            self.episode.reset()
        self.writes = 0
        self.submitted = None

    def snapshot(self) -> str:
        """Take a snapshot and return its id.

        Raises:
            ServeError: ``snapshot_limit`` when the session holds as many as it may.
        """
        if len(self.snapshots) >= self.limits.max_snapshots:
            raise ServeError(
                "snapshot_limit",
                f"this session holds {len(self.snapshots)} snapshots, the most it may",
                "delete a snapshot you no longer need",
            )
        snap_id = f"snap-{self._next_snapshot}"
        self._next_snapshot += 1
        self.snapshots[snap_id] = self.episode.snapshot()
        return snap_id

    def _snapshot(self, snap_id: str) -> Snapshot:
        snap = self.snapshots.get(snap_id)
        if snap is None:
            raise ServeError(
                "unknown_snapshot",
                f"this session has no snapshot {snap_id[:100]!r}",
                f"its snapshots: {', '.join(self.snapshots) or 'none'}",
            )
        return snap

    def restore(self, snap_id: str) -> None:
        """Return to a snapshot's state (the snapshot stays).

        Raises:
            ServeError: ``unknown_snapshot``.
        """
        self.episode.restore(self._snapshot(snap_id))

    def diff(self, since: str | None = None) -> StateDiff:
        """Records added, updated and removed since the initial state or a snapshot.

        Raises:
            ServeError: ``unknown_snapshot``.
        """
        return self.episode.diff(self._snapshot(since) if since is not None else None)

    def drop_snapshot(self, snap_id: str) -> None:
        """Forget a snapshot.

        Raises:
            ServeError: ``unknown_snapshot``.
        """
        self._snapshot(snap_id)
        del self.snapshots[snap_id]

    def info(self) -> dict[str, Any]:
        """The session's description as JSON-ready data."""
        task = self.scope.task
        return {
            "session_id": self.id,
            "services": list(self.scope.services),
            "task_id": task.id if task else None,
            "instruction": task.instruction if task else None,
            "tools": [s.name for s in self.scope.tool_specs()],
            "calls": self.calls,
            "writes": self.writes,
            "snapshots": list(self.snapshots),
            "submitted": self.submitted is not None,
            "state_hash": self.episode.state_hash(),
        }


class SessionManager:
    """Live sessions by id, at most ``limits.max_sessions``, idle ones dropped.

    Idle expiry is checked on every access, so an expired session is never
    served; :meth:`sweep` also frees the memory of sessions nobody touches again
    (the servers run it periodically).

    Args:
        limits: The bounds.
        clock: Seconds from any origin (``time.monotonic`` by default; tests pass a fake).
    """

    EXPIRED_MEMORY = 4096
    """How many expired ids are remembered, to answer ``session_expired`` rather than ``unknown_session``."""

    def __init__(self, limits: ServeLimits | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or ServeLimits()
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._expired: OrderedDict[str, None] = OrderedDict()
        self.on_close: list[Callable[[Session], None]] = []
        self.created = 0
        self.expired = 0
        self.closed = 0
        self._retired_calls = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._sessions

    def create(self, scope: Scope, *, seed: int = 0, session_id: str | None = None) -> Session:
        """Open a session.

        Args:
            scope: What it may see.
            seed: Episode seed.
            session_id: Its id (default: a fresh unguessable one).

        Raises:
            ServeError: ``session_limit`` when ``max_sessions`` are live after dropping idle ones.
        """
        if len(self._sessions) >= self.limits.max_sessions:
            self.sweep()
            if len(self._sessions) >= self.limits.max_sessions:
                raise ServeError(
                    "session_limit",
                    f"the server holds {len(self._sessions)} sessions, the most it may",
                    "close sessions you no longer use, or retry when idle ones have expired",
                )
        sid = session_id or secrets.token_urlsafe(18)
        if sid in self._sessions:
            raise ValueError(f"session {sid} exists")
        session = Session(sid, scope, seed=seed, limits=self.limits, now=self._clock())
        self._sessions[sid] = session
        self.created += 1
        return session

    def get(self, session_id: str) -> Session:
        """Return a live session and mark it used.

        Raises:
            ServeError: ``session_expired`` or ``unknown_session``.
        """
        session = self._sessions.get(session_id)
        now = self._clock()
        if session is not None and self._is_idle(session, now):
            self._drop(session, expired=True)
            session = None
        if session is None:
            if session_id in self._expired:
                raise ServeError(
                    "session_expired",
                    f"session {session_id[:64]!r} was idle longer than {self.limits.idle_timeout_s:g} s and was dropped",
                    "create a new session",
                )
            raise ServeError("unknown_session", f"no session {session_id[:64]!r}", "create a session first")
        session.last_used = now
        return session

    def close(self, session_id: str) -> None:
        """Close a session and free its episode.

        Raises:
            ServeError: ``unknown_session`` (or ``session_expired``).
        """
        session = self.get(session_id)
        self._drop(session, expired=False)

    def close_all(self) -> None:
        """Close every session (at shutdown)."""
        for session in list(self._sessions.values()):
            self._drop(session, expired=False)

    def sweep(self) -> list[str]:
        """Drop every session idle longer than the timeout; return their ids."""
        now = self._clock()
        idle = [s for s in self._sessions.values() if self._is_idle(s, now)]
        for session in idle:
            self._drop(session, expired=True)
        return [s.id for s in idle]

    def _is_idle(self, session: Session, now: float) -> bool:
        timeout = self.limits.idle_timeout_s
        return timeout is not None and now - session.last_used > timeout

    def _drop(self, session: Session, *, expired: bool) -> None:
        del self._sessions[session.id]
        self._retired_calls += session.calls
        if expired:
            self.expired += 1
            self._expired[session.id] = None
            while len(self._expired) > self.EXPIRED_MEMORY:
                self._expired.popitem(last=False)
        else:
            self.closed += 1
        for callback in self.on_close:
            callback(session)

    def stats(self) -> dict[str, int]:
        """Counts: live ``sessions``, and ``created``, ``expired``, ``closed`` sessions and ``calls`` served."""
        live_calls = sum(s.calls for s in self._sessions.values())
        return {
            "sessions": len(self._sessions),
            "created": self.created,
            "expired": self.expired,
            "closed": self.closed,
            "calls": self._retired_calls + live_calls,
        }
