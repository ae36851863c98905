"""verl adapter: ``compute_score``, a batch reward function, a tool class and its YAML config.

Rows come from :func:`compoworld.train.export.rl_rows` with ``fmt="verl"``:
``reward_model.ground_truth`` is the task as JSON and ``extra_info`` carries
``task_id`` and, per tool, ``tools_kwargs[tool].create_kwargs = {"task_id": ...}``.

* :func:`compute_score` is verl's ``custom_reward_function``: it reads the
  model's whole response (Hermes ``<tool_call>`` blocks, the tool responses
  the template rendered, the final answer), replays its calls on a fresh
  episode of the task, checks the criteria with the final answer and returns
  ``{"score": ..., "acc": ..., ...}`` with the same numeric keys for every
  sample (verl stacks them into per-batch arrays).
* :func:`compute_score_batch` has the signature of verl's ``batch`` reward
  manager (``data_sources, solution_strs, ground_truths, extra_infos``) and
  applies the reward scheme over the rows sharing a group index: GRPO's
  group, which only a whole batch shows. The newer ``reward_loop`` managers
  may call it with one sample at a time; the group is then of one.
* :class:`CompoWorldTool` follows verl's ``BaseTool`` lifecycle (``create``,
  ``execute``, ``calc_reward``, ``release``). verl's ``ToolAgentLoop`` creates
  and releases an instance around every single call, so the episode lives on
  the loop's ``agent_data`` (one per trajectory, shared by every tool of the
  task); called without ``agent_data``, each instance holds its own episode.
* :func:`verl_tool_config` and :func:`write_verl_tool_config` write the
  ``tool_config_path`` YAML listing the task set's tools.

Tool discovery mode: with ``discovery: true`` in a tool's ``config`` (what
``write_verl_tool_config(..., discovery=True)`` writes), the tools are
``search_tools`` (over every tool of the world's catalog) and ``call_tool``,
and the episodes run in that mode; :func:`compute_score` replays a response
in that mode when its row's ``extra_info`` says ``discovery`` (or
``reward_kwargs`` do).

verl needs GPUs and Ray in practice and is not a dependency; verl 0.9.1 also
pins ``transformers<5.11``, while TRL 1.16's tool-call parsing needs 5.13 or
later, so the two cannot share one environment. This module
subclasses verl's ``BaseTool`` and returns its ``ToolResponse`` when verl
imports, and otherwise local classes with the same contract, against which
the tests run. What is not exercised without verl: its own YAML loader
(``initialize_tools_from_config``), its schema models, and its agent loop.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from uuid import uuid4

from pydantic import BaseModel

from compoworld.adapters.common import CRITERION_KINDS, messages_from_text, replay_messages, tool_text, verdict_metrics
from compoworld.agents.chat import ToolCallRequest
from compoworld.agents.discovery import require_discovery
from compoworld.agents.session import TaskSession, load_task
from compoworld.tasks.criteria import Verdict
from compoworld.tasks.rewards import REWARD_OPTIONS, RewardConfig, score_batch
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks

__all__ = [
    "VERL_AVAILABLE",
    "CompoWorldTool",
    "LocalBaseTool",
    "LocalToolResponse",
    "compute_score",
    "compute_score_batch",
    "open_instances",
]

"""The ``class_name`` of the tool in verl's tool YAML."""


class LocalToolResponse(BaseModel):
    """What a tool returns to the agent loop: the shape of verl's ``ToolResponse`` (used without verl)."""

    text: str | None = None
    image: list[Any] | None = None
    video: list[Any] | None = None


def _schema_name(tool_schema: Any) -> str:
    if isinstance(tool_schema, Mapping):
        return str(tool_schema["function"]["name"])
    return str(tool_schema.function.name)


