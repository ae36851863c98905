"""The core the trainer adapters share: one task, one episode, its tools and its rubric.

A :class:`TaskSession` is what every adapter drives: TRL's environment class,
verl's tool class, the Gymnasium environment, and the reward functions that
replay a model's completion. It builds on the rollout engine
(:func:`compoworld.agents.rollout.task_episode`, :func:`~compoworld.agents.rollout.execute_request`,
:func:`~compoworld.agents.rollout.task_verdicts`), so a call made through an adapter
behaves exactly as in ``compoworld rollout``: only the task's tools may be
called, a malformed call becomes a structured error the agent reads, and
the final state is checked against the task's criteria.

Worlds are immutable and shared: a :class:`WorldCache` builds one catalog per
service set and one world per ``(services, world seed)``, and every episode
is a copy-on-write view of it. The services of a task's world are, in order
of preference: the ones given (the task set's, e.g. from its ``stats.json``),
checked against the task's world version; else the services of the task's
own tools, accepted when they rebuild the task's exact world or, failing
that, when the task's oracle solution still meets every criterion on them
(a world in which the task is proven solvable).
"""

from __future__ import annotations

import json
import re
import threading
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from compoworld.agents.chat import ToolCallRequest, ToolDetail, parse_tool_calls, slim_tool, task_tools, tool_message
from compoworld.agents.rollout import VerdictRecord, check_task_world, execute_request, task_episode, task_verdicts
from compoworld.engine.catalog import Catalog
from compoworld.engine.episode import Episode
from compoworld.engine.errors import ToolError
from compoworld.tasks.rewards import RewardConfig, group_rewards
from compoworld.tasks.task import Task, task_answer
from compoworld.world.world import World

__all__ = [
    "CALL_TOOL",
    "CRITERION_KINDS",
    "DEFAULT_WORLDS",
    "SUBMIT_ANSWER",
    "BatchScore",
    "TaskSession",
    "ToolListing",
    "TurnOutcome",
    "WorldCache",
    "load_task",
    "messages_from_text",
    "replay_messages",
    "score_batch",
    "take_turn",
    "task_services",
    "tool_signature",
    "tool_text",
    "verdict_metrics",
]

CALL_TOOL = "call_tool"
"""The generic tool of the TRL environment: ``call_tool(name, arguments)`` runs one of the task's tools."""

SUBMIT_ANSWER = "submit_answer"
"""The tool that ends an episode with a final answer (TRL environment)."""

ToolListing = Literal["full", "compact", "slim", "signature"]
"""How tools are written into a prompt: JSON schemas (``full``, ``compact``, ``slim``) or one ``signature`` line each."""

CRITERION_KINDS = ("state", "transition", "answer", "no_collateral")
"""The kinds of rubric criteria (DESIGN §5)."""


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
            proven = _oracle_passes(world, task)
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


def _oracle_passes(world: World, task: Task) -> bool:
    ep = task_episode(world, task)
    for step in task.solution:
        if not ep.call(step.tool, step.arguments).ok:
            return False
    return all(v.passed for v in task_verdicts(task, ep, task_answer(task) or ""))


DEFAULT_WORLDS = WorldCache()
"""The process's shared world cache (adapters use it unless given another)."""


