"""Gymnasium adapter: CompoWorld tasks as a text environment.

:class:`CompoWorldEnv` follows Gymnasium's API: ``reset(seed=, options=) ->
(observation, info)`` and ``step(action) -> (observation, reward, terminated,
truncated, info)``. Observations are text: after ``reset``, the system
prompt, the task's instruction and its tools; after a step, the tools'
results. An action is one of

* a tool call as a dict: ``{"tool": "crm__search_contacts", "arguments": {...}}``
  (``"name"`` works for ``"tool"``, and the arguments may be JSON text);
* a final answer as a dict: ``{"answer": "..."}``;
* an assistant message as a dict (OpenAI format: ``content``, ``tool_calls``);
* model text: Hermes ``<tool_call>{...}</tool_call>`` blocks are calls, and
  text without one is the final answer.

With ``discovery=True`` the tools listed are the discovery mode's two
meta-tools, ``search_tools`` (over every tool of the world's catalog) and
``call_tool`` (see :mod:`compoworld.agents.discovery`).

The reward is 0 until the episode ends. A final answer ends it
(``terminated``) with the reward scheme's reward of the episode alone
(``binary`` and ``uniform`` exactly; ``completion_focused`` on a group of one,
since its weights need the group). After ``max_turns`` steps without an
answer it is cut off (``truncated``) and, like a rollout that hits its turn
limit, scored on its final state without an answer (``score_truncated=False``
gives 0 instead). Malformed actions never raise: they become an error
observation and use up the turn.

With gymnasium installed (``gymnasium==1.4.0``), the class is a real
``gymnasium.Env`` with ``Text`` observation and action spaces, passes
``gymnasium.utils.env_checker.check_env``, and :func:`register_env` makes it
available to ``gymnasium.make`` as :data:`ENV_ID`. Without gymnasium it keeps
the same API on a small local base class.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from compoworld.adapters.common import ToolListing, tool_listing, tool_text, verdict_metrics
from compoworld.agents.chat import SYSTEM_PROMPT, ToolCallRequest, parse_tool_calls
from compoworld.agents.discovery import CALL_TOOL, SEARCH_TOOLS, require_discovery
from compoworld.agents.session import TaskSession, load_task
from compoworld.tasks.rewards import RewardConfig
from compoworld.tasks.task import Task
from compoworld.tasks.taskset import read_tasks, task_set_services

__all__ = ["ENV_ID", "GYMNASIUM_AVAILABLE", "TEXT_CHARSET", "CompoWorldEnv", "register_env"]

ENV_ID = "compoworld/CompoWorld-v0"
"""The id :func:`register_env` registers with Gymnasium."""

TEXT_CHARSET = "".join(chr(i) for i in range(0x10000) if not 0xD800 <= i <= 0xDFFF)
"""Characters of the Text spaces: the Basic Multilingual Plane; others are written as ``\\Uxxxxxxxx`` escapes."""

_O = TypeVar("_O")
_A = TypeVar("_A")


class _LocalRandom:
    """The one method of numpy's ``Generator`` the environment uses, for when gymnasium is absent."""

    def __init__(self, seed: int | None) -> None:
        self._rng = random.Random(seed)

    def integers(self, high: int) -> int:
        return self._rng.randrange(high)