class LocalBaseTool:
    """verl's ``BaseTool`` contract, for when verl is not installed.

    Args:
        config: The tool's ``config`` from the tool YAML.
        tool_schema: Its OpenAI tool schema (verl's model, or a dict).
    """

    def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
        self.config = config
        self.tool_schema = tool_schema
        self.name = _schema_name(tool_schema)

    def get_openai_tool_schema(self) -> Any:
        """The tool's OpenAI schema."""
        return self.tool_schema

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, Any]:
        """Create an instance; return its id and a creation response."""
        return instance_id or uuid4().hex, LocalToolResponse()

    async def execute(
        self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
    ) -> tuple[Any, float, dict[str, Any]]:
        """Run the tool; return ``(response, step reward, metrics)``."""
        return LocalToolResponse(text="Updated the tool state."), 0.0, {}

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """The instance's reward."""
        return 0.0

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Free the instance."""


def _verl_classes() -> tuple[type[Any], type[Any]] | None:
    if os.environ.get("COMPOWORLD_NO_VERL"):
        return None
    try:
        from verl.tools.base_tool import BaseTool  # type: ignore[import-not-found, unused-ignore]
        from verl.tools.schemas import ToolResponse  # type: ignore[import-not-found, unused-ignore]
    except Exception:  # verl absent, or present but unable to start (no GPU stack): use the local contract
        return None
    return BaseTool, ToolResponse


_VERL = _verl_classes()
VERL_AVAILABLE = _VERL is not None
"""Whether verl imported: then :class:`CompoWorldTool` subclasses its ``BaseTool`` and returns its ``ToolResponse``."""

if TYPE_CHECKING:
    _ToolBase = LocalBaseTool
    _Response = LocalToolResponse
else:
    _ToolBase = _VERL[0] if _VERL else LocalBaseTool
    _Response = _VERL[1] if _VERL else LocalToolResponse


def _reward_config(options: Mapping[str, Any]) -> RewardConfig:
    return RewardConfig(**{k: options[k] for k in REWARD_OPTIONS if k in options})


def _score_fields(reward: float, verdicts: Sequence[Verdict]) -> dict[str, float]:
    """The fields of one sample's score: the same keys for every sample, whatever its criteria."""
    metrics = verdict_metrics(verdicts)
    out = {"score": float(reward), "acc": metrics["completion"], "criteria_pass_rate": metrics["criteria_pass_rate"]}
    for kind in CRITERION_KINDS:
        of_kind = [v.passed for v in verdicts if v.kind == kind]
        out[f"{kind}_total"] = float(len(of_kind))
        out[f"{kind}_passed"] = float(sum(of_kind))
    return out


def _replay(
    solution_str: str, ground_truth: Any, services: Sequence[str] | None, discovery: bool = False
) -> tuple[Task, list[Verdict]]:
    task = load_task(ground_truth)
    session = TaskSession(task, services=services, discovery=discovery)
    answer = replay_messages(session, messages_from_text(solution_str))
    return task, session.verdicts(answer)


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: Any,
    extra_info: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, float]:
    """Score one response for verl (its ``compute_score``): replay the calls, check the rubric, apply the scheme.

    Args:
        data_source: The row's ``data_source`` (``compoworld``; not checked).
        solution_str: The decoded response: Hermes ``<tool_call>`` blocks, the
            ``<tool_response>`` blocks of the environment, and the final answer.
        ground_truth: The task as JSON (``reward_model.ground_truth``).
        extra_info: The row's ``extra_info``; a ``services`` entry names the task set's services,
            a true ``discovery`` entry replays in tool discovery mode.
        **kwargs: ``reward_kwargs`` of verl's config: ``scheme``, ``alpha``,
            ``epsilon``, ``lam``, ``gating`` (a single sample is a group of
            one: use :func:`compute_score_batch` for group weighting), ``services``, ``discovery``.

    Returns:
        ``score``, ``acc`` (every criterion passed), ``criteria_pass_rate``, and
        ``<kind>_total`` / ``<kind>_passed`` for each criterion kind.
    """
    info = extra_info or {}
    services = kwargs.get("services") or info.get("services")
    discovery = bool(kwargs.get("discovery") or info.get("discovery"))
    task, verdicts = _replay(solution_str, ground_truth, services, discovery)
    reward = score_batch([task.id], [verdicts], _reward_config(kwargs)).rewards[0] or 0.0
    return _score_fields(reward, verdicts)


def _group_key(info: Mapping[str, Any], task: Task) -> Hashable:
    for key in ("uid", "group", "task_id", "index"):
        value = info.get(key)
        if value is not None:
            return str(value)
    return task.id