class TaskSession:
    """One episode of one task: call its tools, submit an answer, check its criteria.

    Args:
        task: The task (a :class:`~compoworld.tasks.task.Task`, or its JSON text or data).
        services: The services of the task set's world (see :meth:`WorldCache.world_for`).
        worlds: Where worlds come from (default: the process's shared cache).

    Attributes:
        task: The task.
        world: Its world (shared, immutable).
        episode: This session's episode (private, mutable).
        answer: The submitted final answer, None until :meth:`submit`.
        calls: How many tool calls were made.
        errors: How many of them failed.
    """

    def __init__(
        self,
        task: Task | str | bytes | Mapping[str, Any],
        *,
        services: Sequence[str] | None = None,
        worlds: WorldCache | None = None,
    ) -> None:
        self.task = load_task(task)
        self.world = (worlds or DEFAULT_WORLDS).world_for(self.task, services)
        self.episode: Episode = task_episode(self.world, self.task)
        self.answer: str | None = None
        self.calls = 0
        self.errors = 0

    @property
    def tools(self) -> list[str]:
        """The names of the tools the task gives the agent."""
        return list(self.task.tools)

    @property
    def done(self) -> bool:
        """Whether a final answer was submitted (the episode takes no more calls)."""
        return self.answer is not None

    def reset(self) -> None:
        """Start the episode again from the world's initial state."""
        self.episode = task_episode(self.world, self.task)
        self.answer = None
        self.calls = self.errors = 0

    def tool_specs(self, detail: ToolDetail = "full") -> list[dict[str, Any]]:
        """The task's tools in the OpenAI ``tools`` format (see :func:`compoworld.agents.chat.task_tools`)."""
        return task_tools(self.world.catalog, self.task.tools, detail=detail)

    def tool_listing(self, listing: ToolListing = "compact") -> str:
        """The task's tools as prompt text: one JSON schema per line, or one signature per line."""
        if listing == "signature":
            return "\n".join(tool_signature(t) for t in self.tool_specs("full"))
        specs = [t["function"] for t in self.tool_specs(listing)]
        return "\n".join(json.dumps(s, ensure_ascii=False, sort_keys=True) for s in specs)

    def request(self, request: ToolCallRequest) -> dict[str, Any]:
        """Run a parsed tool call; never raises.

        Returns:
            ``{"ok": True, "result": ...}`` or ``{"ok": False, "error": {...}}``;
            after :meth:`submit` every call is refused.
        """
        if self.done:
            error = ToolError("rule_violation", "the final answer was submitted; the episode takes no more calls")
            outcome: dict[str, Any] = {"ok": False, "error": error.to_dict()}
        else:
            outcome = execute_request(self.episode, request, self.task.tools)
        self.calls += 1
        self.errors += not outcome["ok"]
        return outcome

    def call(self, name: str, arguments: Any = None, *, call_id: str = "call_0") -> dict[str, Any]:
        """Run one of the task's tools by name.

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

    def verdicts(self, answer: str | None = None) -> list[VerdictRecord]:
        """Every criterion checked on the current state, with ``answer`` (default: the submitted one, else empty)."""
        final = answer if answer is not None else (self.answer or "")
        return task_verdicts(self.task, self.episode, final)

    def reward(self, config: RewardConfig | None = None, answer: str | None = None) -> float:
        """The scheme's reward of this episode alone (a group of one; see :func:`score_batch` for groups)."""
        return score_batch([self.task.id], [self.verdicts(answer)], config).rewards[0] or 0.0


def tool_signature(tool: Mapping[str, Any]) -> str:
    """A tool in one line, for small contexts: ``name(param: type, optional?: type) - first sentence``.

    Args:
        tool: The tool in the OpenAI ``tools`` format.
    """
    fn = slim_tool(dict(tool))["function"]
    params = fn["parameters"]
    required = set(params.get("required", []))
    parts = []
    for name, prop in params["properties"].items():
        kind = "|".join(json.dumps(v) for v in prop["enum"]) if prop.get("enum") else str(prop.get("type", "any"))
        if kind == "array":
            kind = f"array[{prop.get('items', {}).get('type', 'any')}]"
        parts.append(f"{name}{'' if name in required else '?'}: {kind}")
    description = re.split(r"\n\s*\n|(?<=[.!?])\s", str(fn.get("description", "")).strip(), maxsplit=1)[0].strip()
    return f"{fn['name']}({', '.join(parts)})" + (f" - {description}" if description else "")


def tool_text(request: ToolCallRequest, outcome: Mapping[str, Any]) -> str:
    """The text an agent reads for a call's outcome: the same as a rollout's ``tool`` message."""
    return str(tool_message(request, dict(outcome))["content"])