class _LocalEnv(Generic[_O, _A]):
    """The part of ``gymnasium.Env`` the environment relies on, for when gymnasium is not installed."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - as gymnasium.Env declares it
    render_mode: str | None = None
    spec: Any = None
    _local_rng: _LocalRandom | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        if seed is not None or self._local_rng is None:
            self._local_rng = _LocalRandom(seed)

    @property
    def np_random(self) -> _LocalRandom:
        if self._local_rng is None:
            self._local_rng = _LocalRandom(None)
        return self._local_rng

    @property
    def unwrapped(self) -> _LocalEnv[_O, _A]:
        return self

    def close(self) -> None:
        return None


try:
    import gymnasium as _gymnasium
    from gymnasium import spaces as _spaces
except ImportError:  # pragma: no cover - exercised only without the extra
    _gymnasium = None  # type: ignore[assignment]
    _spaces = None  # type: ignore[assignment]

GYMNASIUM_AVAILABLE = _gymnasium is not None
"""Whether gymnasium imported: then :class:`CompoWorldEnv` is a ``gymnasium.Env``."""

if TYPE_CHECKING:
    from gymnasium import Env as _EnvBase
else:
    _EnvBase = _gymnasium.Env if _gymnasium is not None else _LocalEnv


@lru_cache(maxsize=8)
def _text_space(max_length: int) -> Any:
    assert _spaces is not None
    return _spaces.Text(max_length=max_length, min_length=0, charset=TEXT_CHARSET)


def _new_text_space(max_length: int) -> Any:
    """A Text space sharing its (large) charset tables with others of the same length, with its own RNG."""
    return copy.copy(_text_space(max_length))


def _fit(text: str, limit: int) -> str:
    """Text inside the observation space: astral characters escaped, cut to ``limit`` with a note."""
    if any(ord(c) > 0xFFFF for c in text):
        text = "".join(c if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in text)
    if len(text) > limit:
        note = " … [cut]"
        text = text[: max(0, limit - len(note))] + note
    return text[:limit]


def _error(kind: str, message: str, hint: str = "") -> dict[str, Any]:
    return {"ok": False, "error": {"type": kind, "message": message, "field": None, "hint": hint}}


_GUIDE = (
    "Act with one tool call per step, as "
    '<tool_call>{"name": "<tool>", "arguments": {...}}</tool_call> '
    '(or a dict action {"tool": ..., "arguments": ...}); reply without a tool call to give the final answer.'
)
_DISCOVERY_GUIDE = (
    f"The tools above are not the applications' own: find those with {SEARCH_TOOLS} (describe what the tool does), "
    f"then run one by the exact name a search returned with {CALL_TOOL}."
)


class CompoWorldEnv(_EnvBase[str, Any]):
    """A text environment over a set of CompoWorld tasks: each episode is one task.

    Args:
        tasks: The tasks, or a ``tasks.jsonl`` file.
        services: The services of the task set's world (default: a task file's
            ``stats.json``; else each task's own).
        reward: The reward scheme (default: ``completion_focused``).
        max_turns: Steps before an episode is truncated.
        tool_listing: How the first observation lists the tools (JSON schemas ``full``,
            ``compact`` or ``slim``, or one ``signature`` line each).
        score_truncated: Score a truncated episode on its final state (else reward 0).
        render_mode: None, or ``ansi`` (``render()`` returns the episode's text so far).
        max_observation_chars: The observation space's maximum length.
        max_action_chars: The action space's maximum length (dict actions are not bounded).
        discovery: Tool discovery mode: list ``search_tools`` and ``call_tool`` instead of the task's tools.

    Raises:
        ValueError: when there are no tasks (``TaskFileError`` when a task file cannot be used).
        DiscoveryUnavailable: in discovery mode, when its BM25 library (the ``discovery`` extra) is missing.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - as gymnasium.Env declares it

    def __init__(
        self,
        tasks: Sequence[Task | str | Mapping[str, Any]] | str | Path,
        *,
        services: Sequence[str] | None = None,
        reward: RewardConfig | None = None,
        max_turns: int = 50,
        tool_listing: ToolListing = "compact",
        score_truncated: bool = True,
        render_mode: str | None = None,
        max_observation_chars: int = 200_000,
        max_action_chars: int = 16_384,
        discovery: bool = False,
    ) -> None:
        if discovery:
            require_discovery()
        if isinstance(tasks, (str, Path)):
            self.tasks = read_tasks(tasks)
            services = services or task_set_services(tasks)
        else:
            self.tasks = [load_task(t) for t in tasks]
        if not self.tasks:
            raise ValueError("CompoWorldEnv needs at least one task")
        if max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; use None or 'ansi'")
        self.services = list(services) if services else None
        self.reward_config = reward or RewardConfig()
        self.max_turns = max_turns
        self.tool_listing: ToolListing = tool_listing
        self.score_truncated = score_truncated
        self.render_mode = render_mode
        self.max_observation_chars = max_observation_chars
        self.discovery = discovery
        if _spaces is not None:
            self.observation_space = _new_text_space(max_observation_chars)
            self.action_space = _new_text_space(max_action_chars)
        self._by_id = {t.id: i for i, t in enumerate(self.tasks)}
        self._session: TaskSession | None = None
        self._turn = 0
        self._over = True
        self._transcript: list[str] = []

    @property
    def session(self) -> TaskSession | None:
        """The current episode's session (None before the first reset)."""
        return self._session

    def _pick(self, options: Mapping[str, Any] | None) -> Task:
        opts = options or {}
        if opts.get("task") is not None:
            return load_task(opts["task"])
        if opts.get("task_id") is not None:
            tid = str(opts["task_id"])
            if tid not in self._by_id:
                raise ValueError(f"no task {tid!r} in this environment")
            return self.tasks[self._by_id[tid]]
        if opts.get("task_index") is not None:
            return self.tasks[int(opts["task_index"]) % len(self.tasks)]
        return self.tasks[int(self.np_random.integers(len(self.tasks)))]

    def _info(self, **extra: Any) -> dict[str, Any]:
        assert self._session is not None
        info: dict[str, Any] = {
            "task_id": self._session.task.id,
            "turn": self._turn,
            "calls": self._session.calls,
            "errors": self._session.errors,
        }
        info.update(extra)
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start an episode.

        Args:
            seed: Seeds the draw of the task (when ``options`` names none).
            options: ``task_id``, ``task_index`` or ``task`` (a task or its JSON) to choose the task.

        Returns:
            The first observation (system prompt, instruction, tools, how to act) and
            ``info`` with ``task_id``, ``tools`` (the names listed) and ``max_turns``.
        """
        super().reset(seed=seed)
        task = self._pick(options)
        self._session = TaskSession(task, services=self.services, discovery=self.discovery)
        self._turn = 0
        self._over = False
        tools = tool_listing(self._session, self.tool_listing)
        guide = [_GUIDE, _DISCOVERY_GUIDE] if self.discovery else [_GUIDE]
        text = "\n\n".join([SYSTEM_PROMPT, task.instruction, "Tools:\n" + tools, *guide])
        obs = _fit(text, self.max_observation_chars)
        self._transcript = [obs]
        return obs, self._info(tools=self._session.tools, max_turns=self.max_turns)

    def _parse(self, action: Any) -> tuple[list[ToolCallRequest], str | None, bool, str | None]:
        """``(calls, answer, as_text, problem)`` of an action."""
        turn = self._turn
        if isinstance(action, str):
            prose, calls = parse_tool_calls({"role": "assistant", "content": action}, turn)
            return calls, (None if calls else prose), True, None
        if isinstance(action, Mapping):
            if "answer" in action:
                answer = action["answer"]
                return [], answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False), False, None
            name = action.get("tool", action.get("name"))
            if name is not None:
                args = action.get("arguments", {})
                if not isinstance(name, str):
                    return [], None, False, "the tool name must be a string"
                try:
                    text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
                except (TypeError, ValueError) as exc:
                    return [], None, False, f"the arguments are not JSON: {exc}"
                return [ToolCallRequest(f"call_{turn}_0", name, text)], None, False, None
            if "content" in action or "tool_calls" in action:
                prose, calls = parse_tool_calls(dict(action), turn)
                return calls, (None if calls else prose), False, None
        return (
            [],
            None,
            False,
            'an action is {"tool": name, "arguments": {...}}, {"answer": text}, or model text',
        )

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Take one turn: run the action's tool calls, or end the episode with its final answer.

        Args:
            action: A dict tool call, a dict final answer, an assistant message, or model text.

        Returns:
            ``(observation, reward, terminated, truncated, info)``; ``info`` has
            ``task_id``, ``turn``, ``calls``, ``errors``, ``outcomes`` (ok per call of
            this step) and, when the episode ends, ``verdicts``, ``success`` and ``metrics``.

        Raises:
            RuntimeError: when no episode is running (call ``reset``).
        """
        if self._session is None or self._over:
            raise RuntimeError("no episode is running: call reset() first")
        session = self._session
        self._turn += 1
        calls, answer, as_text, problem = self._parse(action)
        outcomes: list[bool] = []
        if answer is not None:
            session.submit(answer)
            obs = "Final answer recorded; the episode is over."
            terminated = True
        elif problem is not None:
            obs = json.dumps({"error": _error("invalid_arguments", problem)["error"]}, sort_keys=True)
            outcomes.append(False)
            terminated = False
        else:
            texts = []
            for req in calls:
                outcome = session.request(req)
                outcomes.append(bool(outcome["ok"]))
                body = tool_text(req, outcome)
                texts.append(f"<tool_response>\n{body}\n</tool_response>" if as_text else body)
            obs = "\n".join(texts)
            terminated = False
        truncated = not terminated and self._turn >= self.max_turns
        reward = 0.0
        extra: dict[str, Any] = {"outcomes": outcomes}
        if terminated or truncated:
            self._over = True
            verdicts = session.verdicts()
            if terminated or self.score_truncated:
                reward = float(session.reward(self.reward_config))
            extra["verdicts"] = [v.model_dump() for v in verdicts]
            extra["success"] = all(v.passed for v in verdicts)
            extra["metrics"] = verdict_metrics(verdicts)
        obs = _fit(obs, self.max_observation_chars)
        self._transcript.append(obs)
        return obs, reward, terminated, truncated, self._info(**extra)

    def render(self) -> str | None:
        """The episode's observations so far (``ansi`` mode), else None."""
        if self.render_mode == "ansi":
            return "\n\n".join(self._transcript)
        return None


def register_env(env_id: str = ENV_ID) -> None:
    """Register :class:`CompoWorldEnv` with Gymnasium (once), for ``gymnasium.make(env_id, tasks=...)``.

    Raises:
        ImportError: when gymnasium is not installed.
    """
    if _gymnasium is None:
        raise ImportError("registering the environment needs gymnasium: pip install gymnasium==1.4.0")
    if env_id not in _gymnasium.registry:
        _gymnasium.register(id=env_id, entry_point="compoworld.adapters.gym:CompoWorldEnv")