def compute_score_batch(
    data_sources: Sequence[str],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
    **kwargs: Any,
) -> list[dict[str, float]]:
    """Score a batch for verl's ``batch`` reward manager, applying the scheme per group.

    Rows belong to the same group when their ``extra_info`` shares ``uid``
    (when the caller adds it), else ``group``, else ``task_id``, else
    ``index`` (verl repeats a prompt's ``extra_info`` for its ``n`` rollouts).

    Args:
        data_sources: Per row, its ``data_source``.
        solution_strs: Per row, the decoded response.
        ground_truths: Per row, the task as JSON.
        extra_infos: Per row, its ``extra_info``.
        **kwargs: The scheme's parameters (as :func:`compute_score`) and
            whatever else the manager passes (ignored).

    Returns:
        One dict per row, as :func:`compute_score`.
    """
    infos: list[Mapping[str, Any]] = [i or {} for i in (extra_infos or [None] * len(solution_strs))]
    keys: list[Hashable] = []
    verdicts: list[list[Verdict]] = []
    for text, truth, info in zip(solution_strs, ground_truths, infos, strict=True):
        discovery = bool(kwargs.get("discovery") or info.get("discovery"))
        task, vs = _replay(text, truth, kwargs.get("services") or info.get("services"), discovery)
        keys.append(_group_key(info, task))
        verdicts.append(vs)
    batch = score_batch(keys, verdicts, _reward_config(kwargs))
    return [_score_fields(r or 0.0, vs) for r, vs in zip(batch.rewards, verdicts, strict=True)]


@lru_cache(maxsize=8)
def _tasks_by_id(path: str, mtime: float) -> dict[str, Task]:
    return {t.id: t for t in read_tasks(path)}


@dataclass(slots=True)
class _Instance:
    create_kwargs: dict[str, Any]
    refs: int = 0
    session: TaskSession | None = None


_instances_lock = threading.Lock()
_instances: dict[str, _Instance] = {}


def open_instances() -> int:
    """Tool instances of this process created and not yet released (by every tool that shares them)."""
    with _instances_lock:
        return len(_instances)


