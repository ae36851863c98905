"""Policies: whatever chooses an agent's next turn, behind one interface.

A :class:`Policy` sees the conversation so far and the task's tools and
returns the next assistant message (OpenAI format). The rollout runner does
the rest: it runs the calls, answers with ``tool`` messages, and stops at a
final answer or the turn limit. Built in:

* :class:`OraclePolicy` replays the task's solution through the same message
  format, one call per turn, then answers;
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

from compoworld.agents.chat import ToolDetail, render_hermes_call
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


class OraclePolicy(Policy):
    """Replays the task's solution: one call per turn, then the answer criterion's value.

    Args:
        hermes: Write calls as Hermes text rather than native ``tool_calls``.
    """

    name = "oracle"

    def __init__(self, *, hermes: bool = False) -> None:
        self.hermes = hermes

    async def act(self, inp: TurnInput) -> PolicyTurn:
        """The solution's next call, or the final answer."""
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
    the world of the right semantic type.

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
        call = {
            "id": f"call_{inp.turn}_0",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False, sort_keys=True)},
        }
        return PolicyTurn({"role": "assistant", "content": None, "tool_calls": [call]})


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