def _unwrap(request: ToolCallRequest, task_tools_: Sequence[str]) -> tuple[str, ToolCallRequest | str]:
    """Classify one parsed call: ``("answer", text)``, or ``("call", request)`` with ``call_tool`` unwrapped."""
    if request.problem is None and request.name not in task_tools_:
        if request.name == SUBMIT_ANSWER:
            try:
                args = json.loads(request.arguments or "{}")
            except ValueError:
                args = request.arguments
            answer = args.get("answer", "") if isinstance(args, dict) else args
            return "answer", answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        if request.name == CALL_TOOL:
            try:
                args = json.loads(request.arguments or "{}")
            except ValueError as exc:
                return "call", ToolCallRequest(request.id, "", request.arguments, f"call_tool arguments: {exc}")
            name = args.get("name") if isinstance(args, dict) else None
            if not isinstance(name, str):
                return "call", ToolCallRequest(
                    request.id, "", request.arguments, 'call_tool takes {"name": "<tool>", "arguments": {...}}'
                )
            inner = args.get("arguments", {})
            text = inner if isinstance(inner, str) else json.dumps(inner, ensure_ascii=False)
            return "call", ToolCallRequest(request.id, name, text)
    return "call", request


@dataclass(slots=True)
class TurnOutcome:
    """What one assistant turn did to a session (see :func:`take_turn`).

    Attributes:
        calls: Each tool call the turn ran, with its outcome (the ``call_tool``
            wrapper unwrapped; ``submit_answer`` is not a call).
        answer: The final answer when the turn ended the episode, else None.
    """

    calls: list[tuple[ToolCallRequest, dict[str, Any]]]
    answer: str | None


def take_turn(session: TaskSession, message: Mapping[str, Any], turn: int) -> TurnOutcome:
    """Run one assistant turn on a session, as :func:`compoworld.agents.rollout.run_episode` would.

    The turn's calls (native ``tool_calls`` or Hermes ``<tool_call>`` text) run
    in order; a turn without a call ends the episode with its text as the
    final answer (submitted unless one was already). The TRL environment's
    wrappers are understood: ``call_tool(name, arguments)`` runs the named tool
    and ``submit_answer(answer)`` gives the answer.

    Args:
        session: The episode's session.
        message: The assistant message (OpenAI format).
        turn: The turn's number, for generated call ids.
    """
    prose, requests = parse_tool_calls(dict(message), turn)
    if not requests:
        session.submit(_clean_answer(prose))
        return TurnOutcome([], session.answer)
    calls: list[tuple[ToolCallRequest, dict[str, Any]]] = []
    for req in requests:
        kind, item = _unwrap(req, session.task.tools)
        if kind == "answer":
            assert isinstance(item, str)
            session.submit(item)
        else:
            assert isinstance(item, ToolCallRequest)
            calls.append((item, session.request(item)))
    return TurnOutcome(calls, session.answer if session.done else None)


def replay_messages(session: TaskSession, messages: Sequence[Mapping[str, Any]]) -> str:
    """Replay the calls of a model's completion on a session and find its final answer.

    The completion's assistant messages are read in order and each runs as a
    turn (:func:`take_turn`) until one ends the episode. Other messages (the
    ``tool`` results the model read) are skipped: outcomes come from the
    replay, which is deterministic.

    Args:
        session: A fresh session of the completion's task.
        messages: The completion: assistant (and tool) messages in the OpenAI format.

    Returns:
        The final answer (empty when the completion ends without one).
    """
    turn = 0
    for message in messages:
        if message.get("role", "assistant") != "assistant":
            continue
        outcome = take_turn(session, message, turn)
        turn += 1
        if outcome.answer is not None:
            return outcome.answer
    return session.answer or ""


_RESPONSE_BLOCK = re.compile(r"<tool_response>.*?(?:</tool_response>|$)", re.DOTALL)
_SPECIAL_TOKEN = re.compile(r"<\|[^|<>]{1,40}\|>")
_ROLE_LINE = re.compile(r"^\s*(?:assistant|user|tool|ipython)\s*(?:\n|$)", re.IGNORECASE)