class CompoWorldTool(_ToolBase):
    """One CompoWorld tool for verl's multi-turn rollouts, backed by an episode of the row's task.

    The tool YAML lists one entry per tool, all with this class (see
    :func:`verl_tool_config`); ``config`` holds ``tasks_path`` (where
    ``create_kwargs["task_id"]`` is looked up), ``services`` (the task set's
    world), ``reward`` (the scheme :meth:`calc_reward` uses) and, for tool
    discovery mode, ``discovery: true`` (the tool is then ``search_tools`` or
    ``call_tool``, and the episode runs in that mode).

    Where the episode lives:

    * verl's ``ToolAgentLoop`` creates an instance for every single call and
      passes ``agent_data`` (one per trajectory) to :meth:`execute`: the
      episode is kept on ``agent_data`` and shared by all the task's tools;
    * called without ``agent_data`` (verl's older SGLang rollout, which
      creates every tool of a request under the request's id, or direct use),
      instances are process-wide by id: the tools that create the same
      instance id share one episode, freed when each has released it.

    Args:
        config: The tool's ``config``.
        tool_schema: Its OpenAI schema.
    """

    def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
        super().__init__(config, tool_schema)
        self.services: list[str] | None = list(config["services"]) if config.get("services") else None
        self.tasks_path: str | None = config.get("tasks_path")
        self.reward_config = _reward_config(config.get("reward") or {})
        self.discovery = bool(config.get("discovery"))
        if self.discovery:
            require_discovery()
        self._held: set[str] = set()

    @property
    def instances(self) -> int:
        """Instances this tool created and has not released."""
        return len(self._held)

    def _task(self, create_kwargs: Mapping[str, Any]) -> Task | None:
        for key in ("task", "ground_truth"):
            if create_kwargs.get(key) is not None:
                return load_task(create_kwargs[key])
        task_id = create_kwargs.get("task_id")
        if task_id is None:
            return None
        if not self.tasks_path:
            raise ValueError("create_kwargs name a task_id, but the tool's config has no tasks_path to find it in")
        path = str(Path(self.tasks_path).resolve())
        task = _tasks_by_id(path, os.path.getmtime(path)).get(str(task_id))
        if task is None:
            raise ValueError(f"no task {task_id!r} in {self.tasks_path}")
        return task

    def _session(self, inst: _Instance, agent_data: Any) -> TaskSession | None:
        """The episode a call runs on: the trajectory's (on ``agent_data``) or the shared instance's."""
        if agent_data is None:
            with _instances_lock:
                if inst.session is None:
                    task = self._task(inst.create_kwargs)
                    inst.session = (
                        None if task is None else TaskSession(task, services=self.services, discovery=self.discovery)
                    )
                return inst.session
        task = self._task(inst.create_kwargs)
        if task is None:  # a tool outside the row's tools_kwargs: find the task through the others
            for kw in (getattr(agent_data, "tools_kwargs", None) or {}).values():
                task = self._task((kw or {}).get("create_kwargs") or {})
                if task is not None:
                    break
        if task is None:
            return None
        sessions: dict[str, TaskSession] | None = getattr(agent_data, "compoworld_sessions", None)
        if sessions is None:
            sessions = {}
            agent_data.compoworld_sessions = sessions
        session = sessions.get(task.id)
        if session is None:
            session = sessions[task.id] = TaskSession(task, services=self.services, discovery=self.discovery)
        return session

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, Any]:
        """Create (or join) an instance.

        Args:
            instance_id: The id to use (default: a new one); tools creating the
                same id share its episode.
            **kwargs: ``create_kwargs`` (as verl passes them) or the same keys
                directly: ``task_id`` (looked up in ``tasks_path``), or ``task`` /
                ``ground_truth`` (the task JSON).

        Returns:
            The instance id and an empty response.
        """
        create_kwargs = dict(kwargs.get("create_kwargs") or {k: v for k, v in kwargs.items() if k != "create_kwargs"})
        iid = instance_id or uuid4().hex
        with _instances_lock:
            inst = _instances.get(iid)
            if inst is None:
                inst = _instances[iid] = _Instance(create_kwargs)
            elif create_kwargs and not inst.create_kwargs:
                inst.create_kwargs = create_kwargs
            if iid not in self._held:
                self._held.add(iid)
                inst.refs += 1
        return iid, _Response()

    async def execute(
        self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
    ) -> tuple[Any, float, dict[str, Any]]:
        """Run this tool with the model's arguments on the trajectory's episode.

        Args:
            instance_id: An id from :meth:`create`.
            parameters: The arguments (a dict, or JSON text).
            **kwargs: ``agent_data`` from verl's agent loop, if any.

        Returns:
            The response (the result or the structured error as JSON text), a
            step reward of 0.0 (the episode is scored at its end), and metrics
            ``{"ok": 0|1}``.
        """
        with _instances_lock:
            inst = _instances.get(instance_id)
        if inst is None:
            text = json.dumps({"error": {"type": "rule_violation", "message": f"no tool instance {instance_id!r}"}})
            return _Response(text=text), 0.0, {"ok": 0}
        session = self._session(inst, kwargs.get("agent_data"))
        if session is None:
            message = f"{self.name} is not available in this task"
            return _Response(text=json.dumps({"error": {"type": "unknown_tool", "message": message}})), 0.0, {"ok": 0}
        call_id = f"call_{session.calls}"
        outcome = session.call(self.name, parameters, call_id=call_id)
        text = tool_text(ToolCallRequest(call_id, self.name, ""), outcome)
        return _Response(text=text), 0.0, {"ok": int(bool(outcome["ok"]))}

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """The episode's reward with the configured scheme, on this trajectory alone.

        Args:
            instance_id: An id from :meth:`create`.
            **kwargs: ``answer`` (the final answer, default none) and ``agent_data``.
        """
        with _instances_lock:
            inst = _instances.get(instance_id)
        session = None if inst is None else self._session(inst, kwargs.get("agent_data"))
        if session is None:
            return 0.0
        return session.reward(self.reward_config, answer=kwargs.get("answer"))

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Release this tool's hold on an instance; the last release frees it and its episode."""
        if instance_id not in self._held:
            return
        self._held.discard(instance_id)
        with _instances_lock:
            inst = _instances.get(instance_id)
            if inst is not None:
                inst.refs -= 1
                if inst.refs <= 0:
                    del _instances[instance_id]
