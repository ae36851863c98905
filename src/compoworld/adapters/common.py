"""What the trainer adapters share on top of the task session: turns, replays, prompt text, metrics.

Every adapter drives a :class:`~compoworld.agents.session.TaskSession` (TRL's
environment class and rollout function, verl's tool class, the Gymnasium
environment, and the reward functions that replay a model's completion), so a
call made through an adapter behaves exactly as in ``compoworld rollout``. This
module adds what trainers need beyond it: running one assistant turn with the
TRL environment's ``call_tool``/``submit_answer`` wrappers, replaying a whole
completion, splitting verl's decoded responses, tool listings for prompts and
per-rollout metrics.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from compoworld.agents.chat import ToolCallRequest, parse_tool_calls, slim_tool, tool_message
from compoworld.agents.session import TaskSession
from compoworld.tasks.criteria import CRITERION_KINDS, Verdict

__all__ = [
    "CALL_TOOL",
    "CRITERION_KINDS",
    "SUBMIT_ANSWER",
    "ToolListing",
    "TurnOutcome",
    "messages_from_text",
    "replay_messages",
    "take_turn",
    "tool_listing",
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


def tool_listing(session: TaskSession, listing: ToolListing = "compact") -> str:
    """A session's tools as prompt text: one JSON schema per line, or one signature per line."""
    if listing == "signature":
        return "\n".join(tool_signature(t) for t in session.tool_specs("full"))
    specs = [t["function"] for t in session.tool_specs(listing)]
    return "\n".join(json.dumps(s, ensure_ascii=False, sort_keys=True) for s in specs)


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
    and ``submit_answer(answer)`` gives the answer. In discovery mode
    ``search_tools`` and ``call_tool`` are the session's own tools and run as they are.

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
        kind, item = _unwrap(req, session.tools)
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


def verdict_metrics(verdicts: Sequence[Verdict]) -> dict[str, float]:
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