def _clean_answer(text: str) -> str:
    text = _SPECIAL_TOKEN.sub("", text)
    while True:
        stripped = _ROLE_LINE.sub("", text, count=1)
        if stripped == text:
            return text.strip()
        text = stripped


def messages_from_text(text: str) -> list[dict[str, Any]]:
    """Split a whole decoded response (several turns, as verl hands it over) into assistant messages.

    The environment's ``<tool_response>`` blocks separate the model's turns
    and are dropped; chat-template remnants (role names, special tokens) are
    removed from the final answer.

    Args:
        text: The response text: Hermes ``<tool_call>`` blocks, tool responses, final answer.

    Returns:
        One assistant message per turn, in order.
    """
    return [{"role": "assistant", "content": part} for part in _RESPONSE_BLOCK.split(text)]


def verdict_metrics(verdicts: Sequence[VerdictRecord]) -> dict[str, float]:
    """Per-rollout diagnostics: ``completion``, ``criteria_pass_rate`` and ``pass_<kind>`` for each kind present."""
    by_kind: dict[str, list[int]] = defaultdict(list)
    for v in verdicts:
        by_kind[v.kind].append(int(v.passed))
    out = {
        "completion": float(all(v.passed for v in verdicts)),
        "criteria_pass_rate": sum(v.passed for v in verdicts) / len(verdicts) if verdicts else 1.0,
    }
    for kind, values in sorted(by_kind.items()):
        out[f"pass_{kind}"] = sum(values) / len(values)
    return out


@dataclass(slots=True)
class BatchScore:
    """Rewards of a batch of rollouts scored group by group.

    Attributes:
        rewards: Per rollout, its reward (None where it had no verdicts).
        groups: Number of groups scored.
        zero_variance_groups: Groups of more than one rollout whose rewards were all equal.
        multi_rollout_groups: Groups of more than one rollout.
    """

    rewards: list[float | None]
    groups: int = 0
    zero_variance_groups: int = 0
    multi_rollout_groups: int = 0
    weights: dict[Hashable, list[float]] = field(default_factory=dict)


def score_batch(
    keys: Sequence[Hashable], verdicts: Sequence[Sequence[VerdictRecord] | None], config: RewardConfig | None = None
) -> BatchScore:
    """Score rollouts with a reward scheme, the rollouts sharing a key forming one group.

    ``completion_focused`` weighs each criterion by how much of its group fails
    it, so the group must be the rollouts of one prompt (GRPO's group). The
    other schemes score each rollout alone.

    Args:
        keys: Per rollout, its group (task id, or verl's uid).
        verdicts: Per rollout, its verdicts (None: not scored, reward None).
        config: The scheme and its parameters.
    """
    config = config or RewardConfig()
    members: dict[Hashable, list[int]] = defaultdict(list)
    for i, (key, vs) in enumerate(zip(keys, verdicts, strict=True)):
        if vs is not None:
            members[key].append(i)
    out = BatchScore(rewards=[None] * len(keys))
    for key, idxs in members.items():
        first = verdicts[idxs[0]]
        assert first is not None
        index = {v.id: k for k, v in enumerate(first)}
        depends = [[index[d] for d in v.depends_on if d in index] for v in first]
        passed = []
        for i in idxs:
            vs = verdicts[i]
            assert vs is not None
            if [v.id for v in vs] != [v.id for v in first]:
                raise ValueError(f"rollouts of group {key!r} were checked against different criteria")
            passed.append([v.passed for v in vs])
        score = group_rewards(passed, depends, config)
        for i, r in zip(idxs, score.rewards, strict=True):
            out.rewards[i] = r
        out.groups += 1
        out.weights[key] = score.weights
        if len(idxs) > 1:
            out.multi_rollout_groups += 1
            out.zero_variance_groups += score.zero_variance
    return out
