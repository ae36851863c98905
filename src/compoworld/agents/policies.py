"""Policies: whatever chooses an agent's next turn, behind one interface.

A :class:`Policy` sees the conversation so far and the task's tools and
returns the next assistant message (OpenAI format). The rollout runner does
the rest: it runs the calls, answers with ``tool`` messages, and stops at a
final answer or the turn limit. Built in:

* :class:`OraclePolicy` replays the task's solution through the same message
  format, one call per turn, then answers; in discovery mode (when it is given
  ``search_tools`` and ``call_tool``) it first searches for each solution tool
  by what it does, then calls it through ``call_tool``;
* :class:`RandomPolicy` makes plausible but uninformed calls from the task's
  tools, with arguments drawn from the world's values;
* :class:`OpenAIPolicy` asks any OpenAI-compatible endpoint (native
  ``tool_calls``, or Hermes text that the runner parses);
* ``compoworld.agents.hf.TransformersPolicy`` runs a Hugging Face model in worker
  processes (the ``train`` extra).
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from compoworld.agents.chat import ToolDetail, parse_tool_calls, render_hermes_call
from compoworld.agents.discovery import (
    CALL_TOOL,
    DEFAULT_TOP_K,
    SEARCH_TOOLS,
    discovery_queries,
    is_discovery_toolset,
)
from compoworld.engine.catalog import Catalog
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool
from compoworld.tasks.task import Task, task_answer
from compoworld.world.world import World

__all__ = [
    "OpenAIPolicy",
    "OraclePolicy",
    "Policy",
    "PolicyTurn",
    "PolicyUnavailable",
    "RandomPolicy",
    "TurnInput",
    "oracle_discovery_message",
    "oracle_message",
]


class PolicyUnavailable(RuntimeError):
    """The policy could not answer for reasons outside the agent (an endpoint down after every retry).

    The runner records no trajectory for such an episode, so a later run retries it.
    """


@dataclass(slots=True)
class TurnInput:
    """What a policy sees when asked for a turn.

    Attributes:
        task: The task (policies other than the oracle must not read its solution).
        messages: The conversation so far (OpenAI format).
        tools: The task's tools (OpenAI format).
        turn: The turn number, from 0.
        rollout: The rollout index within the task's group.
        rng: The episode's own source of randomness (seeded by run seed, task and rollout).
        world: The episode's world.
    """

    task: Task
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    turn: int
    rollout: int
    rng: random.Random
    world: World


@dataclass(slots=True)
class PolicyTurn:
    """A policy's answer: the assistant message and, when known, its token counts.

    ``error`` says why the policy produced no usable turn for reasons that are
    the agent's own (an endpoint rejecting an over-long conversation); the
    episode then ends as a failure.
    """

    message: dict[str, Any]
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    error: str | None = None


class Policy(ABC):
    """Chooses the next assistant turn.

    Attributes:
        name: Name recorded in trajectories.
        tool_detail: How much of the tool schemas the runner shows (``full``, ``compact``, ``slim``).
    """

    name: str = "policy"
    tool_detail: ToolDetail = "full"

    @abstractmethod
    async def act(self, inp: TurnInput) -> PolicyTurn:
        """The next assistant message for this conversation.

        Raises:
            PolicyUnavailable: when the policy cannot answer for reasons outside the agent.
        """

    async def aclose(self) -> None:  # noqa: B027 - most policies hold nothing to release
        """Release what the policy holds (clients, worker processes)."""


def oracle_message(task: Task, turn: int, *, hermes: bool = False) -> dict[str, Any]:
    """The oracle's assistant message at a turn: the solution's next call, then the final answer.

    Args:
        task: The task.
        turn: The turn number, from 0.
        hermes: Write the call as a Hermes ``<tool_call>`` block in the text instead of native ``tool_calls``.
    """
    if turn >= len(task.solution):
        return {"role": "assistant", "content": task_answer(task) or "Done."}
    step = task.solution[turn]
    arguments = json.dumps(step.arguments, ensure_ascii=False, sort_keys=True)
    if hermes:
        return {"role": "assistant", "content": render_hermes_call(step.tool, arguments)}
    call = {"id": f"call_{turn}_0", "type": "function", "function": {"name": step.tool, "arguments": arguments}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _call_message(calls: list[tuple[str, dict[str, Any]]], turn: int, hermes: bool) -> dict[str, Any]:
    """An assistant message asking for these ``(tool, arguments)`` calls, in order."""
    texts = [(name, json.dumps(args, ensure_ascii=False, sort_keys=True)) for name, args in calls]
    if hermes:
        return {"role": "assistant", "content": "\n".join(render_hermes_call(n, a) for n, a in texts)}
    tool_calls = [
        {"id": f"call_{turn}_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(texts)
    ]
    return {"role": "assistant", "content": None, "tool_calls": tool_calls}


def _listed(result_text: Any, name: str) -> bool:
    """Whether a ``search_tools`` result (the ``tool`` message's text) lists a tool."""
    if not isinstance(result_text, str):
        return False
    try:
        data = json.loads(result_text)
    except ValueError:  # cut for length: look for the entry in the text
        return f'"name": {json.dumps(name, ensure_ascii=False)}' in result_text
    results = data.get("results") if isinstance(data, dict) else None
    return isinstance(results, list) and any(isinstance(r, dict) and r.get("name") == name for r in results)


def _discovery_progress(messages: list[dict[str, Any]]) -> tuple[int, int, str | None]:
    """``(tools called, searches since the last call, the last search's result text)`` of a conversation.

    The last search's result is None unless the latest call was a search.
    """
    results = {m.get("tool_call_id"): m.get("content") for m in messages if m.get("role") == "tool"}
    called = searches = 0
    last: str | None = None
    turn = 0
    for message in messages:
        if message.get("role") != "assistant":
            continue
        _, calls = parse_tool_calls(message, turn)
        turn += 1
        for call in calls:
            if call.name == CALL_TOOL:
                called, searches, last = called + 1, 0, None
            elif call.name == SEARCH_TOOLS:
                searches += 1
                found = results.get(call.id)
                last = found if isinstance(found, str) else None
    return called, searches, last


def oracle_discovery_message(
    task: Task, messages: list[dict[str, Any]], catalog: Catalog, turn: int, *, hermes: bool = False
) -> dict[str, Any]:
    """The oracle's assistant message in discovery mode, from the conversation so far.

    For each solution step in turn it searches with the tool's intent and
    description words (:func:`~compoworld.agents.discovery.discovery_queries`),
    and when a search lists the tool, calls it through ``call_tool`` with the
    step's arguments, in the same turn as the search for the next step's tool
    (so a task takes about as many turns as without discovery). A search that
    misses is followed by a fuller query, then by the exact name; should that
    miss too, the tool is called by name anyway. After the last step it gives
    the final answer.

    Args:
        task: The task.
        messages: The conversation so far (OpenAI format, ``tool`` results included).
        catalog: The catalog of the task's world.
        turn: The turn number, for the call ids.
        hermes: Write the calls as Hermes ``<tool_call>`` blocks in the text.
    """
    called, searches, last = _discovery_progress(messages)
    n = len(task.solution)
    if called >= n:
        return oracle_message(task, n)
    step = task.solution[called]
    queries = discovery_queries(catalog.tools[step.tool], catalog)
    if searches and ((last is not None and _listed(last, step.tool)) or searches >= len(queries)):
        calls: list[tuple[str, dict[str, Any]]] = [(CALL_TOOL, {"name": step.tool, "arguments": step.arguments})]
        if called + 1 < n:
            following = discovery_queries(catalog.tools[task.solution[called + 1].tool], catalog)
            calls.append((SEARCH_TOOLS, {"query": following[0], "top_k": DEFAULT_TOP_K}))
        return _call_message(calls, turn, hermes)
    return _call_message([(SEARCH_TOOLS, {"query": queries[searches], "top_k": DEFAULT_TOP_K})], turn, hermes)


class OraclePolicy(Policy):
    """Replays the task's solution: one call per turn, then the answer criterion's value.

    Given the discovery mode's meta-tools instead of the task's, it finds each
    tool by searching first (see :func:`oracle_discovery_message`).

    Args:
        hermes: Write calls as Hermes text rather than native ``tool_calls``.
    """

    name = "oracle"

    def __init__(self, *, hermes: bool = False) -> None:
        self.hermes = hermes

    async def act(self, inp: TurnInput) -> PolicyTurn:
        """The solution's next call (or, in discovery mode, the search for it), or the final answer."""
        if is_discovery_toolset(inp.tools):
            message = oracle_discovery_message(inp.task, inp.messages, inp.world.catalog, inp.turn, hermes=self.hermes)
            return PolicyTurn(message)
        return PolicyTurn(oracle_message(inp.task, inp.turn, hermes=self.hermes))


@dataclass(slots=True)
class _Pools:
    by_world: dict[str, ValuePool] = field(default_factory=dict)

    def of(self, world: World) -> ValuePool:
        pool = self.by_world.get(world.version)
        if pool is None:
            pool = self.by_world[world.version] = ValuePool.from_world(world, per_table=50)
        return pool


class RandomPolicy(Policy):
    """Plausible but uninformed: random tools of the task, arguments drawn from the world's values.

    Each turn it stops with probability ``1 / (solution length + 1)`` (never on
    the first turn), answering with a value it saw; otherwise it calls a random
    tool of the task with arguments built from the tool's schema and values of
    the world of the right semantic type (in discovery mode, through ``call_tool``).

    Args:
        optional_share: Probability of filling each optional argument.
    """

    name = "random"

    def __init__(self, *, optional_share: float = 0.3) -> None:
        self.optional_share = optional_share
        self._pools = _Pools()

    async def act(self, inp: TurnInput) -> PolicyTurn:
        """A random call, or a final answer."""
        rng = inp.rng
        if inp.turn > 0 and rng.random() < 1 / (len(inp.task.solution) + 1):
            seen = [m["content"] for m in inp.messages if m.get("role") == "tool"]
            answer = rng.choice(seen)[:200] if seen else "Done."
            return PolicyTurn({"role": "assistant", "content": answer})
        name = rng.choice(inp.task.tools)
        tool = inp.world.catalog.tools[name]
        gen = ArgumentGenerator(inp.world, self._pools.of(inp.world), tool.service, rng)
        args = gen.arguments(tool, self.optional_share)
        if is_discovery_toolset(inp.tools):
            name, args = CALL_TOOL, {"name": name, "arguments": args}
        return PolicyTurn(_call_message([(name, args)], inp.turn, False))


class OpenAIPolicy(Policy):
    """A model behind any OpenAI-compatible chat-completions endpoint, through the ``openai`` client.

    Transient failures (connection errors, timeouts, HTTP 408/409/429/5xx) are
    retried with exponential backoff by the client; when every retry fails the
    turn raises :class:`PolicyUnavailable`. A request the endpoint rejects as
    invalid (HTTP 400, e.g. a conversation longer than the model's context)
    ends the episode as the agent's failure.

    Args:
        base_url: The endpoint, e.g. ``http://127.0.0.1:8000/v1``.
        model: The model name.
        api_key: The key (local servers accept any).
        temperature: Sampling temperature.
        max_tokens: Most tokens per turn.
        timeout_s: Seconds per request before it is retried.
        max_retries: Retries per request.
        native_tools: Send ``tools`` (native tool calling); without it the model
            must write Hermes ``<tool_call>`` blocks, and the tools are listed in
            the system turn.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str = "EMPTY",
        temperature: float = 0.7,
        max_tokens: int = 1024,
        timeout_s: float = 120.0,
        max_retries: int = 4,
        native_tools: bool = True,
    ) -> None:
        from openai import AsyncOpenAI

        self.name = f"openai:{model}"
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.native_tools = native_tools
        self.client = AsyncOpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=max_retries)

    def _messages(self, inp: TurnInput) -> list[dict[str, Any]]:
        if self.native_tools:
            return inp.messages
        listing = "\n".join(json.dumps(t["function"], ensure_ascii=False) for t in inp.tools)
        system = (
            f"{inp.messages[0]['content']}\n\nYou may call functions. Their signatures are inside <tools></tools>:\n"
            f"<tools>\n{listing}\n</tools>\nFor each call write a JSON object inside <tool_call></tool_call>:\n"
            '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
        )
        return [{"role": "system", "content": system}, *inp.messages[1:]]

    async def act(self, inp: TurnInput) -> PolicyTurn:
        """Ask the endpoint for the next turn."""
        import openai

        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": self._messages(inp),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": inp.rng.randrange(2**31),
        }
        if self.native_tools:
            kwargs["tools"] = inp.tools
        try:
            resp = await self.client.chat.completions.create(**kwargs)
        except openai.BadRequestError as exc:
            return PolicyTurn({"role": "assistant", "content": None}, error=f"the endpoint rejected the turn: {exc}")
        except openai.APIError as exc:
            raise PolicyUnavailable(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        if not resp.choices:
            raise PolicyUnavailable(f"{self.name}: the endpoint returned no choice")
        message = resp.choices[0].message.model_dump(mode="json", exclude_none=True)
        usage = resp.usage
        return PolicyTurn(
            message,
            usage.prompt_tokens if usage else None,
            usage.completion_tokens if usage else None,
        )

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self.client.close()
